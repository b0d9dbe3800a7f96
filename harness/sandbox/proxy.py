"""The test process's view of the solution: stand-in functions whose calls cross the wall as plain data."""

from __future__ import annotations

import builtins
import os
import select
import signal
import time

import cores
from text import cut
from wire import FrameReader, FrameTooLarge, Unsendable, decode, encode, send_frame

MAX_SOLUTION_OUTPUT = 2000  # characters of the solution's own printing kept

class SolutionError(Exception):
    """The solution raised something a test cannot catch as itself (SystemExit, KeyboardInterrupt...)."""


class ReturnRefused(Exception):
    """What the solution returned cannot come back across the wall (not plain data, or too large). It is not one of
    the solution's exceptions, so no test can take it for the ValueError or TypeError it expects."""


class SolutionDied(Exception):
    """The solution's process ended while a test was calling it."""


class Channel:
    """T's end of the wire to S: calls go out as plain data, answers come back as plain data."""

    def __init__(self, sock, out_fd, keeper_pid):
        self.sock, self.out_fd, self.keeper_pid = sock, out_fd, keeper_pid
        self.calls, self.pinned = 0, None  # calls made; the core both sides share from the MANY_CALLS-th on
        self.reaped = False  # whether keeper_pid was waited for: then it may name another process by now
        self.printed, self.printed_extra = [], 0
        self.dead = None  # why the solution process is gone, once it is
        self.memory = False

    def drain(self, wait=0.0):
        """Read what the solution printed, keeping only the start of it."""
        while self.out_fd is not None:
            ready, _, _ = select.select([self.out_fd], [], [], wait)
            if not ready:
                return
            chunk = os.read(self.out_fd, 1 << 16)
            if not chunk:
                os.close(self.out_fd)
                self.out_fd = None
                return
            kept = sum(len(c) for c in self.printed)
            room = max(0, MAX_SOLUTION_OUTPUT - kept)
            self.printed.append(chunk[:room].decode("utf-8", "replace"))
            self.printed_extra += max(0, len(chunk) - room)
            wait = 0.0

    def end(self):
        """Kill the solution's process (or its keeper), of which nothing more is asked: it then ends beside this one.
        Left to the end of this one, the first of their PID namespace, it ended only after it (1-2 ms a run)."""
        if self.reaped:
            return
        try:
            os.kill(self.keeper_pid, signal.SIGKILL)
        except OSError:  # another user's (below the namespaces level): it ends with the run
            pass

    def receive(self, until=None):
        """The next message from the solution; TimeoutError once the monotonic clock passes `until`."""
        reader = FrameReader()
        while True:
            fds = [self.sock] + ([self.out_fd] if self.out_fd is not None else [])
            wait = None if until is None else until - time.monotonic()
            if wait is not None and wait <= 0:
                raise TimeoutError
            ready, _, _ = select.select(fds, [], [], wait)
            if self.out_fd is not None and self.out_fd in ready:
                self.drain()
            if self.sock in ready:
                chunk = self.sock.recv(1 << 16)
                if not chunk:
                    raise EOFError
                try:
                    messages = reader.feed(chunk)
                except FrameTooLarge:
                    raise ValueError("sent a reply larger than the sandbox accepts") from None
                except ValueError:
                    raise ValueError("sent a malformed message") from None
                if messages:
                    return messages[0]

    def story(self, error):
        """How the solution's side failed, for an error in sending to it or receiving from it: what it sent, for a
        malformed message (its process is alive: waiting for it to end would only wait out the timeout), else how
        its process ended."""
        return str(error) if isinstance(error, ValueError) else self.exit_story()

    def exit_story(self):
        """Wait briefly for the solution's process (or its keeper, which exits as it did) and say how it ended."""
        try:
            _, status = os.waitpid(self.keeper_pid, 0)
        except ChildProcessError:
            return "ended"
        finally:
            self.reaped = True
        code = os.waitstatus_to_exitcode(status)
        if code < 0 or code >= 128:  # killed by a signal: -N from the process itself, 128 + N from its keeper
            sig = -code if code < 0 else code - 128
            name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
            if sig == signal.SIGXCPU:
                return "used up its CPU time"
            return f"was killed by {name}"
        return f"exited with status {code}"

    def call(self, name, args, kwargs):
        __tracebackhide__ = True  # a failing test's traceback ends at the test's own line, not in the lab's wall
        if self.dead:
            raise SolutionDied(f"the solution is not running any more: its process {self.dead}")
        try:
            request = {"call": name, "args": encode(list(args)), "kwargs": encode(dict(kwargs))}
        except Unsendable as e:
            raise TypeError(f"cannot pass this argument to {name}(): {e}") from None
        self.calls += 1
        if self.calls == cores.MANY_CALLS:  # from here on, both sides on one core (see cores.py)
            self.pinned = request["core"] = cores.pin_here()
        try:
            send_frame(self.sock, request)
            reply = self.receive()
        except (EOFError, OSError, ValueError) as e:
            story = self.story(e)
            self.dead = story
            self.sock.close()
            raise SolutionDied(f"{name}() did not return: the solution's process {story}") from None
        if not isinstance(reply, dict):
            raise TypeError(f"{name}() sent back something that is not a reply")
        if "value" in reply:
            try:
                return decode(reply["value"])
            except ValueError:  # not what encode makes: the wire builds nothing else
                raise ReturnRefused(f"{name}() returned something that is not plain data") from None
        if "refused" in reply:
            why = cut(str(reply["refused"]), 500)
            raise ReturnRefused(f"{name}() returned a value the sandbox cannot carry back: {why}")
        return self.raise_from(name, reply.get("raise") or {})

    def raise_from(self, name, info):
        __tracebackhide__ = True
        if not isinstance(info, dict):
            info = {}
        mro = [n for n in info.get("mro", []) if isinstance(n, str)] if isinstance(info.get("mro"), list) else []
        mro = mro or ["Exception"]
        message = cut(info.get("message", ""), 2000)
        if mro[0] == "MemoryError":
            self.memory = True
        try:
            args = tuple(decode(info["args"])) if "args" in info else None
        except ValueError:
            args = None
        exc = rebuild(mro, args, message)
        if exc is None:
            raise SolutionError(f"{name}() raised {mro[0]}: {message}")
        where = info.get("where")
        if isinstance(where, str) and where and hasattr(exc, "add_note"):
            exc.add_note(f"raised in the solution{where}")
        raise exc


def rebuild(mro, args, message):
    """The solution's exception, made again here: its own class name over the nearest built-in base class that
    tests can catch; built with its arguments when they crossed the wall and give the same message, else with the
    message alone (walking up the bases until one takes it). None if no base is an Exception."""
    bases = [getattr(builtins, n, None) for n in mro]
    bases = [b for b in bases if isinstance(b, type) and issubclass(b, Exception)]
    for base in bases:
        cls = base if base.__name__ == mro[0] else type(mro[0], (base,), {"__module__": "solution"})
        attempts = ([args] if args is not None and base is bases[0] else []) + [(message,)]
        for arguments in attempts:
            try:
                exc = cls(*arguments)
            except Exception:  # noqa: BLE001 - this base does not take these arguments: try the next way
                continue
            if arguments is args and _shown(exc) != message:
                continue
            return exc
    return None


def _shown(exc):
    try:
        return str(exc)
    except Exception:  # noqa: BLE001
        return None


def make_proxy(channel, name):
    def proxy(*args, **kwargs):
        __tracebackhide__ = True
        return channel.call(name, args, kwargs)

    proxy.__name__ = proxy.__qualname__ = name
    proxy.__module__ = "solution"
    return proxy
