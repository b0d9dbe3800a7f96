"""The "try it" cell: call one of the agent's functions through the lab's agent runner and show what it gave."""

from __future__ import annotations

import html
import pprint

from checks.diagnosis import Diagnosis, diagnose, returned, sentence
from checks.report import COLOURS
from checks.report.notebook import code_spans
from checks.runner import Agent, AgentError, LabModel, Unsendable
from checks.steps import try_time_limit
from harness import settings
from harness.errors import LabError
from harness.text import cut

from .on_screen import say_if_unsettled

SHOWN = 1500  # characters of a value, a prompt or what was printed shown before it is cut short


def try_function(function: str, *args, agent_path=None, timeout: float | None = None, model=None, **kwargs):
    """Load the agent fresh from disk, call one of its functions, and show what it returned (or what went wrong).

    The call runs in the lab's walled child process with a time limit, so a hang is stopped and nothing leaks into
    this kernel. The lab's model answers the function's calls to `ask`, and they are shown with what it printed.
    `model` picks the model for this call ("offline", "gaming" or "live"; default: as SPEC2CODE_MODEL says).
    `timeout` defaults to the limit the step's check gives a call (3 s for steps 1-3, 10 s for steps 4-5).
    """
    path = settings.agent_path(agent_path)
    say_if_unsettled(path)  # run means save: the tab's unsaved edits, if any, are on disk first
    shown = settings.shown(path)
    timeout = try_time_limit(function) if timeout is None else timeout
    lab_model = LabModel(model)
    with Agent(path, model=lab_model, show_output=True) as agent:
        def tried(**outcome):
            return Tried(function, path, asks=lab_model.transcript, printed=agent.printed, **outcome)

        try:
            agent.load()
            if function not in agent.functions:
                return tried(problem=f"{shown} has no function `{function}`. Did you rename or delete it?")
            value = agent.call(function, *args, time_limit=timeout, **kwargs)
            return tried(value=value, diagnosis=returned(function, value, path))
        except Unsendable as exc:
            return tried(problem=f"The arguments cannot be sent to the child process ({exc}).")
        except AgentError as exc:
            return tried(diagnosis=diagnose(exc, function, path, source=agent.source))
        except LabError as exc:  # the lab's model could not answer: no key, a replay miss
            return tried(problem=f"{type(exc).__name__}: {exc}")


def _problem(found: Diagnosis, called: str) -> str:
    """A diagnosis as the cell says it: what happened (in which step, when not the one called), the learner's line
    as code, the hint, and what to do next."""
    label = found.label[:1].upper() + found.label[1:]
    waiting = found.kind in ("not started", "calls a stub")
    lead = f"In {found.elsewhere(called)}: " if found.elsewhere(called) else ""
    if found.kind == "not started":
        lead = f"{label} is not started yet: "
    source = f"\n    {found.source}" if found.source else ""
    return (f"{lead}{sentence(found.message)}{source}\nHint: {sentence(found.hint)}\n"
            f"{'Write' if waiting else 'Fix'} it in {found.file}, save, and run this cell again.")


class Tried:
    """What one "try it" call gave: a value, or a problem in words, plus the model calls made and anything printed."""

    def __init__(self, function, path, *, value=None, problem="", asks=(), printed="", diagnosis=None):
        self.function, self.path, self.value = function, path, value
        self.diagnosis: Diagnosis | None = diagnosis  # what went wrong, when the agent's code is at fault
        self.problem = _problem(diagnosis, function) if diagnosis is not None else problem
        self.asks, self.printed = list(asks), printed
        self.source = diagnosis.source if diagnosis is not None else ""  # the learner's line, shown as code

    @property
    def _returned_a_value(self) -> bool:
        return self.ok or (self.diagnosis is not None and self.diagnosis.kind == "wrong return")

    @property
    def ok(self) -> bool:
        return not self.problem

    def _returned(self) -> str:
        """What kind of value came back: a str is then shown as text, anything else as Python writes it."""
        if isinstance(self.value, str):
            lines = self.value.count("\n") + 1
            return "returned: an empty str" if not self.value else f"returned: a str ({lines} line{'s' * (lines > 1)})"
        return f"returned: a {type(self.value).__name__}" if self.value is not None else "returned: None"

    def _value_text(self) -> str:
        if isinstance(self.value, str):  # text is shown as text, one line or many (no quotes, no \n)
            return self.value
        return pprint.pformat(self.value, width=100, sort_dicts=False)

    def __repr__(self) -> str:
        lines = []
        for i, (prompt, reply) in enumerate(self.asks, 1):
            lines += [f"--- ask #{i}: the prompt ---", cut(prompt, 800)]
            lines += [f"--- ask #{i}: the reply ---", cut(reply, 800)]
        if self.printed.strip():
            lines += ["--- printed ---", cut(self.printed.rstrip(), SHOWN)]
        if self._returned_a_value:
            lines += [f"{self.function} {self._returned()}", cut(self._value_text(), SHOWN)]
        if not self.ok:
            lines.append(self.problem)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        esc = html.escape
        pre = 'style="margin: 2px 0 8px; padding: 4px 8px; background: #f6f8fa; white-space: pre-wrap"'
        parts = [f'<div class="spec2code-try" data-ok="{str(self.ok).lower()}" style="font-family: sans-serif">']
        for i, (prompt, reply) in enumerate(self.asks, 1):
            parts.append(
                f"<details><summary>ask #{i}: the prompt your code sent, and the model's reply</summary>"
                f"<div>Prompt:</div><pre {pre}>{esc(cut(prompt, 3000))}</pre>"
                f"<div>Reply:</div><pre {pre}>{esc(cut(reply, 3000))}</pre></details>"
            )
        if self.printed.strip():
            parts.append(f"<div>Printed:</div><pre {pre}>{esc(cut(self.printed.rstrip(), SHOWN))}</pre>")
        if self._returned_a_value:
            parts.append(f"<div><code>{esc(self.function)}</code> {esc(self._returned())}</div>")
            if self.value != "":
                parts.append(f"<pre {pre}>{esc(cut(self._value_text(), SHOWN))}</pre>")
        if not self.ok:
            waiting = self.diagnosis is not None and self.diagnosis.kind in ("not started", "calls a stub")
            colour = COLOURS["not started"] if waiting else COLOURS["failed"]
            parts.append(
                f'<div style="border-left: 6px solid {colour}; padding: 4px 10px">{self._problem_html()}</div>'
            )
        parts.append("</div>")
        return "".join(parts)

    def _problem_html(self) -> str:
        """The problem in words, with the learner's line of code shown as code: backticks in the code (```) would
        otherwise be read as the start and end of code spans."""
        for quoted in (f"`{self.source}`", f"\n    {self.source}"):
            if self.source and quoted in self.problem:
                before, after = self.problem.split(quoted, 1)
                return f"{code_spans(before)}<pre>{html.escape(self.source)}</pre>{code_spans(after)}"
        return code_spans(self.problem)
