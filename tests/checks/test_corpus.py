"""The graders against fixture agents: each wrong one fails just the step it breaks, correct ones pass, forgers earn nothing."""

import ast
import secrets
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import checks
from checks.define import checks_of
from checks.steps import BY_NUMBER, STEPS
from tests.helpers import self_contained
from tests.paths import AGENTS
from tests.paths import REFERENCE_AGENT as REFERENCE

pytestmark = pytest.mark.slow  # grades every fixture agent

WRONG = sorted((AGENTS / "wrong").glob("*.py"))
CORRECT = sorted((AGENTS / "correct").glob("*.py"))
FORGING = sorted((AGENTS / "forging").glob("*.py"))
# One draw of the checks' inputs for the whole corpus, afresh each session (never 1-3 or 7, the seeds below): agents
# graded with one draw share the runs they have in common (a step they do as the reference does), which are then run
# once. With a draw each, grading the corpus took 47 CPU-s instead of 21.
SEED = 1000 + secrets.randbelow(10**9)


def expected(path: Path) -> dict:
    """The EXPECTED dict a fixture agent declares, read without importing it."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "EXPECTED" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{path.name} declares no EXPECTED")


def graded(files: list[Path], folder: Path, seed: int) -> dict:
    """{file: its report}, the agents graded a few at a time (each grading is mostly waiting on its child)."""
    copies = [self_contained(path, folder / path.parent.name) for path in files]
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(files, pool.map(lambda copy: checks.grade_agent(copy, seed=seed), copies)))


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """Every fixture agent graded once, with the draw SEED."""
    return graded(WRONG + CORRECT + FORGING, tmp_path_factory.mktemp("agents"), seed=SEED)


def statuses(report: dict) -> dict:
    return {s["step"]: s["status"] for s in report["steps"]}


def test_the_corpus_covers_every_step_with_enough_agents():
    assert len(WRONG) >= 25 and len(CORRECT) >= 5 and len(FORGING) >= 5
    broken = {expected(path)["step"] for path in WRONG}
    assert broken == {1, 2, 3, 4, 5}
    for path in WRONG:
        declared = expected(path)
        names = [c.name for c in checks_of(BY_NUMBER[declared["step"]])]
        assert declared["check"] in names, f"{path.name}: no check {declared['check']} in step {declared['step']}"
        assert declared["says"], path.name


@pytest.mark.parametrize("path", WRONG, ids=lambda p: p.stem)
def test_a_wrong_agent_fails_only_the_step_it_breaks(path, reports):
    declared, report = expected(path), reports[path]
    broken = declared["step"]
    want = {
        s.number: "failed" if s.number == broken else "blocked" if broken in s.needs else "passed" for s in STEPS
    }
    assert statuses(report) == want, f"seed {SEED}:\n{failures(report)}"  # a step failed that should not have: why
    # A blocked step is judged with the reference in place of the broken one: its correct code would pass.
    for waiting in (s for s in report["steps"] if s["status"] == "blocked"):
        assert {c.get("would") for c in waiting["checks"]} == {"pass"}, waiting
    step = report["steps"][broken - 1]
    found = next(c for c in step["checks"] if c["name"] == declared["check"])
    assert found["status"] == "failed"
    # A check that failed because the call itself failed follows that failure, which says what happened.
    cause = next((c for c in step["checks"] if c["name"] == found.get("follows") and "diagnosis" in c), found)
    assert declared["says"] in f"{found['message']} {cause['description']} {cause['message']} {cause['hint']}", found


def failures(report: dict) -> str:
    """What the report says went wrong, a line a check: what an assertion on the statuses shows when it fails (a
    string, which pytest prints whole, where it would cut a list short)."""
    return "\n".join(f"step {s['step']} {c['name']}: {c.get('message', '')} | hint: {c.get('hint', '')}"
                     for s in report["steps"] for c in s["checks"] if c["status"] != "passed")


@pytest.mark.parametrize("path", CORRECT, ids=lambda p: p.stem)
def test_a_correct_agent_written_differently_passes_every_check(path, reports):
    report = reports[path]
    assert failures(report) == "", f"seed {SEED}:\n{failures(report)}"
    assert report["passed"] == report["total"] == 5


@pytest.mark.parametrize("path", FORGING, ids=lambda p: p.stem)
def test_a_forging_agent_earns_only_what_it_did_honestly(path, reports):
    honest = set(expected(path)["may_pass"])
    passed = {number for number, status in statuses(reports[path]).items() if status == "passed"}
    assert passed <= honest, f"seed {SEED}: forged steps passed: {sorted(passed - honest)}"
    assert all(statuses(reports[path])[n] == "passed" for n in honest), f"seed {SEED}:\n{failures(reports[path])}"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_honest_agent_passes_whatever_the_checks_draw(seed, tmp_path):
    for path, report in graded([REFERENCE] + CORRECT, tmp_path, seed=seed).items():
        assert report["passed"] == 5, f"{path.name}, seed {seed}:\n{failures(report)}"


def test_a_wrong_agent_fails_the_same_way_whatever_the_checks_draw(reports, tmp_path):
    for path, report in graded(WRONG, tmp_path, seed=7).items():
        assert statuses(report) == statuses(reports[path]), \
            f"{path.name}, seed 7:\n{failures(report)}\nseed {SEED}:\n{failures(reports[path])}"


def test_the_checks_inputs_change_with_the_seed_and_not_without():
    from checks.scripts import Script

    assert Script(5).other == Script(5).other and Script(5).solve_tests == Script(5).solve_tests
    drawn = {Script(seed).solutions["reference"] for seed in range(20)}
    assert len(drawn) > 10  # a table keyed by the text of what the checks send has little to hold on to
