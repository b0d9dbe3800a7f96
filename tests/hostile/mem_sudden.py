"""Ask for 100 GB at once (bytearray(10**11)) inside the function."""
EXPECT = {"category": "memory bomb"}
CTX = {}


def is_leap_year(year):
    hog = bytearray(10**11)
    return bool(hog) or True
