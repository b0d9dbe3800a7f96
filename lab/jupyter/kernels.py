"""The lab server's kernel manager: a session keeps the kernels of the notebooks used last and stops the others.

Each notebook has a kernel of its own, and each kernel its own sandbox: about 125 MB together once a notebook has
run. A student who works through the seven notebooks in one sitting would hold seven of them, more than a small
JupyterHub pod can give, though only the notebook in use needs one. So when a cell runs, the kernels beyond the
MOST_KERNELS used last are stopped, least recently used first, as the idle culler would stop them after ten
minutes. A kernel running a cell is never stopped. Every check and try cell stands on its own, so coming back to a
stopped notebook costs a kernel start of a few seconds: JupyterLab starts one when its next cell runs.

Why a cell run, and not a kernel start: reloading the page (or a first load of a saved layout) starts a kernel for
every open notebook at once, and nothing then tells the server which one the student is looking at; the next cell
run does. Stopping kernels at start stopped ones whose sessions were still being made (an error dialog each) and,
as often, the kernel of the notebook on screen. A kernel started less than NEW_FOR seconds ago and not yet used is
neither stopped nor counted; the lab looks again once it counts.
"""

from __future__ import annotations

import asyncio
import math
import time
from datetime import datetime, timezone

from jupyter_client.session import Session
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Float, Integer

MOST_KERNELS = 2  # the notebook in use and the one before it (say, the start notebook, or the previous step)
NEW_FOR = 10.0  # seconds a kernel just started is left alone: its session is being made, its notebook connecting
NEVER = datetime.min.replace(tzinfo=timezone.utc)  # the last activity of a kernel that has not said (UTC, as theirs)


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def least_recently_used(kernels: dict[str, tuple[object, str]], most: int,
                        new: frozenset[str] = frozenset()) -> list[str]:
    """The kernels to stop so that at most `most` remain, the least recently used first.

    `kernels` maps a kernel's id to (its last use, anything that sorts; its execution state). A busy kernel is never
    chosen, so when the others are all busy more than `most` may remain. The `new` ones are neither stopped nor
    counted: whether they are used is not known yet.
    """
    ranked = sorted((kernel for kernel in kernels if kernel not in new), key=lambda kernel: kernels[kernel][0],
                    reverse=True)
    return [kernel for kernel in reversed(ranked[most:]) if kernels[kernel][1] != "busy"]


def trait(kernel, name: str, default):
    """A kernel's trait, or `default`: the server sets last_activity only once a start is done, and reading it unset
    raises TraitError, not the AttributeError getattr would catch."""
    try:
        value = getattr(kernel, name)
    except Exception:  # noqa: BLE001 - TraitError, AttributeError: either way the kernel has not said
        return default
    return default if value is None else value


class RecentKernels(AsyncMappingKernelManager):
    """JupyterLab's kernel manager, keeping at most `most_kernels` kernels once a cell has run."""

    most_kernels = Integer(MOST_KERNELS, config=True,
                           help="How many kernels may run at once; a cell run stops the least recently used others.")
    new_for = Float(NEW_FOR, config=True,
                    help="Seconds a kernel just started and not yet used is neither stopped nor counted.")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._started: dict[str, float] = {}  # kernel id -> when its start was done (time.monotonic; inf: not yet)
        self._ran: dict[str, datetime] = {}  # kernel id -> when a cell last ran in it
        self._watching: dict[str, object] = {}  # kernel id -> the IOPub stream that tells a cell run
        self._trimming = asyncio.Lock()
        self._looks: set[asyncio.Task] = set()  # the looks under way (the loop holds only weak references to them)
        self._look_again: asyncio.TimerHandle | None = None

    def pre_start_kernel(self, kernel_name, kwargs):
        kernel, kernel_name, kernel_id = super().pre_start_kernel(kernel_name, kwargs)
        kernel.last_activity, kernel.execution_state = utcnow(), "starting"  # it is listed before its start is done
        self._started[kernel_id] = math.inf
        return kernel, kernel_name, kernel_id

    async def start_kernel(self, *, kernel_id: str | None = None, path: str | None = None, **kwargs) -> str:
        started = await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)
        if self._started.get(started) == math.inf:  # a new kernel, not one reused
            self._started[started] = time.monotonic()
        return started

    def start_watching_activity(self, kernel_id: str) -> None:
        super().start_watching_activity(kernel_id)
        self.stop_watching_runs(kernel_id)
        kernel = self.get_kernel(kernel_id)
        session = Session(config=kernel.session.config, key=kernel.session.key)

        def on_iopub(msg_list):
            _, parts = session.feed_identities(msg_list)
            if session.deserialize(parts, content=False)["header"]["msg_type"] == "execute_input":  # a cell runs
                self._ran[kernel_id] = utcnow()
                self.look_again(0)

        stream = kernel.connect_iopub()
        stream.on_recv(on_iopub)
        self._watching[kernel_id] = stream

    def stop_watching_activity(self, kernel_id: str) -> None:
        super().stop_watching_activity(kernel_id)
        self.stop_watching_runs(kernel_id)

    def stop_watching_runs(self, kernel_id: str) -> None:
        stream = self._watching.pop(kernel_id, None)
        if stream is not None and not stream.closed():
            stream.close()

    async def stop_least_recently_used(self) -> None:
        """Stop the kernels beyond `most_kernels`, least recently used first; look again once the new ones count.

        A kernel's last use is when a cell last ran in it, then (for those where none has) its last activity.
        """
        async with self._trimming:
            running = self.list_kernel_ids()
            for gone in [k for k, at in self._started.items() if k not in running and at != math.inf]:
                del self._started[gone]  # stopped (a start under way is not listed yet, nor forgotten)
                self._ran.pop(gone, None)
            now = time.monotonic()
            new = frozenset(k for k in running if k not in self._ran
                            and now - self._started.get(k, math.inf) < self.new_for)
            kernels = {}
            for kernel_id in running:
                kernel = self.get_kernel(kernel_id)
                used = (self._ran.get(kernel_id, NEVER), trait(kernel, "last_activity", NEVER))
                kernels[kernel_id] = (used, trait(kernel, "execution_state", ""))
            stop = least_recently_used(kernels, self.most_kernels, new)
            for kernel_id in stop:
                self.log.info("Stopping kernel %s, the least recently used: the lab keeps %d kernels at most",
                              kernel_id, self.most_kernels)
            done = await asyncio.gather(*(self.shutdown_kernel(k) for k in stop), return_exceptions=True)
            for kernel_id, failed in zip(stop, done):
                if isinstance(failed, Exception) and kernel_id in self:  # not one stopped meanwhile by its notebook
                    self.log.warning("Could not stop kernel %s: %s", kernel_id, failed)
            if new and len(running) - len(stop) > self.most_kernels:  # look again once the new ones count
                newest = max(self._started.get(k, math.inf) for k in new)
                self.look_again(min(newest - now, 0) + self.new_for + 0.5)

    def look_again(self, delay: float) -> None:
        """Stop the least recently used kernels in `delay` seconds (at once for 0); a later call replaces a wait."""
        if self._look_again is not None:
            self._look_again.cancel()
        self._look_again = asyncio.get_running_loop().call_later(max(0.0, delay), self._look)

    def _look(self) -> None:
        task = asyncio.ensure_future(self.stop_least_recently_used())
        self._looks.add(task)
        task.add_done_callback(self._looks.discard)
