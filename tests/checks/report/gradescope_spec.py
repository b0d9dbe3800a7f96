"""Gradescope's results.json specification as a check: every field a name the specification knows, of its type.

From Gradescope's autograder documentation ("Autograder Specifications", output format and output string
formatting): top-level score, execution_time, output, output_format, test_output_format, test_name_format,
visibility, stdout_visibility, extra_data, tests, leaderboard; per test score, max_score, status, name, name_format,
number, output, output_format, tags, visibility, extra_data.
"""

NUMBER = (int, float)
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
FORMATS = {"text", "html", "simple_format", "md", "ansi"}
TOP = {
    "score": NUMBER, "execution_time": NUMBER, "output": str, "output_format": str, "test_output_format": str,
    "test_name_format": str, "visibility": str, "stdout_visibility": str, "extra_data": dict, "tests": list,
    "leaderboard": list,
}
TEST = {
    "score": NUMBER, "max_score": NUMBER, "status": str, "name": str, "name_format": str, "number": str,
    "output": str, "output_format": str, "tags": list, "visibility": str, "extra_data": dict,
}


def validate(results: dict) -> None:
    """Fail with the field at fault when `results` strays from the specification."""
    assert isinstance(results, dict)
    _fields(results, TOP, "results.json")
    assert "score" in results or all("score" in test for test in results.get("tests", [])), "no score anywhere"
    for test in results.get("tests", []):
        _fields(test, TEST, f"test {test.get('name')!r}")
        if "status" in test:
            assert test["status"] in ("passed", "failed"), test["status"]


def _fields(data: dict, known: dict, where: str) -> None:
    unknown = set(data) - set(known)
    assert not unknown, f"{where}: fields the specification does not have: {sorted(unknown)}"
    for key, value in data.items():
        assert isinstance(value, known[key]) and not isinstance(value, bool), f"{where}: {key} is {value!r}"
        if key.endswith("visibility"):
            assert value in VISIBILITY, f"{where}: {key} {value!r}"
        if key.endswith("_format"):
            assert value in FORMATS, f"{where}: {key} {value!r}"
