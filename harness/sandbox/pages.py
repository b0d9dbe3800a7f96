"""The memory pages a run writes, learned once by the server and copied ahead of time in each spare test process.

A test process is a fork of the warm server, so its pages are shared with the server until it first writes to
each one: a run of the leap-year tests then takes over a thousand page faults, each copying one page, in the middle of
the run. The server learns those pages once, from a throwaway run in a fork (the pages that fork wrote are the ones
its /proc/self/pagemap shows as its own), and each spare copies them in a few system calls
(madvise MADV_POPULATE_WRITE, Linux 5.14) while it waits for its run. Best effort: where it fails, runs fault
as before. It imports nothing of the lab.
"""

from __future__ import annotations

import ctypes
import os

MADV_POPULATE_WRITE = 23
PAGE = os.sysconf("SC_PAGE_SIZE")
_PRESENT, _EXCLUSIVE = 1 << 63, 1 << 56  # pagemap: the page is in memory; it is mapped by this process alone
MAX_RANGES = 4096  # more ranges than this and the list itself costs more than the faults it saves


def writable_mappings() -> list[tuple[int, int]]:
    """(start, end) of this process's private writable mappings: the only ones a fork copies on write."""
    found = []
    with open("/proc/self/maps") as f:
        for line in f:
            fields = line.split()
            span, perms = fields[0], fields[1]
            if perms.startswith("rw") and perms[3] == "p" and not line.rstrip().endswith(("[vvar]", "[vsyscall]")):
                start, end = (int(x, 16) for x in span.split("-"))
                found.append((start, end))
    return found


def owned(mappings: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (start, length) ranges of `mappings` whose pages this process alone maps: those it wrote since its fork."""
    ranges: list[tuple[int, int]] = []
    with open("/proc/self/pagemap", "rb") as pagemap:
        for start, end in mappings:
            pagemap.seek(start // PAGE * 8)
            data = pagemap.read((end - start) // PAGE * 8)
            entries = memoryview(data).cast("Q")
            for i, entry in enumerate(entries):
                if entry & _PRESENT and entry & _EXCLUSIVE:
                    address = start + i * PAGE
                    if ranges and ranges[-1][0] + ranges[-1][1] == address:
                        ranges[-1] = (ranges[-1][0], ranges[-1][1] + PAGE)
                    else:
                        ranges.append((address, PAGE))
    return ranges if len(ranges) <= MAX_RANGES else []


def copy_ahead(ranges: list[tuple[int, int]], until=lambda: False, batch: int = 32) -> int:
    """Write-fault `ranges` in the kernel, `batch` ranges at a time, until `until()` says the run has come (the rest
    then fault as the run writes them, as they would have anyway); the number of pages done."""
    madvise = ctypes.CDLL(None, use_errno=True).madvise
    madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    done = 0
    for i, (start, length) in enumerate(ranges):
        if i % batch == 0 and until():
            break
        if madvise(start, length, MADV_POPULATE_WRITE) == 0:
            done += length // PAGE
        elif not done and ctypes.get_errno() == 22:  # EINVAL at once: a kernel without it (before 5.14)
            break
    return done
