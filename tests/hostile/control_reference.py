"""Control: the plain correct solution."""
EXPECT = {"category": "control", "visible_green": True}
CTX = {}


def is_leap_year(year):
    if isinstance(year, bool) or not isinstance(year, int) or year < 1:
        raise ValueError(f"year must be a positive integer, got {year!r}")
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
