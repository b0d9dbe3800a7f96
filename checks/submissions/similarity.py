"""Submissions alike enough for a person to look at: each agent fingerprinted by copydetect (names, strings,
comments and whitespace normalised, then winnowed k-grams, as code similarity tools do), the template every
student starts from left out, and every pair compared. A prompt to look, never a change to a score.

    with_similar(submissions, template=stubs)   # each Submission's `similar`: ((other's name, 0.97), ...)
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, replace

from harness.errors import NotPythonSource
from harness.files import read_source

SIMILAR = 0.8  # the share of one agent's own code found in the other's, from which the pair is flagged
NOISE = 25  # characters of normalised code in one fingerprint: shorter matches are noise (copydetect's default)
WINDOW = 1  # winnowing window: every match of GUARANTEE = NOISE + WINDOW - 1 characters or more is found
OWN_CODE = 100  # characters of normalised code, beyond the template, an agent needs to be compared at all
LARGEST = 1 << 20  # bytes: a larger file is no hand-written agent, and tokenizing it would take long


def with_similar(submissions: list, *, template: str = "", found=None) -> list:
    """The submissions, each with `similar` set to the others alike to it (most alike first).

    template: the source every student starts from (the stubs); what it holds is no one's own code. found: the
    pairs `similar_pairs` gave for them already (see beside.py), if it has run."""
    found = similar_pairs(submissions, template=template) if found is None else found
    alike: dict[str, list[tuple[str, float]]] = {}
    for first, second, figure in found:
        alike.setdefault(first, []).append((second, figure))
        alike.setdefault(second, []).append((first, figure))
    return [replace(one, similar=tuple(sorted(alike.get(one.name, []), key=lambda pair: -pair[1])))
            for one in submissions]


def similar_pairs(submissions: list, *, template: str = "") -> list[tuple[str, str, float]]:
    """(name, name, similarity) for each pair of submissions at least SIMILAR alike, in the submissions' order.

    similarity: the larger of the two shares (of each one's own code, the part found in the other), 0 to 1.
    Submissions whose normalised code is the same share one fingerprint, compared once (copies are common)."""
    named = _fingerprints(submissions, template)
    prints = list(dict.fromkeys(print_ for _, print_ in named))
    _index(prints)
    alike = {}  # (number, number) of each pair of distinct prints at least SIMILAR alike -> its figure
    for i, first in enumerate(prints):
        for second in prints[i + 1:]:
            figure = first.compare(second)
            if figure >= SIMILAR:
                alike[(first.number, second.number)] = figure
    pairs = []
    for i, (name, first) in enumerate(named):
        for other, second in named[i + 1:]:
            low, high = sorted((first.number, second.number))
            figure = 1.0 if low == high else alike.get((low, high))
            if figure is not None:
                pairs.append((name, other, figure))
    return pairs


@dataclass(eq=False)
class _Print:
    """One agent's own code as copydetect fingerprints it: where each k-gram starts (in order) and its hash."""

    starts: object  # numpy array of the start of each fingerprinted k-gram in the normalised code, ascending
    hashes: object  # the hash of each, in the same order
    distinct: object  # the distinct hashes, sorted
    coverage: float  # characters of normalised code the k-grams cover (copydetect's token_coverage)
    key: bytes  # the same for two agents whose own normalised code is the same
    number: int = 0  # its place among the class's distinct prints (_index)
    bits: int = 0  # which of the class's shared hashes it holds, one bit each (_index)

    def compare(self, other: _Print) -> float:
        """What copydetect's compare_files finds for two distinct prints, as max(shares) rounded to 2 places; 0.0
        when they share too few fingerprints for the slower comparison (the common case, decided with the bits)."""
        shared = (self.bits & other.bits).bit_count() / min(len(self.distinct), len(other.distinct))
        if shared < SIMILAR / 4:
            return 0.0
        return round(float(max(self._share_in(other), other._share_in(self))), 2)

    def _share_in(self, other: _Print) -> float:
        """The share of this code covered by k-grams the other holds too: copydetect's copied slices, whose lengths
        add up to the union of the matched k-grams [start, start + NOISE)."""
        import numpy as np

        where = np.minimum(np.searchsorted(other.distinct, self.hashes), len(other.distinct) - 1)
        found = self.starts[other.distinct[where] == self.hashes]
        if not found.size:
            return 0.0
        covered = int(np.minimum(np.diff(found), NOISE).sum()) + NOISE
        return covered / self.coverage


def _fingerprints(submissions: list, template: str) -> list[tuple[str, _Print]]:
    """(name, print) for each submission with at least OWN_CODE characters of its own normalised code."""
    import numpy as np
    from copydetect import CodeFingerprint

    def fingerprint(source: str, boilerplate=None):
        return CodeFingerprint("agent.py", NOISE, WINDOW, boilerplate=boilerplate, language="python",
                               fp=io.StringIO(source))

    boilerplate = np.unique(np.array(sorted(fingerprint(template).hashes))) if template.strip() else None
    named, known = [], {}  # known: key -> the one print of all the agents with that code
    for one in submissions:
        try:
            big = one.path is None or one.path.stat().st_size > LARGEST
            source = "" if big else read_source(one.path)
        except (OSError, NotPythonSource, ValueError):
            continue  # a file that is no Python source (it did not load) has nothing to compare
        if not source.strip():
            continue
        try:
            found = fingerprint(source, boilerplate)
        except Exception:  # noqa: BLE001 - a file the tokenizer chokes on is compared with no one; grading goes on
            continue
        if found.token_coverage >= OWN_CODE:
            print_ = _print(found)
            named.append((one.name, known.setdefault(print_.key, print_)))
    return named


def _print(found) -> _Print:
    """A copydetect CodeFingerprint as arrays."""
    import numpy as np

    each = list(found.hash_idx.items())
    starts = np.array([start for _, at in each for start in at], dtype=np.int64)
    hashes = np.array([value for value, at in each for _ in at], dtype=np.int64)
    order = np.argsort(starts, kind="stable")
    starts, hashes = starts[order], hashes[order]
    key = hashlib.sha256(starts.tobytes() + hashes.tobytes() + repr(float(found.token_coverage)).encode()).digest()
    return _Print(starts, hashes, np.unique(hashes), float(found.token_coverage), key)


def _index(prints: list[_Print]) -> None:
    """Number the distinct prints, and give each the bits of the hashes it shares with another print (a hash only
    one print holds is in no intersection), so a pair's fingerprints in common are counted in one AND."""
    import numpy as np

    if not prints:
        return
    values, counts = np.unique(np.concatenate([print_.distinct for print_ in prints]), return_counts=True)
    shared = values[counts > 1]
    for number, print_ in enumerate(prints):
        held = np.zeros(len(shared), dtype=bool)
        held[np.searchsorted(shared, print_.distinct[np.isin(print_.distinct, shared)])] = True
        print_.number = number
        print_.bits = int.from_bytes(np.packbits(held, bitorder="little").tobytes(), "little")
