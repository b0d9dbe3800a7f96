"""checks/scripted: the checks' model answers from its script, within the limits of the runner and the model."""

import pytest

from checks.runner.parent import MAX_ASKS
from checks.scripted import ScriptedAsk
from harness.model.reading import MAX_READ


def test_it_answers_as_many_asks_as_the_runner_allows_then_says_it_loops():
    model = ScriptedAsk(["one", "two"])
    assert [model(str(n)) for n in range(MAX_ASKS)] == ["one"] + ["two"] * (MAX_ASKS - 1)
    with pytest.raises(RuntimeError, match=f"more than {MAX_ASKS} times"):
        model("once more")


def test_a_prompt_longer_than_the_model_reads_is_refused_and_not_kept():
    model = ScriptedAsk(["ok"])
    assert model("x" * MAX_READ) == "ok"
    with pytest.raises(RuntimeError, match=f"at most {MAX_READ}"):
        model("x" * (MAX_READ + 1), via="default")
    assert model.calls[-1] == ("default", "") and model.default == [""]


@pytest.mark.slow
def test_a_prompt_that_is_not_a_string_is_kept_as_its_type_and_the_start_of_its_value():
    """50 prompts of 16 MB that are lists, say, once stayed whole in the grader (3.3 GB for one check)."""
    from checks import define

    model = ScriptedAsk(["ok"])
    for _ in range(MAX_ASKS):
        model(["spec " * 200_000, {"feedback": "y" * 1_000_000}])
    kept = [prompt for _, prompt in model.calls]
    assert all(len(repr(prompt)) < 2_100 for prompt in kept)
    assert repr(kept[0]).startswith("['spec spec")
    with pytest.raises(define.CheckFailed) as failed:
        define.need_type(kept[-1], str, "ask", "")
    assert failed.value.message.startswith("expected ask to return a str, got ['spec spec")
    assert failed.value.hint == "return a str, not list"


def test_the_memo_of_runs_knows_them_by_hash_and_keeps_a_bounded_amount(monkeypatch):
    """16 MB sources once stayed in the memo, whole, after their submission was graded (1.9 GB for 28 runs)."""
    import harness
    from checks import scripted

    monkeypatch.setattr(harness, "run", lambda solution, tests, **_: {"passed": 0, "failed": ["t" * 1000],
                                                                      "output": "o" * 9000, "error": None})
    memo = scripted._Runs()
    monkeypatch.setattr(memo, "KEPT_BYTES", 50_100)
    for n in range(20):
        assert memo.run("x" * 1_000_000 + str(n), "def test_t(): pass")["output"] == "o" * 9000
    assert all(isinstance(key, bytes) and len(key) == 32 for key in memo._runs)
    assert len(memo._runs) == 5 and sum(memo._sizes.values()) <= 50_100  # 10,004 characters a result
    calls = []
    monkeypatch.setattr(harness, "run", lambda *a, **k: calls.append(a) or {"failed": [], "output": "", "error": None})
    memo.run("x" * 1_000_000 + "19", "def test_t(): pass")
    assert calls == []  # still remembered
    memo.run("x" * 1_000_000 + "0", "def test_t(): pass")
    assert len(calls) == 1  # dropped, so run again


def test_a_run_that_went_wrong_is_not_handed_to_the_callers_waiting_for_it(monkeypatch):
    """Two gradings that ask for the same run at once share it; if it crashed (a sandbox under load), the one that
    waited runs it again rather than judge a student by the other's crash."""
    import threading

    import harness
    from checks import scripted

    started, release, calls = threading.Event(), threading.Event(), []

    def run(solution, tests, **_):
        calls.append(solution)
        if len(calls) == 1:
            started.set()
            release.wait(10)
            return {"passed": 0, "failed": ["test_t"], "output": "", "error": "crash: the test process stopped"}
        return {"passed": 1, "failed": [], "output": "", "error": None}

    monkeypatch.setattr(harness, "run", run)
    memo, got, waiting = scripted._Runs(), {}, threading.Event()
    clean = memo._clean
    monkeypatch.setattr(memo, "_clean", lambda future: waiting.set() or clean(future))
    first = threading.Thread(target=lambda: got.setdefault("first", memo.run("code", "def test_t(): pass")))
    first.start()
    assert started.wait(10)
    waiter = threading.Thread(target=lambda: got.setdefault("waiter", memo.run("code", "def test_t(): pass")))
    waiter.start()
    assert waiting.wait(10)  # the waiter is waiting on the first's run
    release.set()
    first.join(10), waiter.join(10)
    assert got["first"]["error"].startswith("crash") and got["waiter"]["error"] is None
    assert len(calls) == 2
    assert memo.run("code", "def test_t(): pass")["error"] is None and len(calls) == 2  # the clean run is kept


def test_an_agent_is_handed_the_graders_finished_clean_runs_and_the_grader_never_takes_the_agents(monkeypatch):
    """What the checks expect is never what an agent's own run returned; the other way round saves a run."""
    import harness
    from checks import scripted

    calls = []

    def run(solution, tests, **_):
        calls.append(solution)
        error = "crash: the test process stopped" if solution == "crashes" else None
        return {"passed": 1, "failed": [], "output": solution, "error": error}

    monkeypatch.setattr(harness, "run", run)
    grader = scripted._Runs()
    agents = scripted._Runs(reads=grader)
    grader.run("graders", "def test_t(): pass")
    handed = agents.run("graders", "def test_t(): pass")
    assert handed["output"] == "graders" and calls == ["graders"]  # handed over, not run again
    handed["output"] = "changed by the agent's side"
    assert grader.run("graders", "def test_t(): pass")["output"] == "graders"  # a copy was handed
    agents.run("agents", "def test_t(): pass")
    grader.run("agents", "def test_t(): pass")
    assert calls == ["graders", "agents", "agents"]  # the grader made its own run
    grader.run("crashes", "def test_t(): pass")
    agents.run("crashes", "def test_t(): pass")
    assert calls[-2:] == ["crashes", "crashes"]  # a run that went wrong is never handed over


def test_the_graders_run_still_going_is_not_waited_for(monkeypatch):
    import threading

    import harness
    from checks import scripted

    started, release, calls = threading.Event(), threading.Event(), []

    def run(solution, tests, **_):
        calls.append(threading.current_thread().name)
        if len(calls) == 1:
            started.set()
            release.wait(10)
        return {"passed": 1, "failed": [], "output": "", "error": None}

    monkeypatch.setattr(harness, "run", run)
    grader = scripted._Runs()
    agents = scripted._Runs(reads=grader)
    going = threading.Thread(target=grader.run, args=("code", "def test_t(): pass"), name="grader")
    going.start()
    assert started.wait(10)
    assert agents.run("code", "def test_t(): pass")["error"] is None
    release.set()
    going.join(10)
    assert calls == ["grader", "MainThread"]


def test_a_prompt_the_agents_process_refused_counts_as_a_call_and_is_refused_the_same_way():
    model = ScriptedAsk(["ok"])
    with pytest.raises(RuntimeError, match=f"the prompt is {MAX_READ + 5} characters long; the model reads at most"):
        model.too_long(MAX_READ + 5, via="default")
    assert model.calls == [("default", "")]
    for lie in (MAX_READ, 10, True, "9999999"):  # a length the model would read is not a reason to refuse
        with pytest.raises(RuntimeError, match="said a prompt was too long, and it was not"):
            model.too_long(lie)
    assert len(model.calls) == 1
