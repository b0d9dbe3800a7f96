"""The lab's own model answering a learner's agent for a try: offline, gaming or live, with the talk recorded."""

from __future__ import annotations


class LabModel:
    """The lab's model (offline, gaming or live) answering an agent's asks for a try, with the talk recorded."""

    runs = None  # a try runs the agent's tests in the sandbox

    def __init__(self, backend: str | None = None):
        from harness import settings

        self.backend = backend or settings.get("SPEC2CODE_MODEL")
        self.transcript: list[tuple[str, str]] = []  # (prompt, reply) in order

    @staticmethod
    def answers(function: str) -> bool:
        """Whether it answers the asks of `function`'s call: not in a step given no model (1 and 5), as in its check,
        so that trying such a step says what its check says."""
        from ..steps import BY_FUNCTION

        step = BY_FUNCTION.get(function)
        return not (step and step.without_model)

    def __call__(self, prompt, via: str = "given", sample: int = 0) -> str:
        from harness import trail
        from harness.model import respond

        if not isinstance(prompt, str):
            raise RuntimeError(f"ask() takes the prompt as a str, not {type(prompt).__name__}: build one string first.")
        reply = respond(prompt, backend=self.backend, sample=sample)
        self.transcript.append((prompt, reply.text))
        recording = trail.active()  # the audit trail, kept here so that any agent leaves one
        if recording is not None:
            recording.ask(prompt, reply, via=via)
        return reply.text
