"""checks/runner/wire: the agent runner's wall speaks the sandbox's codec, names what is not plain data, and
describes exceptions as data; the same values cross both walls the same way."""

import inspect

import pytest

import harness
from checks.runner import Agent
from checks.runner.wire import Opaque, Unsendable, decode, describe, encode, info, named, opaque, received
from harness.sandbox import wire as sandbox_wire
from tests.harness.sandbox.test_wire import PLAIN, PLAIN_SOURCE, nested, same
from tests.helpers import write_agent


def test_it_is_the_sandbox_codec_with_one_unsendable():
    assert (encode, decode, Unsendable) == (sandbox_wire.encode, sandbox_wire.decode, sandbox_wire.Unsendable)


def test_what_is_not_plain_data_is_named_by_its_type():
    sent = encode([(x for x in ()), {1: "int key"}, {"ok": object()}, {lambda: 1}], named)
    assert received(sent) == [Opaque("generator"), {1: "int key"}, {"ok": Opaque("object")}, {Opaque("function")}]
    with pytest.raises(Unsendable):
        encode(lambda: 1)


def test_a_value_nested_too_deeply_stops_at_a_bound():
    deep = []
    for _ in range(100):
        deep = [deep]
    back = decode(encode(deep, named), opaque)
    for _ in range(sandbox_wire.MAX_DEPTH):
        back = back[0]
    assert back == Opaque("value nested too deeply")


@pytest.mark.parametrize("data", [{"a": 1, "b": 2}, {"$set": [[1]]}, {"$float": "1"}, nested(sandbox_wire.MAX_DEPTH + 1)])
def test_whatever_the_child_sends_the_lab_reads_a_value_and_never_raises(data):
    assert received(data) == Opaque("value that cannot be read")


def test_a_subclass_returned_by_an_agent_comes_back_as_its_base_type(tmp_path):
    source = ("class Yes(str):\n    def __eq__(self, other):\n        return True\n    __hash__ = str.__hash__\n\n\n"
              "def extract_code(reply):\n    return [Yes('no'), True]\n")
    with Agent(write_agent(tmp_path, source)) as agent:
        got = agent.call("extract_code", "x")
    assert same(got, ["no", True]) and got[0] != "yes"


# The values of tests/harness/sandbox/test_wire.py, both ways across each wall: the solution's (harness.run) and the
# agent's (Agent.call). Each side builds them from the same source.
ECHO = PLAIN_SOURCE + "\n\ndef value(i):\n    return PLAIN[i]\n\n\ndef echo(v):\n    return v\n"


def test_the_same_values_cross_the_sandbox_wall_both_ways_unchanged():
    each = "\n\ndef test_value_{i}():\n    assert same(value({i}), PLAIN[{i}])\n    assert same(echo(PLAIN[{i}]), PLAIN[{i}])\n"
    tests = "import math\n" + PLAIN_SOURCE + "\n\n" + inspect.getsource(same) + "".join(
        each.format(i=i) for i in range(len(PLAIN)))
    result = harness.run(ECHO, tests)
    assert result["error"] is None and result["failed"] == [] and result["passed"] == len(PLAIN), result["output"]


def test_the_same_values_cross_the_agent_wall_both_ways_unchanged(tmp_path):
    with Agent(write_agent(tmp_path, ECHO)) as agent:
        for i, expected in enumerate(PLAIN):
            assert same(agent.call("value", i), expected), i
            assert same(agent.call("echo", expected), expected), i


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
