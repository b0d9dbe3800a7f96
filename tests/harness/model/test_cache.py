"""The reply cache: plain JSON entries, distinct keys, atomic writes shared by processes, damage is a warning."""

import json
import multiprocessing
import sys
import warnings

import pytest

from harness.model import cache


def req(prompt="write is_leap_year", sample=0, model="m", params=None):
    return cache.request("live", model, prompt, params or {"temperature": 0.2}, sample)


def test_store_then_lookup_round_trips_as_plain_json(tmp_path):
    path = cache.store(req(), "def is_leap_year(y): ...", tmp_path)
    assert cache.lookup(req(), tmp_path) == "def is_leap_year(y): ..."
    digest = cache.key(req())
    assert path == tmp_path / digest[:2] / f"{digest}.json"
    entry = json.loads(path.read_text(encoding="utf-8"))
    assert set(entry) == {"backend", "model", "prompt", "params", "sample", "reply", "created"}
    assert entry["prompt"] == "write is_leap_year" and entry["params"] == {"temperature": 0.2}
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary files left behind


def test_a_miss_is_none(tmp_path):
    assert cache.lookup(req(), tmp_path / "never-created") is None


@pytest.mark.parametrize(
    "other",
    [req(sample=1), req(model="other"), req(prompt="write is_leap_year "), req(params={"temperature": 0.0})],
)
def test_every_key_field_makes_a_distinct_entry(tmp_path, other):
    assert cache.key(other) != cache.key(req())
    cache.store(req(), "first", tmp_path)
    cache.store(other, "second", tmp_path)
    assert cache.lookup(req(), tmp_path) == "first"
    assert cache.lookup(other, tmp_path) == "second"


def test_unicode_prompts_and_replies_survive(tmp_path):
    r = req(prompt="année bissextile? 闰年")
    cache.store(r, "ça marche ✓", tmp_path)
    assert cache.lookup(r, tmp_path) == "ça marche ✓"


@pytest.mark.parametrize(
    "content, why",
    [
        ("{not json", "is not valid JSON"),
        ("", "is not valid JSON"),
        ('["a list"]', 'has no "reply" text'),
        ('{"backend": "live"}', 'has no "reply" text'),
        (None, "belongs to another request"),
    ],
)
def test_a_damaged_entry_is_a_warning_naming_the_file_and_a_miss(tmp_path, content, why):
    path = cache.path_for(req(), tmp_path)
    if content is None:  # a valid entry for another prompt, copied to this key's file
        other = cache.store(req(prompt="something else"), "wrong", tmp_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        other.replace(path)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    with pytest.warns(cache.CacheWarning) as record:
        assert cache.lookup(req(), tmp_path) is None
    message = str(record[0].message)
    assert str(path) in message and why in message
    cache.store(req(), "fixed", tmp_path)  # asking again overwrites it
    assert cache.lookup(req(), tmp_path) == "fixed"


def test_models_counts_the_entries_of_each_model(tmp_path):
    assert cache.models(tmp_path / "nope") is None
    assert cache.models(tmp_path) == {}
    cache.store(req(), "a", tmp_path)
    cache.store(req(sample=1), "a", tmp_path)
    cache.store(req(model="llama3.1"), "b", tmp_path)
    assert cache.models(tmp_path) == {"m": 2, "llama3.1": 1}


def _hammer(args):
    """Worker: store and read overlapping keys; return the warnings and wrong reads it saw."""
    cache_dir, worker = args
    problems = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i in range(50):
            k = i % 10  # every worker writes the same 10 keys
            cache.store(req(prompt=f"p{k}"), f"reply {k} " * 200, cache_dir)
            got = cache.lookup(req(prompt=f"p{(k + worker) % 10}"), cache_dir)
            if got is not None and got != f"reply {(k + worker) % 10} " * 200:
                problems.append(f"wrong reply for p{(k + worker) % 10}")
    return problems + [str(w.message) for w in caught]


@pytest.mark.slow
def test_several_processes_writing_the_same_keys_leave_only_whole_entries(tmp_path):
    # Not fork: a test process with threads of its own (pytest-xdist's, a sandbox's) once hung its forks for 300 s.
    method = "forkserver" if sys.platform == "linux" else "spawn"
    with multiprocessing.get_context(method).Pool(8) as pool:
        results = pool.map(_hammer, [(tmp_path, worker) for worker in range(8)])
    assert results == [[]] * 8
    files = sorted(tmp_path.rglob("*"))
    entries = [p for p in files if p.is_file()]
    assert len(entries) == 10, [p.name for p in entries]  # no temporary files left behind
    for path in entries:
        entry = json.loads(path.read_text(encoding="utf-8"))
        assert entry["reply"] == f"reply {entry['prompt'][1:]} " * 200
