"""harness/sandbox/wire: the one codec: plain values cross exactly, anything else is refused or named, and
decoding builds nothing but plain data, whatever the other side sends."""

import json
import math
import struct

import pytest

from harness.sandbox.wire import (MAX_DEPTH, FrameReader, FrameTooLarge, Unsendable, decode, encode, frame, refuse,
                                  unframe)

# Every kind of plain data, and the edges of each, written as source so that each side of a wall can build its own
# (tests/checks/runner/test_wire.py sends them across both walls). Nested one level less than the bound: a call's
# arguments cross in a list.
PLAIN_SOURCE = f"MAX_DEPTH = {MAX_DEPTH}\n" + r"""
NAN, INF = float("nan"), float("inf")


def nested(depth, inner=1):
    for _ in range(depth):
        inner = [inner]
    return inner


PLAIN = [
    None, True, False, 0, -7, 2**64, 10**5000, -(10**5000), 2.5, -0.0, NAN, INF, -INF, 1e308,
    "", "\u00e9 \u6f22", "lone \ud800 and \udfff surrogates", "a\x00b", b"", b"\x00\xff", 3 + 4j,
    complex(NAN, -INF), [], (), set(), frozenset(), {}, [1, [2, (3,)]], (1, (2, "x")), {1, 2},
    frozenset({"a", (1, 2)}), {"a": (1, 2), "b": {"c": None}}, {1: "int key", (2, 3): None, frozenset({1}): b"x"},
    nested(MAX_DEPTH - 1), [{"k": {1, 2}}, ({"x": b"y"},)],
]
"""
_BUILT: dict = {}
exec(PLAIN_SOURCE, _BUILT)
PLAIN, nested = _BUILT["PLAIN"], _BUILT["nested"]


def same(a, b) -> bool:
    """Equal and of the same types all the way down (nan equal to nan)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, complex):
        return same(a.real, b.real) and same(a.imag, b.imag)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return len(a) == len(b) and all(any(same(k, j) and same(v, w) for j, w in b.items()) for k, v in a.items())
    return a == b


def crossed(value, other=refuse, tagged=None):
    """`value` as the other side of a wall gets it: encoded, framed as JSON, unframed and decoded."""
    return decode(unframe(frame(encode(value, other))), tagged)


@pytest.mark.parametrize("value", PLAIN, ids=[f"{type(v).__name__}-{i}" for i, v in enumerate(PLAIN)])
def test_plain_data_crosses_exactly(value):
    assert same(crossed(value), value)


def test_a_value_may_be_nested_as_deep_as_the_bound():
    assert crossed(nested(MAX_DEPTH)) == nested(MAX_DEPTH)


def test_a_frame_is_json_with_nothing_but_ascii():
    data = frame(encode(["\ud800", "a\x00b", b"\x00", {1, 2}, 10**5000]))
    json.loads(data[4:].decode("ascii"))


def test_a_subclass_crosses_as_its_base_type_and_its_methods_stay_behind():
    class Yes(str):
        def __eq__(self, other):
            return True

        __hash__ = str.__hash__

    class Count(int):
        def __int__(self):
            raise RuntimeError("not called")

    class Items(list):
        def __iter__(self):
            return iter(["forged"])

    back = crossed([Yes("no"), Count(3), Items([1, 2])])
    assert same(back, ["no", 3, [1, 2]]) and back[0] != "yes"


@pytest.mark.parametrize("value", [(x for x in ()), object(), lambda: 1, bytearray(b"x"), nested(MAX_DEPTH + 1)])
def test_what_is_not_plain_data_is_refused_with_a_sentence(value):
    with pytest.raises(Unsendable, match="cannot cross the wall"):
        encode(value)


def test_a_container_holding_itself_is_refused_at_the_depth_bound():
    cyclic = []
    cyclic.append(cyclic)
    with pytest.raises(Unsendable, match="nested too deeply"):
        encode(cyclic)


def test_a_stand_in_chosen_by_the_wall_crosses_and_comes_back_through_tagged():
    sent = encode([1, object(), {"k": (x for x in ())}], lambda value, why: {"$type": type(value).__name__})
    assert decode(sent, lambda data: "<" + data["$type"] + ">") == [1, "<object>", {"k": "<generator>"}]


@pytest.mark.parametrize(
    "data",
    [
        {"a": 1, "b": 2}, {}, {"$pickle": "gASVAAAA"}, {"__reduce__": ["os.system", ["true"]]}, {"$tuple": 5},
        {"$set": [[1]]}, {"$dict": [[[1], 2]]}, {"$dict": [[1, 2, 3]]}, {"$float": "1.5"}, {"$float": ["nan"]},
        {"$bytes": "zz"}, {"$int": "x1"}, {"$complex": ["1", "j"]}, nested(MAX_DEPTH + 1),
    ],
)
def test_decoding_builds_only_what_encode_makes(data):
    with pytest.raises(ValueError):
        decode(data)


def test_a_tag_of_the_codec_never_reaches_tagged_even_when_malformed():
    assert decode({"$ask": 3}, lambda data: "handle") == "handle"
    with pytest.raises(ValueError):
        decode({"$set": "not a list"}, lambda data: "handle")


def test_the_frame_reader_tells_a_frame_too_large_from_a_malformed_one():
    reader = FrameReader(max_frame=16)
    assert reader.feed(frame([1, 2])[:3]) == [] and reader.feed(frame([1, 2])[3:] + frame("x")) == [[1, 2], "x"]
    with pytest.raises(FrameTooLarge):
        FrameReader(max_frame=16).feed(frame("x" * 20))
    for garbage in (struct.pack(">I", 3) + b"{{{", struct.pack(">I", 6) + b"[" * 6):
        with pytest.raises(ValueError) as raised:
            FrameReader().feed(garbage)
        assert not isinstance(raised.value, FrameTooLarge)
