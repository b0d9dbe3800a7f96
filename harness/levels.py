"""The isolation levels, strongest first: the rank of each, what it lacks, what it means to students and instructors.

The one home of the levels' names and order: settings, the commands' choices, the sandbox's ladder, every report and
the README's table read them here. Imports nothing: the sandbox's processes load this file by path, without the
`harness` package.
"""

from __future__ import annotations

from collections import namedtuple

NAMESPACES, USER, PROCESS = "namespaces", "user", "process"

# A level's fields. name; rank: higher is stronger; lacks: {wall: what code can still do at this level} (the
# sandbox's tests skip an attack on such a wall); student: what the level means for a student (Gradescope, spec2code
# try); instructor: what it means for an instructor (the class page); one_at_a_time: why a class is graded one
# submission at a time at this level ("": several at once). A namedtuple, not typing's NamedTuple: importing typing
# cost some 10 ms of CPU in each agent's process, which loads this file and nothing else that needs typing.
Level = namedtuple("Level", ["name", "rank", "lacks", "student", "instructor", "one_at_a_time"], defaults=[""])


TABLE = {level.name: level for level in (
    Level(NAMESPACES, 2, {},
          "the strongest walls: code runs in namespaces of its own, as a user of its own, with no network and only "
          "the Python runtime in view",
          "the strongest walls: each run in namespaces of its own, as a user of its own, with no network and a "
          "read-only view of the runtime"),
    Level(USER, 1, {
        "read_files": "the solution can read every file any user may read (the held-out tests on disk among them)",
        "shared_folders": "it can write in the machine's shared folders (/tmp, /dev/shm, /run/lock) while it runs, "
                          "sharing their space with every other run (what it leaves there is deleted when the run "
                          "ends)",
        "processes": "it can see the machine's other processes",
    },
          "code runs as a user of its own, never root, with limits and no network, but without namespaces of its own",
          "each run as a user of its own, never root, with limits and no network, but without namespaces (root in a "
          "container without CAP_SYS_ADMIN, as on Gradescope or Docker)",
          # No disk of its own without namespaces (a tmpfs or a quota needs CAP_SYS_ADMIN): one at a time, scrubbed
          # in between, is what keeps a submission that fills the disk from failing a classmate's grade.
          "every submission and its runs write in the machine's shared folders (/tmp, /var/tmp, /dev/shm, "
          "/run/lock), so one that filled them would fail a classmate graded beside it; what each leaves there is "
          "deleted before the next starts"),
    Level(PROCESS, 0, {
        "read_files": "the solution runs as your user: it can read the file system as you can",
        "write_files": "it can write and delete your files",
        "shared_folders": "it can leave files in the machine's shared folders (/tmp, /dev/shm, /run/lock) for later "
                          "runs",
        "signals": "it can signal your other processes",
        "processes": "it can see your other processes",
        "environments": "it can read the environment variables of your other processes (an API key among them)",
        "own_limits": "runs share your user's process limit",
    },
          "code runs in separate processes with limits, without a user of its own",
          # (Nothing is scrubbed between submissions here, so one at a time would not keep them apart.)
          "separate processes with limits, as the grading user: grade untrusted work in a container to get stronger "
          "walls"),
)}
NAMES = tuple(TABLE)  # strongest first
LISTED = f"{', '.join(NAMES[:-1])} or {NAMES[-1]}"  # the names in a sentence: "namespaces, user or process"


def rank(name: str) -> int:
    """How strong level `name` is (higher is stronger); -1 for a name that is no level ('unknown', say)."""
    return TABLE[name].rank if name in TABLE else -1


def weaker(a: str, b: str) -> str:
    """The weaker of two levels; the weakest level if either is no level at all (nothing is known of its walls)."""
    if a not in TABLE or b not in TABLE:
        return PROCESS
    return min(a, b, key=rank)


def at_least(level: str, required: str) -> bool:
    """Whether `level` is as strong as `required` (a name that is no level is never strong enough)."""
    return rank(level) >= rank(required) >= 0
