"""checks/stand_ins.py: the reference answering for a learner's unfinished functions, one call at a time."""

from checks.runner.wire import STAND_IN_ASK
from checks.stand_ins import Reference


def test_a_function_that_asks_gives_its_prompt_first_then_its_value_from_the_reply():
    with Reference() as reference:
        answer = reference.stand_ins(["write_tests", "extract_code"])
        asked = answer["write_tests"](["the spec", STAND_IN_ASK], {}, [])
        assert "the spec" in asked["ask"] and "test_" in asked["ask"]
        reply = "Here:\n```python\ndef test_x():\n    assert True\n```"
        assert answer["write_tests"](["the spec", STAND_IN_ASK], {}, [reply]) == {
            "result": "def test_x():\n    assert True"}
        assert answer["write_tests"](["the spec"], {}, [reply])["result"].startswith("def test_x")  # no ask given
        assert answer["extract_code"](["```\ny = 2\n```"], {}, []) == {"result": "y = 2"}
        assert "failed" in answer["extract_code"]([], {}, [])["error"]


def test_without_a_reference_beside_the_lab_nothing_stands_in(tmp_path):
    assert Reference(tmp_path / "absent.py").stand_ins(["extract_code"]) == {}
    assert Reference().stand_ins([]) == {} and set(Reference().stand_ins(["extract_code", "a_helper"])) == {"extract_code"}
