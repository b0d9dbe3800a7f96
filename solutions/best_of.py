"""Best of N: sample N solutions and keep the one that passes the most tests that tell the candidates apart."""

# The pass matrix of N candidates against the model's tests is the signal CURE builds its rewards from; ranking by
# pass rate is how AceCoder picks. It beats a single attempt when one of the samples is right, and it is fooled
# when every candidate shares a bug that the tests miss: a better pick cannot make up for weak tests.

import harness
from solutions.agent import write_solution, write_tests


def best_of(spec, n=4, ask=harness.ask):
    """Ask for tests once and for `n` solutions (samples 0 .. n-1); return the best by the pass matrix.

    Returns {"code": the chosen solution, "tests", "candidates", "matrix": harness.matrix's result,
    "scores": discriminating tests each candidate passes, "chosen": its index}.

    >>> best_of(harness.SPEC, 4)["chosen"]  # sample 1 of the offline model is right; sample 0 is its first attempt
    1
    """
    tests = write_tests(spec, ask)
    candidates = [write_solution(spec, _sample(ask, i)) for i in range(n)]
    grid = harness.matrix(candidates, tests)
    rows = grid["passed"]
    telling = [j for j in range(len(grid["tests"])) if len({row[j] for row in rows}) > 1]
    scores = [sum(row[j] for j in telling) for row in rows]
    chosen = max(range(len(candidates)), key=lambda i: (scores[i], sum(rows[i]), -i))
    return {"code": candidates[chosen], "tests": tests, "candidates": candidates, "matrix": grid,
            "scores": scores, "chosen": chosen}


def _sample(ask, index):
    """`ask` for sample `index` (the first sample is a plain ask, so any ask function works for n=1)."""
    return ask if index == 0 else (lambda prompt: ask(prompt, sample=index))
