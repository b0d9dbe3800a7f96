"""Step 1 checks: `extract_code(reply)` finds the code in a model's reply."""

from checks.define import check, cut, fail, fail_text, need_type, pytest_view
from checks.scripts import trim

STEP = 1


def extracted(agent, reply: str) -> str:
    got = agent.call("extract_code", reply)
    need_type(got, str, "extract_code", "return the code as a str")
    return got


def expect_code(got: str, expected: str, hint: str) -> None:
    """Fail unless `got` is `expected` (blank lines just inside the fence and trailing spaces are not graded)."""
    if trim(got) == expected:
        return
    if "```" in got:
        hint = "leave out the fence lines: return only what is between them"
    elif got.lstrip().startswith("python"):
        hint = "did you drop the ```python tag?"
    elif expected in got:
        hint = "return only the code inside the fence, not the words around it"
    fail_text(expected, got, hint)


@check
def drops_the_python_tag(agent):
    """returns the code of a ```python block, without the python tag"""
    name = agent.script.names[0]
    code = f"{name} = 'python'\nprint({name})"
    got = extracted(agent, f"```python\n{code}\n```")
    if trim(got) == code.replace("'python'", "''"):
        fail(repr(code), got, "remove the tag on the fence line, not every 'python'")
    expect_code(got, code, "did you drop the ```python tag?")


@check
def handles_a_bare_fence(agent):
    """returns the code of a bare ``` block (no language tag)"""
    (x, y), (a, b) = agent.script.names[1:3], agent.script.numbers[:2]
    code = f"{x} = {a}\n{y} = {b}"
    got = extracted(agent, f"```\n{code}\n```")
    if trim(got) == f"{y} = {b}":
        fail(repr(code), got, "the line after a bare ``` is already code: drop a tag only when there is one")
    if trim(got) == f"```\n{code}\n```":
        fail(repr(code), got, "a fence may have no tag: does your search only look for ```python?")
    expect_code(got, code, "a fence may have no tag: ``` alone on its line is a fence too")


@check
def ignores_the_text_around_the_block(agent):
    """ignores the model's words before and after the block"""
    name, times = agent.script.names[3], agent.script.numbers[2]
    code = f"def {name}(n):\n    return {times} * n"
    reply = (
        f"Sure! Here is the function:\n\n```python\n{code}\n```\n\n"
        f"It multiplies its argument by {times}. Let me know if you want tests."
    )
    expect_code(extracted(agent, reply), code, "return only the code inside the fence")


@check
def returns_only_the_first_block(agent):
    """returns only the first block when the reply has several"""
    name, value = agent.script.names[4], agent.script.numbers[3]
    expected, usage = f"def {name}():\n    return {value}", f"print({name}())"
    reply = f"Here is the code:\n```python\n{expected}\n```\nAnd how to use it:\n```python\n{usage}\n```\n"
    got = extracted(agent, reply)
    if trim(got) == usage:
        fail(repr(expected), got, "you returned the last block: return the first one")
    if trim(got).startswith(expected) and usage in got:
        fail(repr(expected), got, "stop at the first closing ``` (a greedy .* runs on to the last one: use .*?)")
    expect_code(got, expected, "with several blocks, return the first")


@check
def keeps_the_indentation(agent):
    """keeps the code's lines, blank lines and indentation as they are"""
    box, items = agent.script.names[5], agent.script.names[6]
    code = (f"class {box.title().replace('_', '')}:\n    def __init__(self):\n        self.{items} = []\n\n"
            f"    def add(self, item):\n        self.{items}.append(item)")
    got = extracted(agent, f"```python\n{code}\n```")
    expect_code(got, code, "indentation is part of Python code: don't strip or join the lines inside the block")


@check
def returns_a_reply_without_fences_stripped(agent):
    """returns the whole reply, stripped, when it has no fence"""
    name, times = agent.script.names[7], agent.script.numbers[4]
    reply = f"\n  def {name}(n):\n      return {times} * n\n\n"
    got = extracted(agent, reply)
    if got == reply.strip():
        return
    hint = "with no fence, the model sent bare code: return the reply itself, stripped"
    if got.strip() == reply.strip():
        hint = "strip the whitespace around the reply (str.strip())"
    fail(cut(reply.strip()), got, hint)


test_check, pytest_generate_tests = pytest_view(STEP, __name__)
