"""checks/runner/wire: plain values cross both ways, anything else is named, exceptions are described as data."""

import math

import pytest

from checks.runner.wire import Opaque, Unsendable, decode, describe, encode, info


def by_type(value, why):
    return {"$type": type(value).__name__}


def refuse(value, why):
    raise Unsendable(why)


@pytest.mark.parametrize(
    "value", [None, True, 3, 2.5, "text", [1, [2]], (1, (2, "x")), {"a": (1, 2), "b": {"c": None}}, []]
)
def test_plain_values_come_back_equal_and_of_the_same_type(value):
    back = decode(encode(value, refuse), lambda data: pytest.fail(f"unexpected tag {data}"))
    assert back == value and type(back) is type(value)


def test_floats_that_json_cannot_hold_still_cross():
    back = decode(encode([float("nan"), float("inf")], refuse), dict)
    assert math.isnan(back[0]) and back[1] == float("inf")


def test_what_is_not_plain_data_is_named_by_its_type():
    sent = encode([(x for x in ()), {1: "int key"}, {"ok": object()}], by_type)
    assert decode(sent, lambda data: Opaque(data["$type"])) == [Opaque("generator"), Opaque("dict"), {"ok": Opaque("object")}]
    with pytest.raises(Unsendable):
        encode(lambda: 1, refuse)


def test_a_value_nested_too_deeply_stops_at_a_bound():
    deep = []
    for _ in range(100):
        deep = [deep]
    assert "$type" in str(encode(deep, by_type))


def test_an_exception_is_described_with_the_agents_line_and_whether_it_is_a_stub(tmp_path):
    path = tmp_path / "agent.py"
    source = "def extract_code(reply):\n    raise NotImplementedError('step 1')\n\ndef other():\n    return {}['k']\n"
    path.write_text(source)
    namespace = {}
    exec(compile(source, str(path), "exec"), namespace)
    for function, args, expected in (("extract_code", ["x"], (2, "extract_code", True)), ("other", [], (5, "other", False))):
        with pytest.raises(Exception) as caught:
            namespace[function](*args)
        described = describe(caught.value, str(path), function)
        assert (described["line"], described["in"], described["stub"]) == expected
    assert described["type"] == "KeyError" and described["source"] == "return {}['k']"


def test_a_description_from_the_child_is_checked_and_made_safe():
    checked = info({"type": "E\x1b[2J", "message": "bad \ud800", "line": "7", "stub": "yes", "exit": True})
    assert checked["type"] == "E\\x1b[2J" and checked["message"] == "bad \\ud800"
    assert checked["line"] is None and checked["stub"] is False and checked["exit"] is None
    assert info("not a dict")["type"] == "an exception"
