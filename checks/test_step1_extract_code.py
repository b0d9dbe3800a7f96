"""Step 1 checks: `extract_code(reply)` finds the code in a model's reply."""

from checks.define import check, cut, fail, need_type, pytest_view
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
    fail(cut(expected), got, hint)


@check
def drops_the_python_tag(agent):
    """returns the code of a ```python block, without the python tag"""
    got = extracted(agent, "```python\nlanguage = 'python'\nprint(language)\n```")
    if trim(got) == "language = ''\nprint(language)":
        fail(repr("language = 'python'\nprint(language)"), got, "remove the tag on the fence line, not every 'python'")
    expect_code(got, "language = 'python'\nprint(language)", "did you drop the ```python tag?")


@check
def handles_a_bare_fence(agent):
    """returns the code of a bare ``` block (no language tag)"""
    got = extracted(agent, "```\nx = 1\ny = 2\n```")
    if trim(got) == "y = 2":
        fail(repr("x = 1\ny = 2"), got, "the line after a bare ``` is already code: drop a tag only when there is one")
    if trim(got) == "```\nx = 1\ny = 2\n```":
        fail(repr("x = 1\ny = 2"), got, "a fence may have no tag: does your search only look for ```python?")
    expect_code(got, "x = 1\ny = 2", "a fence may have no tag: ``` alone on its line is a fence too")


@check
def ignores_the_text_around_the_block(agent):
    """ignores the model's words before and after the block"""
    reply = (
        "Sure! Here is the function:\n\n```python\ndef double(n):\n    return 2 * n\n```\n\n"
        "It doubles its argument. Let me know if you want tests."
    )
    expect_code(extracted(agent, reply), "def double(n):\n    return 2 * n", "return only the code inside the fence")


@check
def returns_only_the_first_block(agent):
    """returns only the first block when the reply has several"""
    reply = "Here is the code:\n```python\ndef first():\n    return 1\n```\nAnd how to use it:\n```python\nprint(first())\n```\n"
    got = extracted(agent, reply)
    expected = "def first():\n    return 1"
    if trim(got) == "print(first())":
        fail(repr(expected), got, "you returned the last block: return the first one")
    if trim(got).startswith(expected) and "print(first())" in got:
        fail(repr(expected), got, "stop at the first closing ``` (a greedy .* runs on to the last one: use .*?)")
    expect_code(got, expected, "with several blocks, return the first")


@check
def keeps_the_indentation(agent):
    """keeps the code's lines, blank lines and indentation as they are"""
    code = "class Box:\n    def __init__(self):\n        self.items = []\n\n    def add(self, item):\n        self.items.append(item)"
    got = extracted(agent, f"```python\n{code}\n```")
    expect_code(got, code, "indentation is part of Python code: don't strip or join the lines inside the block")


@check
def returns_a_reply_without_fences_stripped(agent):
    """returns the whole reply, stripped, when it has no fence"""
    reply = "\n  def triple(n):\n      return 3 * n\n\n"
    got = extracted(agent, reply)
    if got == reply.strip():
        return
    hint = "with no fence, the model sent bare code: return the reply itself, stripped"
    if got.strip() == reply.strip():
        hint = "strip the whitespace around the reply (str.strip())"
    fail(cut(reply.strip()), got, hint)


test_check = pytest_view(STEP, __name__)
