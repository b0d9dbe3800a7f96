"""Step 3 checks: `write_solution(spec, ask, feedback)` asks for an implementation, with feedback when there is some."""

from checks.scripted import ScriptedAsk
from checks.define import asked_once, check, cut, need, need_extracted, prompt_sent, pytest_view
from checks.scripts import reply_with

STEP = 3


def scripted_call(agent, *feedback):
    """write_solution on another spec (with `feedback` if given): (returned code, the model)."""
    other = agent.script.other
    model = ScriptedAsk([reply_with(other.solution)])
    got = agent.call("write_solution", other.spec, model, *feedback)
    return got, model


def prompt_of(agent, *feedback) -> str:
    return prompt_sent(scripted_call(agent, *feedback)[1], "write_solution")


@check
def calls_the_given_ask_once(agent):
    """asks through the `ask` it is given, once"""
    asked_once(scripted_call(agent)[1], "write_solution")


@check
def puts_the_spec_in_the_prompt(agent):
    """puts the spec it is given in the prompt (the checks give it a spec other than leap year)"""
    prompt = prompt_of(agent)
    need(
        agent.script.other.spec.strip() in prompt,
        f"expected the spec in the prompt, got the prompt {cut(prompt)}",
        "put the `spec` argument itself in the prompt (not harness.SPEC): the model only knows what you send",
    )


@check
def puts_the_feedback_in_the_prompt(agent):
    """puts the feedback in the prompt, with the spec, when there is some"""
    spec, feedback = agent.script.other.spec, agent.script.other.feedback
    prompt = prompt_of(agent, feedback)
    need(
        feedback in prompt,
        f"expected the feedback {cut(feedback)} in the prompt, got the prompt {cut(prompt)}",
        "when `feedback` is not empty, add it to the prompt so the model can fix its last attempt",
    )
    need(
        spec.strip() in prompt,
        f"expected the spec in the prompt with the feedback, got the prompt {cut(prompt)}",
        "keep the spec in the prompt when you add feedback: the model does not remember the last call",
    )


@check(follows=("puts_the_feedback_in_the_prompt",))
def leaves_the_feedback_out_when_there_is_none(agent):
    """leaves the feedback out of the prompt when there is none"""
    feedback = agent.script.other.feedback
    with_feedback = prompt_of(agent, feedback)
    without = prompt_of(agent)
    need(
        feedback not in without,
        f"expected no feedback after a call without it, got the prompt {cut(without)}",
        "use only the `feedback` argument: don't keep feedback from an earlier call",
    )
    need(
        with_feedback.replace(feedback, "") != without,
        f"expected the prompt without feedback to leave the feedback part out, got {cut(without)}",
        "with feedback=\"\" your prompt still has the words that introduce feedback: add them only `if feedback:`",
    )


@check
def returns_the_code_of_the_reply(agent):
    """returns the code from the reply (through extract_code), not the whole reply"""
    got, _ = scripted_call(agent)
    need_extracted(got, agent.script.other.solution, "write_solution", "solution")


test_check, pytest_generate_tests = pytest_view(STEP, __name__)
