"""Submissions alike enough for a person to look at: each agent fingerprinted by copydetect (names, strings,
comments and whitespace normalised, then winnowed k-grams, as code similarity tools do), the template every
student starts from left out, and every pair compared. A prompt to look, never a change to a score.

    with_similar(submissions, template=stubs)   # each Submission's `similar`: ((other's name, 0.97), ...)
"""

from __future__ import annotations

import io
from dataclasses import replace

from harness.errors import NotPythonSource
from harness.files import read_source

SIMILAR = 0.8  # the share of one agent's own code found in the other's, from which the pair is flagged
NOISE = 25  # characters of normalised code in one fingerprint: shorter matches are noise (copydetect's default)
WINDOW = 1  # winnowing window: every match of GUARANTEE = NOISE + WINDOW - 1 characters or more is found
OWN_CODE = 100  # characters of normalised code, beyond the template, an agent needs to be compared at all
LARGEST = 1 << 20  # bytes: a larger file is no hand-written agent, and tokenizing it would take long


def with_similar(submissions: list, *, template: str = "") -> list:
    """The submissions, each with `similar` set to the others alike to it (most alike first).

    template: the source every student starts from (the stubs); what it holds is no one's own code."""
    found = similar_pairs(submissions, template=template)
    alike: dict[str, list[tuple[str, float]]] = {}
    for first, second, figure in found:
        alike.setdefault(first, []).append((second, figure))
        alike.setdefault(second, []).append((first, figure))
    return [replace(one, similar=tuple(sorted(alike.get(one.name, []), key=lambda pair: -pair[1])))
            for one in submissions]


def similar_pairs(submissions: list, *, template: str = "") -> list[tuple[str, str, float]]:
    """(name, name, similarity) for each pair of submissions at least SIMILAR alike, in the submissions' order.

    similarity: the larger of the two shares (of each one's own code, the part found in the other), 0 to 1."""
    import numpy as np
    from copydetect import CodeFingerprint, compare_files

    def fingerprint(source: str, boilerplate=None):
        return CodeFingerprint("agent.py", NOISE, WINDOW, boilerplate=boilerplate, language="python",
                               fp=io.StringIO(source))

    boilerplate = np.unique(np.array(sorted(fingerprint(template).hashes))) if template.strip() else None
    prints = []
    for one in submissions:
        try:
            big = one.path is None or one.path.stat().st_size > LARGEST
            source = "" if big else read_source(one.path)
        except (OSError, NotPythonSource, ValueError):
            continue  # a file that is no Python source (it did not load) has nothing to compare
        if not source.strip():
            continue
        try:
            print_ = fingerprint(source, boilerplate)
        except Exception:  # noqa: BLE001 - a file the tokenizer chokes on is compared with no one; grading goes on
            continue
        if print_.token_coverage >= OWN_CODE:
            prints.append((one.name, print_))
    pairs = []
    for i, (name, first) in enumerate(prints):
        for other, second in prints[i + 1:]:
            shared = len(first.hashes & second.hashes) / min(len(first.hashes), len(second.hashes))
            if shared < SIMILAR / 4:
                continue  # too few fingerprints in common: the common case, decided without the slower comparison
            _, shares, _ = compare_files(first, second)
            figure = round(float(max(shares)), 2)
            if figure >= SIMILAR:
                pairs.append((name, other, figure))
    return pairs
