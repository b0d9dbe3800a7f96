"""The checks in a notebook: grade a step in place, try the learner's functions safely, and chart a run."""

from __future__ import annotations

import html
import io
import os
import pickle
import pprint
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = [
    "REFERENCE",
    "Report",
    "Tried",
    "check_step",
    "contrast_chart",
    "contrast_table",
    "progress",
    "rounds_chart",
    "rounds_table",
    "run_reference",
    "try_function",
]

ROOT = Path(__file__).resolve().parent.parent  # the project folder
REFERENCE = ROOT / "solutions" / "agent.py"  # the lab's finished agent, used for demonstrations
TRY_TIMES = 3  # a "try it" call may take this many times the step's own time limit (a real model is slower) ...
TRY_MINIMUM = 10.0  # ... and never less than this many seconds, before it is stopped
CUT = 1500  # characters of a long value shown before it is cut short

_COLOURS = {"passed": "#1a7f37", "failed": "#cf222e", "not started": "#6e7781", "blocked": "#9a6700"}
_MARKS = {"passed": "✔", "failed": "✘", "not started": "○", "blocked": "⊘"}  # glyphs every common font has
_TEXT_MARKS = {"passed": ":)", "failed": ":(", "not started": ":|", "blocked": ":|"}


# --- which agent, which step ------------------------------------------------------------------------------------


def _agent_path(agent_path=None) -> Path:
    """The agent.py to use: the argument, else SPEC2CODE_AGENT, else lab/agent.py (relative to the project)."""
    raw = agent_path or os.environ.get("SPEC2CODE_AGENT") or "lab/agent.py"
    path = Path(raw).expanduser()
    if not path.is_absolute():
        path = ROOT / path
    return path.resolve()


def _shown(path: Path) -> str:
    """A path as the learner knows it: relative to the project when it is inside it."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def _steps() -> dict[int, tuple[str, str]]:
    """step number -> (function name, title), from the checks' own table."""
    import checks

    table = getattr(checks, "STEPS", None)
    if table is None:  # while the package's exports are being settled
        from checks.steps import STEPS as table
    return {s.number: (s.function, s.title) for s in table}


def _step_of(function: str) -> int | None:
    for number, (name, _) in _steps().items():
        if name == function:
            return number
    return None


def _cut(text: str, limit: int = CUT) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f"\n... ({len(text) - limit} more characters)"


# --- the check cell ---------------------------------------------------------------------------------------------


def check_step(step: int, agent_path=None) -> "Report":
    """Grade one step on the agent.py as it is on disk now, and show the verdict in the notebook.

    The file is graded in a child process, so an edit is picked up without restarting the kernel.
    """
    path = _agent_path(agent_path)
    try:
        from checks import grade_agent

        graded = grade_agent(str(path), steps=[step])
        result = next(s for s in graded["steps"] if s["step"] == step)
    except Exception as exc:  # the lab's own failure: say so plainly, never a traceback
        result = {"step": step, "name": "", "status": "error", "checks": [], "error": _describe(exc)}
    return Report(result, path, _stale_note(path))


def progress(agent_path=None) -> "Table | Message":
    """One line per step: where the agent.py on disk stands now."""
    path = _agent_path(agent_path)
    try:
        from checks import grade_agent

        graded = grade_agent(str(path))
    except Exception as exc:
        return Message(f"The steps could not be checked: {_describe(exc)}", colour=_COLOURS["failed"])
    rows = [
        [f"{_MARKS.get(s['status'], '?')} step {s['step']}", s["name"], s["status"], _next_word(s)]
        for s in graded["steps"]
    ]
    caption = f"{_shown(path)}: {graded['passed']} of {graded['total']} steps pass"
    return Table(["", "function", "status", "notebook"], rows, caption)


def _next_word(step: dict) -> str:
    return f"notebooks/{step['step']:02d}_{step['name']}.ipynb"


def _describe(exc: Exception) -> str:
    """An exception in one line; the lab's own errors (LabError) say how to fix them, others are for a teacher."""
    from harness.errors import LabError

    text = f"{type(exc).__name__}: {exc}"
    return text if isinstance(exc, LabError) else f"{text}. This is a problem in the lab: please tell your instructor."


def _stale_note(path: Path) -> str:
    """A warning when this kernel has imported an older version of the agent file than the one on disk."""
    try:
        source = path.read_text(encoding="utf-8")
        compiled = compile(source, str(path), "exec", dont_inherit=True)
        fresh = {c.co_name: c for c in compiled.co_consts if hasattr(c, "co_code")}
    except (OSError, SyntaxError, ValueError):
        return ""
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if not file or Path(file).resolve() != path:
            continue
        for function, code in fresh.items():
            loaded = getattr(getattr(module, function, None), "__code__", None)
            if loaded is not None and loaded != code:
                return (
                    f"This kernel imported an older version of {_shown(path)} (as `{name}`). The check above graded "
                    "the file on disk, but code in this notebook that uses the import still runs the old version. "
                    "Restart the kernel, or use try_function(...), which always loads the file fresh."
                )
    return ""


class Report:
    """One step's verdict, shown as HTML in a notebook and as check50-style lines in plain text."""

    def __init__(self, result: dict, path: Path, note: str = ""):
        self.result, self.path, self.note = result, path, note
        self.step = result["step"]
        self.status = result["status"]
        self.checks = result.get("checks", [])

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def _title(self) -> str:
        name, title = self.result.get("name", ""), self.result.get("title", "")
        return f"Step {self.step} · {name}" + (f" ({title})" if title else "")

    def _headline(self) -> str:
        done = sum(c["status"] == "passed" for c in self.checks)
        where = _shown(self.path)
        if self.status == "passed":
            return f"passed: all {len(self.checks)} checks pass. On to the next step!"
        if self.status == "failed":
            return f"failed: {done} of {len(self.checks)} checks pass. Fix {where}, save it, and run this cell again."
        if self.status == "not started":
            name = self.result.get("name") or "the function"
            return f"not started: `{name}` in {where} still raises NotImplementedError. Write it, save, run this again."
        if self.status == "blocked":
            why = next((c.get("message") for c in self.checks if c.get("message")), "")
            return f"blocked: {why or 'an earlier step must pass first.'}"
        return f"could not be checked: {self.result.get('error', 'unknown problem')}"

    def _shown_checks(self) -> list[dict]:
        """The checks worth listing: all of them, unless the step is not started or blocked (then they wait)."""
        return [] if self.status in ("not started", "blocked") else self.checks

    def __repr__(self) -> str:
        lines = [f"{self._title()}: {self._headline()}"]
        for check in self._shown_checks():
            lines.append(f"  {_TEXT_MARKS.get(check['status'], ':|')} {check['description']}")
            if check["status"] == "failed":
                lines += [f"      {line}" for line in _cut(check.get("message") or "").splitlines()]
                if check.get("hint"):
                    lines.append(f"      hint: {check['hint']}")
        if self.status in ("not started", "blocked") and self.checks:
            lines.append("  What the check looks for:")
            lines += [f"    - {c['description']}" for c in self.checks]
        if self.note:
            lines.append(f"  Note: {self.note}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        colour = _COLOURS.get(self.status, "#cf222e")
        mark = _MARKS.get(self.status, "✘")
        esc = html.escape
        parts = [
            f'<div class="spec2code-check" data-step="{self.step}" data-status="{esc(self.status)}" '
            f'style="border-left: 6px solid {colour}; padding: 6px 12px; margin: 4px 0; font-family: sans-serif">',
            f'<div style="font-weight: bold; color: {colour}">{mark} {esc(self._title())}: '
            f"{_code_spans(self._headline())}</div>",
        ]
        shown = self._shown_checks()
        if shown:
            parts.append('<ul style="list-style: none; padding-left: 0.5em; margin: 6px 0">')
            for check in shown:
                c = _COLOURS.get(check["status"], "#6e7781")
                parts.append(
                    f'<li style="margin: 3px 0"><span style="color: {c}">{_MARKS.get(check["status"], "○")}</span> '
                    f"{esc(check['description'])}"
                )
                if check["status"] == "failed":
                    if check.get("message"):
                        parts.append(
                            '<pre style="margin: 4px 0 2px 1.5em; padding: 4px 8px; background: #f6f8fa; '
                            f'white-space: pre-wrap">{esc(_cut(check["message"]))}</pre>'
                        )
                    if check.get("hint"):
                        parts.append(f'<div style="margin-left: 1.5em"><b>Hint:</b> <i>{esc(check["hint"])}</i></div>')
                parts.append("</li>")
            parts.append("</ul>")
        elif self.checks:
            items = "".join(f"<li>{esc(c['description'])}</li>" for c in self.checks)
            parts.append(f"<details><summary>What the check looks for</summary><ul>{items}</ul></details>")
        if self.note:
            parts.append(f'<div style="color: #9a6700; margin-top: 6px"><b>Note:</b> {_code_spans(self.note)}</div>')
        parts.append("</div>")
        return "".join(parts)


def _code_spans(text: str) -> str:
    """Escape text for HTML, turning `backticked` words into <code>."""
    pieces = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(pieces))


# --- the lab's own errors in a notebook --------------------------------------------------------------------------


def load_ipython_extension(shell) -> None:
    """Loaded by the lab's kernel at start: the lab's own errors (LabError) show as their message, not a traceback.

    A LabError's message says what to fix (a mistyped SPEC2CODE_ setting, a live model with no key); the traceback
    under it would only show the lab's insides. The cell still counts as failed, so "Run All" stops there.
    """
    from harness.errors import LabError

    def show(shell, etype, value, tb, tb_offset=None):
        from IPython.display import display

        display(Message(f"{etype.__name__}: {value}", colour=_COLOURS["failed"]))

    shell.set_custom_exc((LabError,), show)


# --- the "try it" cells -----------------------------------------------------------------------------------------


def try_function(function: str, *args, agent_path=None, timeout: float | None = None, model=None, **kwargs):
    """Load the agent fresh from disk, call one of its functions, and show what it returned (or what went wrong).

    The call runs in a child process with a time limit, so a hang is stopped and nothing leaks into this kernel.
    A function that takes `ask` and is not given one is handed the lab's model, and the calls it makes are shown.
    `model` picks the scripted model for this call ("offline" or "gaming"; default: as SPEC2CODE_MODEL says).
    `timeout` defaults to a few times the step's own time limit (10 s for steps 1-3, 30 s for steps 4-5).
    """
    path = _agent_path(agent_path)
    timeout = _try_timeout(function) if timeout is None else timeout
    env = dict(os.environ)
    if model is not None:
        env["SPEC2CODE_MODEL"] = model
    payload = {"path": str(path), "function": function, "args": args, "kwargs": kwargs}
    try:
        pickle.dumps(payload)
    except Exception as exc:
        problem = f"The arguments cannot be sent to the child process ({exc}); use plain data."
        return Tried(function, path, problem=problem)
    return _call_in_child(payload, env, timeout, path)


def run_reference(function: str, *args, model=None, timeout: float | None = None, **kwargs):
    """Call a function of the lab's finished agent (solutions/agent.py), for a demonstration."""
    return try_function(function, *args, agent_path=REFERENCE, model=model, timeout=timeout, **kwargs)


def _try_timeout(function: str) -> float:
    try:
        import checks

        limit = checks.step(function).time_limit
    except Exception:  # not one of the five steps: a helper of the learner's own
        limit = 0.0
    return max(TRY_MINIMUM, TRY_TIMES * limit)


def _call_in_child(payload: dict, env: dict, timeout: float, path: Path) -> "Tried":
    function = payload["function"]
    with tempfile.TemporaryDirectory(prefix="spec2code-try-") as tmp:
        payload["out"] = os.path.join(tmp, "result.pickle")
        # The child runs the agent's code: untrusted, so it gets its own process group and a time limit.
        child = subprocess.Popen(
            [sys.executable, __file__, "--child"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            cwd=ROOT, env=env, start_new_session=True,
        )
        try:
            printed, _ = child.communicate(pickle.dumps(payload), timeout=timeout)
        except KeyboardInterrupt:  # the learner pressed stop: stop the child too
            _kill(child)
            raise
        except subprocess.TimeoutExpired:
            _kill(child)
            return Tried(function, path, problem=(
                f"`{function}` did not finish within {timeout:g} s, so it was stopped. Look for a loop that "
                "never ends (does it stop after max_iters attempts?) or a call that waits forever."
            ))
        printed = printed.decode("utf-8", "replace")
        try:
            with open(payload["out"], "rb") as f:
                outcome = pickle.load(f)
        except (OSError, EOFError, pickle.UnpicklingError):
            return Tried(function, path, printed=printed, problem=(
                f"The child process running `{function}` stopped without a result (exit code {child.returncode}). "
                "Does your code call exit() or crash the interpreter?"
            ))
    return Tried(function, path, printed=printed, **outcome)


def _kill(child: subprocess.Popen) -> None:
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        child.kill()
    child.communicate()


class Tried:
    """What one "try it" call gave: a value, or a problem in words, plus the model calls made and anything printed."""

    def __init__(self, function, path, *, value=None, problem="", asks=(), printed="", shown_value=None):
        self.function, self.path, self.value, self.problem = function, path, value, problem
        self.asks, self.printed = list(asks), printed
        self._shown_value = shown_value

    @property
    def ok(self) -> bool:
        return not self.problem

    def _value_text(self) -> str:
        if self._shown_value is not None:
            return self._shown_value
        if isinstance(self.value, str) and "\n" in self.value:
            return self.value
        return pprint.pformat(self.value, width=100, sort_dicts=False)

    def __repr__(self) -> str:
        lines = []
        for i, (prompt, reply) in enumerate(self.asks, 1):
            lines += [f"--- ask #{i}: the prompt ---", _cut(prompt, 800)]
            lines += [f"--- ask #{i}: the reply ---", _cut(reply, 800)]
        if self.printed.strip():
            lines += ["--- printed ---", _cut(self.printed.rstrip())]
        if self.ok:
            lines += [f"{self.function} returned:", _cut(self._value_text())]
        else:
            lines.append(self.problem)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        esc = html.escape
        pre = 'style="margin: 2px 0 8px; padding: 4px 8px; background: #f6f8fa; white-space: pre-wrap"'
        parts = [f'<div class="spec2code-try" data-ok="{str(self.ok).lower()}" style="font-family: sans-serif">']
        for i, (prompt, reply) in enumerate(self.asks, 1):
            parts.append(
                f"<details><summary>ask #{i}: the prompt your code sent, and the model's reply</summary>"
                f"<div>Prompt:</div><pre {pre}>{esc(_cut(prompt, 3000))}</pre>"
                f"<div>Reply:</div><pre {pre}>{esc(_cut(reply, 3000))}</pre></details>"
            )
        if self.printed.strip():
            parts.append(f"<div>Printed:</div><pre {pre}>{esc(_cut(self.printed.rstrip()))}</pre>")
        if self.ok:
            parts.append(f"<div><code>{esc(self.function)}</code> returned:</div>")
            parts.append(f"<pre {pre}>{esc(_cut(self._value_text()))}</pre>")
        else:
            colour = _COLOURS["not started"] if "not started" in self.problem else _COLOURS["failed"]
            parts.append(
                f'<div style="border-left: 6px solid {colour}; padding: 4px 10px">{_code_spans(self.problem)}</div>'
            )
        parts.append("</div>")
        return "".join(parts)


# --- the child process ------------------------------------------------------------------------------------------


def _child_main() -> None:
    """Run one call described on stdin and write its outcome (a dict of plain data) to the file it names."""
    import inspect
    import traceback
    import types

    payload = pickle.load(sys.stdin.buffer)
    path, function = payload["path"], payload["function"]
    shown = _shown(Path(path))
    outcome: dict = {}

    def where(exc: BaseException) -> str:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
        if not frames:
            return ""
        last = frames[-1]
        return f" (line {last.lineno} of {shown}: `{(last.line or '').strip()}`)"

    try:
        source = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        outcome["problem"] = f"Cannot read {shown}: {exc.strerror or exc}."
        return _write(payload["out"], outcome)
    module = types.ModuleType("agent")
    module.__file__ = path
    sys.modules["agent"] = module
    try:
        # Runs the learner's agent.py: this child process exists so that whatever it does stays here.
        exec(compile(source, path, "exec", dont_inherit=True), module.__dict__)
    except SyntaxError as exc:
        text = (exc.text or "").strip()
        outcome["problem"] = (
            f"{shown} has a syntax error on line {exc.lineno}: {exc.msg}." + (f"\n    {text}" if text else "")
            + "\nFix that line, save the file, and run this cell again."
        )
        return _write(payload["out"], outcome)
    except BaseException as exc:  # noqa: BLE001 - anything at import time is the learner's to fix
        outcome["problem"] = f"{shown} failed while loading: {type(exc).__name__}: {exc}{where(exc)}."
        return _write(payload["out"], outcome)

    fn = getattr(module, function, None)
    if not callable(fn):
        outcome["problem"] = f"{shown} has no function `{function}`. Did you rename or delete it?"
        return _write(payload["out"], outcome)
    kwargs = dict(payload["kwargs"])
    asks: list = []
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        params = []
    if "ask" in params and "ask" not in kwargs and len(payload["args"]) <= params.index("ask"):
        import harness

        def ask(prompt, **options):
            reply = harness.ask(prompt, **options)
            asks.append((prompt, reply))
            return reply

        kwargs["ask"] = ask
    try:
        value = fn(*payload["args"], **kwargs)
    except NotImplementedError as exc:
        raised_in = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
        stub = raised_in[-1].name if raised_in else function
        if not raised_in or traceback.extract_tb(exc.__traceback__)[-1].filename != path:
            outcome["problem"] = f"`{function}` raised NotImplementedError: {exc}{where(exc)}."
        else:
            step = _step_of_quietly(stub)
            which = f"step {step} (`{stub}`)" if step else f"`{stub}`"
            calls = f"`{function}` calls {which}, which" if stub != function else which[0].upper() + which[1:]
            outcome["problem"] = (
                f"{calls} is not started yet: it still raises NotImplementedError. "
                f"Write it in {shown}, save, and run this cell again."
            )
    except BaseException as exc:  # noqa: BLE001 - report the learner's exception as a message
        outcome["problem"] = f"`{function}` raised {type(exc).__name__}: {_cut(str(exc), 500)}{where(exc)}."
    else:
        try:
            pickle.dumps(value)
            outcome["value"] = value
        except Exception:
            outcome["shown_value"] = repr(value)
    outcome["asks"] = asks
    _write(payload["out"], outcome)


def _step_of_quietly(function: str):
    try:
        return _step_of(function)
    except Exception:
        return None


def _write(out: str, outcome: dict) -> None:
    with open(out, "wb") as f:
        pickle.dump(outcome, f)


# --- step 4: a solve run, round by round ------------------------------------------------------------------------


def _solve_result(run):
    """A solve result from a dict or a Tried; None (with the reason) when there is nothing to show."""
    if isinstance(run, Tried):
        return (run.value, "") if run.ok else (None, run.problem)
    if not isinstance(run, dict) or not isinstance(run.get("history"), list):
        return None, "This is not a result of solve(): expected a dict with a 'history' list."
    return run, ""


def _rounds(run) -> list[dict]:
    rows = []
    for i, entry in enumerate(run["history"], 1):
        result = entry.get("result", {}) if isinstance(entry, dict) else {}
        failed = list(result.get("failed") or [])
        rows.append({
            "round": i, "passed": int(result.get("passed") or 0), "failed": len(failed),
            "total": int(result.get("total") or 0), "error": result.get("error") or "", "failing tests": failed,
        })
    return rows


class Table:
    """A small table shown as HTML in a notebook and as aligned text elsewhere."""

    def __init__(self, columns: list[str], rows: list[list], caption: str = ""):
        self.columns, self.rows, self.caption = columns, rows, caption

    def __repr__(self) -> str:
        cells = [self.columns] + [[str(c) for c in row] for row in self.rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(self.columns))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
        lines.insert(1, "  ".join("-" * w for w in widths))
        return "\n".join(([self.caption] if self.caption else []) + lines)

    def _repr_html_(self) -> str:
        esc = html.escape
        head = "".join(f'<th style="text-align: left">{esc(c)}</th>' for c in self.columns)
        body = "".join(
            "<tr>" + "".join(f'<td style="text-align: left">{esc(str(c))}</td>' for c in row) + "</tr>"
            for row in self.rows
        )
        caption = f"<caption>{esc(self.caption)}</caption>" if self.caption else ""
        return f'<table class="spec2code-table">{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


class Chart:
    """A matplotlib figure rendered once to PNG (deterministic, no pyplot state), with a text summary."""

    def __init__(self, png: bytes, summary: str):
        self.png, self.summary = png, summary

    def _repr_png_(self) -> bytes:
        return self.png

    def __repr__(self) -> str:
        return self.summary


class Message:
    """A sentence shown in place of a result: nothing to draw, or a problem to fix."""

    def __init__(self, text: str, colour: str = _COLOURS["not started"]):
        self.text, self.colour = text, colour

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        style = f"border-left: 6px solid {self.colour}; padding: 4px 10px"
        return f'<div class="spec2code-message" style="{style}">{_code_spans(self.text)}</div>'


def rounds_table(run):
    """A solve() result as a table: one row per round (attempt), with the tests passed and failed."""
    result, why = _solve_result(run)
    if result is None:
        return Message(why)
    rows = [
        [r["round"], f"{r['passed']} of {r['total']}", ", ".join(r["failing tests"]) or "-", r["error"] or "-"]
        for r in _rounds(result)
    ]
    verdict = "passed" if result.get("passed") else "did not pass"
    caption = f"solve() {verdict} after {len(rows)} round(s)"
    return Table(["round", "tests passed", "failing tests", "error"], rows, caption)


def _figure(width=5.5, height=3.0):
    from matplotlib.figure import Figure  # no pyplot: no global state, no GUI backend

    return Figure(figsize=(width, height), dpi=100)


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None}, bbox_inches="tight")
    return buffer.getvalue()


def rounds_chart(run):
    """A solve() result as a bar chart: tests passed (and failed) in each round."""
    result, why = _solve_result(run)
    if result is None:
        return Message(why)
    rows = _rounds(result)
    if not rows:
        return Message("The run has no rounds to chart: history is empty.")
    fig = _figure()
    ax = fig.add_subplot()
    x = [r["round"] for r in rows]
    passed = [r["passed"] for r in rows]
    failed = [r["total"] - r["passed"] for r in rows]
    ax.bar(x, passed, width=0.5, color="#2da44e", label="passed")
    ax.bar(x, failed, width=0.5, bottom=passed, color="#e5534b", label="failed")
    for r in rows:
        if r["error"]:
            ax.annotate("error", (r["round"], 0.1), ha="center", color="#cf222e")
    ax.set_xticks(x)
    ax.set_xlabel("round (attempt)")
    ax.set_ylabel("tests")
    ax.set_title("Tests passed per round")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2, frameon=False)
    ax.set_ylim(0, max([r["total"] for r in rows] + [1]) * 1.1)
    ax.yaxis.get_major_locator().set_params(integer=True)
    summary = "Tests passed per round: " + ", ".join(f"round {r['round']}: {r['passed']}/{r['total']}" for r in rows)
    return Chart(_png(fig), summary)


# --- step 5: visible tests versus held-out tests ----------------------------------------------------------------


def _contrast(runs: dict) -> list[dict]:
    import harness

    rows = []
    for label, run in runs.items():
        result, why = _solve_result(run)
        if result is None:
            rows.append({"label": label, "problem": why})
            continue
        visible = result["history"][-1]["result"] if result["history"] else {"passed": 0, "total": 0}
        held = harness.run(result["code"], harness.HOLDOUT_TESTS)
        rows.append({
            "label": label, "problem": "",
            "visible": (visible.get("passed", 0), visible.get("total", 0)),
            "held out": (held["passed"], held["total"]), "held out failed": held["failed"],
        })
    return rows


def contrast_table(runs: dict):
    """For each labelled solve() result: visible tests passed, held-out tests passed, and which held-out tests fail."""
    rows = []
    for r in _contrast(runs):
        if r["problem"]:
            rows.append([r["label"], "-", "-", r["problem"]])
        else:
            rows.append([r["label"], "{} of {}".format(*r["visible"]), "{} of {}".format(*r["held out"]),
                         ", ".join(r["held out failed"]) or "-"])
    return Table(["model", "visible tests passed", "held-out tests passed", "held-out tests failing"], rows)


def contrast_chart(runs: dict):
    """Bars of the share of visible and held-out tests passed, for each labelled solve() result."""
    rows = [r for r in _contrast(runs) if not r["problem"]]
    if not rows:
        return Message("Nothing to chart: none of the runs has a result.")
    fig = _figure()
    ax = fig.add_subplot()
    share = lambda pair: 100.0 * pair[0] / pair[1] if pair[1] else 0.0  # noqa: E731
    xs = range(len(rows))
    width = 0.38
    visible = [share(r["visible"]) for r in rows]
    held = [share(r["held out"]) for r in rows]
    ax.bar([x - width / 2 for x in xs], visible, width, color="#2da44e", label="visible tests (the agent saw them)")
    ax.bar([x + width / 2 for x in xs], held, width, color="#8250df", label="held-out tests (never shown)")
    for x, v, h in zip(xs, visible, held):
        ax.annotate(f"{v:.0f}%", (x - width / 2, v + 2), ha="center")
        ax.annotate(f"{h:.0f}%", (x + width / 2, h + 2), ha="center")
    ax.set_xticks(list(xs), [r["label"] for r in rows])
    ax.set_ylabel("tests passed (%)")
    ax.set_ylim(0, 115)
    ax.set_title("Green on the visible tests is not the same as solved")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncols=2, frameon=False, fontsize="small")
    summary = "; ".join(
        f"{r['label']}: visible {r['visible'][0]}/{r['visible'][1]}, held-out {r['held out'][0]}/{r['held out'][1]}"
        for r in rows
    )
    return Chart(_png(fig), summary)


if __name__ == "__main__" and sys.argv[1:] == ["--child"]:
    _child_main()
