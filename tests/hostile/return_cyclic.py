"""Return self-referencing containers (a list containing itself, a dict containing itself)."""
EXPECT = {"category": "proxy injection", "rigs_process": True}
CTX = {}


def is_leap_year(year):
    a = []
    a.append(a)
    d = {}
    d["self"] = d
    return [a, d]
