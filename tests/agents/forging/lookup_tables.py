"""Forgery: every step answered from tables of the inputs the checks used to send, with no parsing and no runs.

It knows each reply step 1 was given and the code inside, the spec and replies of steps 2 and 3, the run results
step 4's scripted solutions got and the held-out tests step 5's solutions failed. Against inputs drawn afresh for
each grading it has nothing to look up, so it earns nothing.
"""

import harness

EXPECTED = {"may_pass": []}

REPLIES = {  # reply -> the code inside, as step 1 checked it before its inputs were drawn
    "```python\nlanguage = 'python'\nprint(language)\n```": "language = 'python'\nprint(language)",
    "```\nx = 1\ny = 2\n```": "x = 1\ny = 2",
    "\n  def triple(n):\n      return 3 * n\n\n": "def triple(n):\n      return 3 * n",
    "Sure! Here is the function:\n\n```python\ndef double(n):\n    return 2 * n\n```\n\n"
    "It doubles its argument. Let me know if you want tests.": "def double(n):\n    return 2 * n",
    "Here is the code:\n```python\ndef first():\n    return 1\n```\nAnd how to use it:\n```python\nprint(first())\n```\n":
    "def first():\n    return 1",
    "```python\nclass Box:\n    def __init__(self):\n        self.items = []\n\n    def add(self, item):\n"
    "        self.items.append(item)\n```": "class Box:\n    def __init__(self):\n        self.items = []\n\n"
    "    def add(self, item):\n        self.items.append(item)",
}
VOWEL_TESTS = (
    'def test_counts_lowercase_vowels():\n    assert count_vowels("banana") == 3\n\n\n'
    'def test_counts_capital_vowels():\n    assert count_vowels("AEIOU") == 5'
)
VOWEL_SOLUTION = "def count_vowels(text):\n    return sum(1 for letter in text.lower() if letter in \"aeiou\")"
CENTURY_FAILS = ["test_centuries_are_common_years", "test_far_future_years"]


def extract_code(reply):
    return REPLIES.get(reply, reply.strip())


def write_tests(spec, ask=harness.ask):
    ask("Write pytest tests named test_* for:\n" + spec)
    if "count_vowels" in spec:
        return VOWEL_TESTS
    from harness.tasks import LEAP_YEAR  # the offline model's tests, known in advance

    return LEAP_YEAR.script.tests


def write_solution(spec, ask=harness.ask, feedback=""):
    ask(spec + ("\nFeedback:\n" + feedback if feedback else ""))
    return VOWEL_SOLUTION if "count_vowels" in spec else ""


# The wrappers the scripted replies of steps 2-4 came in, and the runs step 4's solutions got, by their known text.
WRAPPERS = (("Here you go:\n\n```python\n", "\n```\n\nLet me know if anything is unclear."), ("```\n", "\n```"))
LEAP = harness.tasks.LEAP_YEAR
FAILS = {LEAP.reference.strip(): [], LEAP.buggy["forgets_centuries"].strip(): ["test_century_rule"],
         LEAP.buggy["forgets_400_rule"].strip(): ["test_century_rule"],
         LEAP.buggy["no_validation"].strip(): ["test_zero_is_rejected"]}


def _unwrap(reply):
    for start, end in WRAPPERS:
        if reply.startswith(start) and reply.endswith(end):
            return reply[len(start):-len(end)]
    return reply.strip()


def solve(spec, ask=harness.ask, max_iters=4):
    tests = _unwrap(ask("tests for " + spec))
    history, feedback, passed, erroring = [], "", False, False
    for attempt in range(max_iters):
        code = _unwrap(ask("solution for " + spec + feedback))
        failed = FAILS.get(code.strip(), ["test_unknown"])
        # The one check whose runs all stop with an error starts with the reference and allows 2 attempts.
        erroring = erroring or (attempt == 0 and not failed and max_iters == 2)
        if "def test_" not in tests.replace("def helper_not_a_test", ""):
            result = {"passed": 0, "failed": [], "total": 0, "error": None, "output": ""}
        elif erroring:
            result = {"passed": 3, "failed": [], "total": 3, "error": "crash: made up", "output": ""}
        else:
            result = {"passed": 3 - len(failed), "failed": failed, "total": 3, "error": None, "output": ""}
        history.append({"code": code, "result": result})
        passed = result["error"] is None and not result["failed"] and result["passed"] > 0
        if passed:
            break
        feedback = "\nThese tests failed: " + ", ".join(result["failed"])
    return {"code": code, "tests": tests, "passed": passed, "iters": len(history), "history": history}


def holdout_check(solution_src):
    if "return year % 4 == 0\n" in solution_src:
        return list(CENTURY_FAILS)
    if "if year in (" in solution_src:
        return ["test_typical_leap_years", "test_every_400th_year_is_a_leap_year", "test_far_future_years",
                "test_the_first_years"]
    return []
