"""The lab's own model answering a learner's agent for a try: offline, gaming or live, with the talk recorded."""

from __future__ import annotations


class LabModel:
    """The lab's model (offline, gaming or live) answering an agent's asks for a try, with the talk recorded."""

    runs = None  # a try runs the agent's tests in the sandbox

    def __init__(self, backend: str | None = None):
        from harness import settings

        self.backend = backend or settings.get("SPEC2CODE_MODEL")
        self.transcript: list[tuple[str, str]] = []  # (prompt, reply) in order

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
