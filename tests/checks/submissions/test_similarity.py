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


def corpus_and_splices():
    """Every fixture agent, and 40 made of the first half of one and the second half of the next: a spread of
    figures, from none in common to copies."""
    sources = [path.read_text(encoding="utf-8") for path in sorted(AGENTS.glob("*/*.py"))]
    for first, second in list(zip(sources, sources[1:]))[:40]:
        top, bottom = first.splitlines(), second.splitlines()
        sources.append("\n".join(top[:len(top) // 2] + bottom[len(bottom) // 2:]))
    return sources


def test_each_pair_gets_the_figure_copydetect_itself_gives():
    import io
    import itertools

    import numpy as np
    from copydetect import CodeFingerprint, compare_files

    from checks.submissions.similarity import NOISE, OWN_CODE, WINDOW, _index, _print

    def fingerprint(source, boilerplate=None):
        return CodeFingerprint("agent.py", NOISE, WINDOW, boilerplate=boilerplate, language="python",
                               fp=io.StringIO(source))

    boilerplate = np.unique(np.array(sorted(fingerprint(render()).hashes)))
    found = [fingerprint(source, boilerplate) for source in corpus_and_splices()]
    found = [one for one in found if one.token_coverage >= OWN_CODE]
    prints = [_print(one) for one in found]
    _index(prints)
    figures = []
    for (first, ours), (second, theirs) in itertools.combinations(zip(found, prints), 2):
        shared = len(first.hashes & second.hashes) / min(len(first.hashes), len(second.hashes))
        expected = 0.0 if shared < SIMILAR / 4 else round(float(max(compare_files(first, second)[1])), 2)
        assert ours.compare(theirs) == expected
        figures.append(expected)
    assert len(figures) > 4000
    assert sum(f >= SIMILAR for f in figures) > 100 and sum(0 < f < SIMILAR for f in figures) > 1000


def test_copies_share_one_print_and_are_compared_once(tmp_path, monkeypatch):
    from checks.submissions import similarity

    source = (CORRECT / "line_scanner.py").read_text()
    rows = []
    for n in range(6):  # the same code, each with a comment of its own: one print, alike to 1.0
        (tmp_path / f"s{n}").mkdir()
        (tmp_path / f"s{n}" / "agent.py").write_text(f"# student {n}\n{source}", encoding="utf-8")
        rows.append(Submission(f"s{n}", tmp_path / f"s{n}" / "agent.py"))
    compared = []
    monkeypatch.setattr(similarity._Print, "_share_in", lambda self, other: compared.append(1) or 1.0)
    pairs = similar_pairs(rows, template=render())
    assert [(a, b) for a, b, _ in pairs] == [(f"s{i}", f"s{j}") for i in range(6) for j in range(i + 1, 6)]
    assert {figure for _, _, figure in pairs} == {1.0} and compared == []
