"""The lab server's kernel manager: a session keeps the kernels of the notebooks used last and stops the others.

Each notebook has a kernel of its own, and each kernel its own sandbox: about 125 MB together once a notebook has
run. A student who works through the seven notebooks in one sitting would hold seven of them, more than a small
JupyterHub pod can give, though only the notebook in use needs one. So when a kernel starts, the kernels beyond
the newest MOST_KERNELS are stopped, least recently used first, as the idle culler would stop them after ten
minutes. A kernel running a cell is never stopped. Every check and try cell stands on its own, so coming back to a
stopped notebook costs a kernel start of a few seconds: JupyterLab starts one when its next cell runs.
"""

from __future__ import annotations

from datetime import datetime, timezone

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Integer

MOST_KERNELS = 2  # the notebook in use and the one before it (say, the start notebook, or the previous step)
NEVER = datetime.min.replace(tzinfo=timezone.utc)  # the last activity of a kernel that has not said (UTC, as theirs)


def least_recently_used(kernels: dict[str, tuple[datetime, str]], keep: str, most: int) -> list[str]:
    """The kernels to stop so that at most `most` remain, `keep` among them: the least recently used first.

    `kernels` maps a kernel's id to (its last activity, its execution state). A busy kernel is never chosen, so
    when the others are all busy more than `most` may remain.
    """
    stoppable = sorted((kernel for kernel, (_, state) in kernels.items() if kernel != keep and state != "busy"),
                       key=lambda kernel: kernels[kernel][0])
    return stoppable[:max(0, len(kernels) - most)]


class RecentKernels(AsyncMappingKernelManager):
    """JupyterLab's kernel manager, keeping at most `most_kernels` kernels once a new one has started."""

    most_kernels = Integer(MOST_KERNELS, config=True,
                           help="How many kernels may run at once; starting one more stops the least recently used.")

    async def start_kernel(self, *, kernel_id: str | None = None, path: str | None = None, **kwargs) -> str:
        new = kernel_id is None or kernel_id not in self
        started = await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)
        if new:
            await self.stop_least_recently_used(keep=started)
        return started

    async def stop_least_recently_used(self, keep: str) -> None:
        kernels = {}
        for kernel_id in self.list_kernel_ids():
            kernel = self.get_kernel(kernel_id)
            kernels[kernel_id] = (getattr(kernel, "last_activity", NEVER), getattr(kernel, "execution_state", ""))
        for kernel_id in least_recently_used(kernels, keep, self.most_kernels):
            if kernel_id in self:  # another start may have stopped it meanwhile
                self.log.info("Stopping kernel %s, the least recently used: the lab keeps %d kernels at most",
                              kernel_id, self.most_kernels)
                await self.shutdown_kernel(kernel_id)
