"""The memory pages a run writes, learned once by the server and copied ahead of time in each spare test process.

A test process is a fork of the warm server, so its pages are shared with the server until it first writes to
each one: a run of the leap-year tests then takes over a thousand page faults, each copying one page, in the middle of
the run. The server learns those pages once, from a throwaway run in a fork (the pages that fork wrote are the ones
its /proc/self/pagemap shows as its own), and each spare copies them (MADV_POPULATE_WRITE, Linux 5.14) while it
waits for its run: a batch of ranges in one system call where the kernel takes that advice for a process's own memory
in a list (process_madvise, Linux 6.13), else one call a range. Best effort: where it fails, runs fault as before.
It imports nothing of the lab.
"""

from __future__ import annotations

import ctypes
import errno
import os

MADV_POPULATE_WRITE = 23
PAGE = os.sysconf("SC_PAGE_SIZE")
_PRESENT, _EXCLUSIVE = 1 << 63, 1 << 56  # pagemap: the page is in memory; it is mapped by this process alone
MAX_RANGES = 4096  # more ranges than this and the list itself costs more than the faults it saves
PROCESS_MADVISE = {"x86_64": 440, "aarch64": 440}.get(os.uname().machine)  # its system call number


class _Range(ctypes.Structure):  # struct iovec
    _fields_ = [("start", ctypes.c_void_p), ("length", ctypes.c_size_t)]


class Plan:
    """The page ranges a run writes, with the list the kernel takes them in, made once (in the server: its forks, the
    spares, share it). Building that list in each spare cost more than the system calls it saves."""

    def __init__(self, ranges=()):
        self.ranges = [(int(start), int(length)) for start, length in ranges]
        self.listed = (_Range * len(self.ranges))(*self.ranges)

    def __len__(self):
        return len(self.ranges)

    def copy_ahead(self, until=lambda: False, batch: int = 32) -> int:
        """Write-fault the ranges in the kernel, `batch` ranges at a time, until `until()` says the run has come (the
        rest then fault as the run writes them, as they would have anyway); the number of pages done.

        A batch is one process_madvise call; where the kernel refuses it (before Linux 6.13), one madvise a range,
        as is a batch it stopped short in (a range this process no longer maps)."""
        try:
            me = os.pidfd_open(os.getpid()) if PROCESS_MADVISE is not None else None
        except OSError:
            me = None
        try:
            return self._copy(me, until, batch)
        finally:
            if me is not None:
                os.close(me)

    def _copy(self, me, until, batch) -> int:
        syscall = ctypes.CDLL(None, use_errno=True).syscall
        syscall.restype = ctypes.c_long
        done = 0
        for first in range(0, len(self.ranges), batch):
            if until():
                break
            ranges = self.ranges[first:first + batch]
            if me is not None:
                wanted = sum(length for _, length in ranges)
                listed = ctypes.byref(self.listed, first * ctypes.sizeof(_Range))
                advised = syscall(ctypes.c_long(PROCESS_MADVISE), ctypes.c_int(me), listed,
                                  ctypes.c_size_t(len(ranges)), ctypes.c_int(MADV_POPULATE_WRITE), ctypes.c_uint(0))
                if advised == wanted:
                    done += advised // PAGE
                    continue
                if advised < 0 and ctypes.get_errno() in (errno.EINVAL, errno.ENOSYS, errno.EPERM):
                    me = None  # this kernel takes the advice one range at a time only (the pidfd is closed after)
            copied = _one_range_a_call(ranges)
            if copied < 0:
                break
            done += copied
        return done


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


def _one_range_a_call(ranges: list[tuple[int, int]]) -> int:
    """Write-fault `ranges` with one madvise call each; the number of pages done, -1 where the kernel has no such
    advice at all."""
    madvise = ctypes.CDLL(None, use_errno=True).madvise
    madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    done = 0
    for start, length in ranges:
        if madvise(start, length, MADV_POPULATE_WRITE) == 0:
            done += length // PAGE
        elif not done and ctypes.get_errno() == errno.EINVAL:  # at once: a kernel without it (before 5.14)
            return -1
    return done
