"""Your agent: five functions, one per step. Write them in order, replacing each `raise NotImplementedError`.

See what your functions return with `python lab/try_it.py`; check a step with `spec2code check N` (N = 1..5).
To start over, `spec2code reset` saves this file in lab/saved/ and puts the stubs back.
"""

import harness


def extract_code(reply):
    r"""Step 1. Return the code in a model's reply.

    If the reply has a ``` fence (tagged `python`, or bare), return the code
    of the first fenced block: no fence lines, no tag, indentation kept.
    With no fence, the reply is bare code: return all of it, stripped.

    >>> extract_code("Here you go:\n```python\nx = 1\n```\nEnjoy!")
    'x = 1'
    >>> extract_code("  x = 1\n")
    'x = 1'
    """
    raise NotImplementedError("step 1 (extract_code) is not started yet: replace this line with your code")


def write_tests(spec, ask=harness.ask):
    """Step 2. Ask the model for tests of `spec` and return their code.

    Ask once, through the `ask` you are given (prompt in, reply out). The
    prompt holds `spec` and asks for pytest test functions named `test_*`
    that call the function directly (no import). Return the code of the
    reply (use `extract_code`).

    >>> code = write_tests(harness.SPEC)
    >>> "def test_" in code
    True
    """
    raise NotImplementedError("step 2 (write_tests) is not started yet: replace this line with your code")


def write_solution(spec, ask=harness.ask, feedback=""):
    """Step 3. Ask the model to implement `spec` and return the code.

    Ask once, through the `ask` you are given; the prompt holds `spec`. If
    `feedback` (what went wrong last time) is not empty, add it too; if it
    is empty, leave it out, with any words that introduce it. Return the
    code of the reply (use `extract_code`).

    >>> code = write_solution(harness.SPEC)
    >>> "def is_leap_year" in code
    True
    """
    raise NotImplementedError("step 3 (write_solution) is not started yet: replace this line with your code")


def solve(spec, ask=harness.ask, max_iters=4):
    """Step 4. Loop write -> run -> repair until the tests pass.

    Write the tests once, first. Then, up to `max_iters` times: write a
    solution (with feedback on the last failure, if any), run it with
    `harness.run(code, tests)`, and stop as soon as it passes. A run passes
    only with no error, no failed test, and at least one passed test. The
    feedback must name the failing tests. Pass `ask` on to steps 2 and 3.

    Return a dict:
        code     the last solution written
        tests    the tests the model wrote
        passed   True if the last run passed
        iters    how many solutions were written
        history  one entry per attempt: {"code": ..., "result": <run result>}

    >>> out = solve(harness.SPEC)
    >>> out["passed"], out["iters"]
    (True, 2)
    """
    raise NotImplementedError("step 4 (solve) is not started yet: replace this line with your code")


def holdout_check(solution_src):
    """Step 5. Run the held-out tests on a solution; return the names that fail.

    Run `harness.HOLDOUT_TESTS` (never shown to the model) on `solution_src`
    with `harness.run`, and return the run's `failed` list as it is (a run
    that could not complete names every test). An empty list means the
    solution generalises.

    >>> holdout_check(harness.tasks.LEAP_YEAR.reference)
    []
    """
    raise NotImplementedError("step 5 (holdout_check) is not started yet: replace this line with your code")
