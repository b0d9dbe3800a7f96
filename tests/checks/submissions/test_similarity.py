"""checks/submissions/similarity.py: a class with planted copies, flagged in pairs with a figure; the stubs and
agents written independently are not."""

import re
import shutil

import pytest

from checks.submissions import Submission
from checks.submissions.similarity import SIMILAR, similar_pairs, with_similar
from lab.stubs import render
from tests.paths import AGENTS

CORRECT = AGENTS / "correct"


def renamed(source: str) -> str:
    """The same agent as a copier disguises it: names changed, a comment added, blank lines and spaces moved."""
    for old, new in {"lines": "rows", "inside": "in_block", "found": "seen", "code": "kept", "line": "row",
                     "reply": "answer", "tests": "my_tests", "parts": "pieces", "history": "log"}.items():
        source = re.sub(rf"\b{old}\b", new, source)
    source = source.replace("\n\n\n", "\n\n").replace(" = ", "  =  ")
    return "# my own work\n" + source.replace("def extract_code", "# step 1\ndef extract_code")


def planted_class(folder):
    """ana's agent, copied byte for byte by ben and disguised by cat; dan and eve wrote their own; fay and gil
    handed in the stubs, untouched; hal handed in nothing."""
    stubs = render()
    sources = {
        "ana": (CORRECT / "line_scanner.py").read_text(),
        "dan": (CORRECT / "split_and_while.py").read_text(),
        "eve": (CORRECT / "recursive_loop.py").read_text(),
        "fay": stubs,
        "gil": stubs,
    }
    sources["cat"] = renamed(sources["ana"])
    rows = []
    for name, text in sources.items():
        (folder / name).mkdir()
        (folder / name / "agent.py").write_text(text, encoding="utf-8")
        rows.append(Submission(name, folder / name / "agent.py"))
    (folder / "ben").mkdir()
    shutil.copy(folder / "ana" / "agent.py", folder / "ben" / "agent.py")
    rows.append(Submission("ben", folder / "ben" / "agent.py"))
    rows.append(Submission("hal", None, "no agent.py found"))
    return sorted(rows, key=lambda one: one.name), stubs


@pytest.mark.slow
def test_planted_copies_are_flagged_in_pairs_and_nothing_else(tmp_path):
    rows, stubs = planted_class(tmp_path)
    pairs = similar_pairs(rows, template=stubs)
    assert {(a, b) for a, b, _ in pairs} == {("ana", "ben"), ("ana", "cat"), ("ben", "cat")}
    figures = {(a, b): figure for a, b, figure in pairs}
    assert figures[("ana", "ben")] == 1.0  # byte-identical
    assert figures[("ana", "cat")] >= 0.95 and figures[("ben", "cat")] >= 0.95  # names and layout do not hide it
    print("pairs:", pairs)


def test_independent_agents_and_the_untouched_stubs_are_not_alike(tmp_path):
    rows, stubs = planted_class(tmp_path)
    untouched = [one for one in rows if one.name in ("dan", "eve", "fay", "gil", "hal", "ana")]
    assert similar_pairs(untouched, template=stubs) == []
    # Without the template left out, two students who both handed in the stubs would look like copies.
    assert [(a, b) for a, b, _ in similar_pairs(untouched)] == [("fay", "gil")]


def test_each_submission_names_the_others_alike_most_alike_first(tmp_path):
    rows, stubs = planted_class(tmp_path)
    marked = {one.name: one.similar for one in with_similar(rows, template=stubs)}
    assert [name for name, _ in marked["ana"]] == ["ben", "cat"]
    assert all(figure >= SIMILAR for name in ("ana", "ben", "cat") for _, figure in marked[name])
    assert marked["dan"] == marked["fay"] == marked["hal"] == ()


def test_a_file_that_is_not_python_source_is_compared_with_no_one(tmp_path):
    rows, stubs = planted_class(tmp_path)
    (tmp_path / "ben" / "agent.py").write_bytes(b"\xff\xfe" + "not source".encode("utf-16-le"))  # UTF-16
    (tmp_path / "cat" / "agent.py").write_bytes(b"PK\x03\x04 a zip named agent.py")
    assert similar_pairs(rows, template=stubs) == []
