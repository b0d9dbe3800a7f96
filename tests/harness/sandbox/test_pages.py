"""pages: the pages a fork wrote are found as its own, and copied ahead they no longer fault when written."""

import ctypes
import mmap
import os
import resource

import pytest

from harness.sandbox import pages

PAGES = 256


def in_a_fork(work) -> str:
    """What `work()` returns (a str) when called in a fork of this process."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            os.write(write, str(work()).encode())
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 1 << 20).decode()
    os.close(read)
    os.waitpid(pid, 0)
    return answer


def shared_buffer() -> tuple[bytearray, int, int]:
    """A buffer whose pages this process has written (so a fork shares them), the address of its first whole page
    and that page's offset in the buffer."""
    buffer = bytearray(b"x" * ((PAGES + 2) * pages.PAGE))
    address = ctypes.addressof((ctypes.c_char * len(buffer)).from_buffer(buffer))
    first = -(-address // pages.PAGE) * pages.PAGE
    return buffer, first, first - address


def test_a_fork_owns_exactly_the_pages_it_wrote():
    buffer, first, start = shared_buffer()

    def work():
        mappings = pages.writable_mappings()
        for i in range(0, PAGES, 2):  # every other page
            buffer[start + i * pages.PAGE] = 2
        owned = pages.owned(mappings)
        inside = {a for s, n in owned for a in range(s, s + n, pages.PAGE) if first <= a < first + PAGES * pages.PAGE}
        return ",".join(str((a - first) // pages.PAGE) for a in sorted(inside))

    assert in_a_fork(work) == ",".join(str(i) for i in range(0, PAGES, 2))


@pytest.mark.parametrize("ahead", [None, "one range a call", "a plan"])
def test_pages_copied_ahead_are_written_without_a_fault(monkeypatch, ahead):
    if ahead == "one range a call":
        monkeypatch.setattr(pages, "PROCESS_MADVISE", None)  # as on a kernel that takes no list of ranges
    buffer, first, start = shared_buffer()
    ranges = [(first + i * pages.PAGE, pages.PAGE) for i in range(0, PAGES, 2)]  # separate ranges: batches of them
    ranges += [(first + i * pages.PAGE, pages.PAGE) for i in range(1, PAGES, 2)]
    plan = pages.Plan(ranges)  # made before the fork, as the server makes it

    def work():
        copied = plan.copy_ahead() if ahead else PAGES
        if copied != PAGES:
            return f"{PAGES - copied} pages were not copied"
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for i in range(PAGES):
            buffer[start + i * pages.PAGE] = 3
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

    faults = in_a_fork(work)
    assert faults.isdigit(), faults
    # Written after being copied ahead, almost none fault; written cold, each page does (one fault per page).
    assert int(faults) < PAGES // 8 if ahead else int(faults) >= PAGES * 3 // 4


@pytest.mark.parametrize("way", ["one range a call", "a plan"])
def test_copying_ahead_stops_when_the_run_comes(monkeypatch, way):
    if way == "one range a call":
        monkeypatch.setattr(pages, "PROCESS_MADVISE", None)
    buffer, first, _ = shared_buffer()
    ranges = [(first + i * pages.PAGE, pages.PAGE) for i in range(0, PAGES, 2)]  # separate ranges, one page each
    copy = pages.Plan(ranges).copy_ahead
    assert in_a_fork(lambda: copy(until=lambda: True)) == "0"
    calls = []
    done = in_a_fork(lambda: copy(until=lambda: calls.append(1) or len(calls) > 2, batch=4))
    assert done == "8"  # two batches of four, then the run came


def test_a_plan_copies_the_rest_when_a_range_is_no_longer_mapped():
    # A spare may have given memory back since the plan was made: the batch holding that range is copied a range at
    # a time, and every other page still is.
    buffer, first, start = shared_buffer()
    gone = mmap.mmap(-1, pages.PAGE)
    hole = ctypes.addressof(ctypes.c_char.from_buffer(gone))
    gone.close()  # unmapped: the kernel cannot advise on it
    ranges = [(first + i * pages.PAGE, pages.PAGE) for i in range(0, PAGES, 2)]
    plan = pages.Plan(ranges[:5] + [(hole, pages.PAGE)] + ranges[5:])
    assert in_a_fork(plan.copy_ahead) == str(len(ranges))


def test_a_plan_says_how_many_ranges_it_holds():
    assert len(pages.Plan()) == 0 and len(pages.Plan([(4096, 4096), (16384, 8192)])) == 2


@pytest.mark.parametrize("number", [None, 1023])  # no such call known here; a number this kernel has no call for
def test_a_plan_copies_one_range_a_call_where_the_kernel_takes_no_list(monkeypatch, number):
    buffer, first, start = shared_buffer()
    ranges = [(first + i * pages.PAGE, pages.PAGE) for i in range(0, PAGES, 2)]
    monkeypatch.setattr(pages, "PROCESS_MADVISE", number)
    assert in_a_fork(pages.Plan(ranges).copy_ahead) == str(len(ranges))
