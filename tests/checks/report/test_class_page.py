"""checks/report/class_page.py and class_stats.py: the class report, from a small class graded for real, read as
numbers, as HTML that needs nothing from outside, and (slow) in a real browser, screenshotted."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from checks.grading import grade_all
from checks.report import class_stats
from checks.report.class_page import to_html
from checks.submissions import Submission
from checks.submissions.similarity import with_similar
from tests.harness.sandbox import identities
from tests.helpers import contained_corpus, self_contained
from tests.paths import AGENTS as FIXTURES
from tests.paths import REFERENCE_AGENT, ROOT
from tests.shipped import stubs_file

AGENTS = contained_corpus()  # the fixture agents, as the grader's child can run them

CLASS = {  # submission -> agent file (None: nothing handed in)
    "ada": REFERENCE_AGENT,
    "bo": REFERENCE_AGENT,
    "cy": "stubs",  # the stubs as shipped, written for the test
    "di": AGENTS / "wrong" / "unstripped_bare_reply.py",
    "ed": AGENTS / "wrong" / "keeps_python_tag.py",
    "flo": AGENTS / "forging" / "exits_at_import.py",
    "gus": AGENTS / "forging" / "os_exit_at_import.py",
    "hal": AGENTS / "special" / "hangs_in_write_tests.py",
    "ivy": AGENTS / "wrong" / "exits_in_write_solution.py",
    "jo <script>alert(1)</script>": None,
}
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    stubs = stubs_file(tmp_path_factory.mktemp("cy"))
    submissions = [Submission(name, stubs if path == "stubs" else path,
                              "" if path else "no agent.py found: the submission is empty")
                   for name, path in CLASS.items()]
    return grade_all(with_similar(submissions, template=stubs.read_text()), jobs=2)


@pytest.fixture(scope="module")
def page(graded, tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(to_html(graded), encoding="utf-8")
    return path


@pytest.mark.slow
def test_pass_rates_and_the_score_distribution(graded):
    rows = dict(class_stats.step_statuses(graded))
    assert rows["step 1 extract_code"] == [4, 5, 0, 1]  # passed, failed, blocked, not started
    assert rows["step 4 solve"][2] == 4  # blocked: di and ed behind step 1, hal behind step 2, ivy behind step 3
    bins = dict(class_stats.score_bins(graded))
    assert list(bins) == ["0", "1", "2", "3", "4", "5"] and bins["5"] == 2 and sum(bins.values()) == len(CLASS)


@pytest.mark.slow
def test_timeouts_crashes_and_forgeries_are_named(graded):
    found = {(i.submission, i.kind) for i in class_stats.incidents(graded)}
    assert found == {("flo", "tried to forge"), ("gus", "tried to forge"), ("hal", "timed out"),
                     ("ivy", "crashed")}


@pytest.mark.slow
def test_the_commonest_failing_checks_come_first_with_their_messages(graded):
    top = class_stats.failing_checks(graded)
    assert top[0].students >= top[-1].students
    counted = {(row.step, row.description): row.students for row in top}
    assert all(count >= 1 for count in counted.values())
    assert not any(row.description == "agent.py loads" for row in top)  # a file that did not load is listed apart
    assert not any(m.startswith(("not checked:", "follows from:")) for row in top for m, _ in row.messages)
    assert all(row.messages and row.messages[0][1] >= 1 for row in top)


@pytest.mark.slow
def test_pairs_alike_are_listed_with_a_figure_and_their_scores_untouched(graded, page):
    pairs = class_stats.alike(graded)
    print("alike:", pairs)
    assert pairs[0] == ("ada", "bo", 1.0)  # the same agent handed in twice
    assert not any("cy" in pair[:2] for pair in pairs)  # the stubs, untouched, are no one's own code
    scores = {one["submission"]: one["score"] for one in graded}
    assert scores["ada"] == scores["bo"] == 5
    html = page.read_text(encoding="utf-8")
    section = html[html.index("<h2>Similar submissions</h2>"):html.index("<h2>Every submission</h2>")]
    assert "<td>ada</td><td>bo</td><td class=\"num\">100%</td>" in section


@pytest.mark.slow
def test_the_page_is_self_contained_and_escapes_what_students_wrote(page):
    html = page.read_text(encoding="utf-8")
    assert "<script" not in html.replace("&lt;script&gt;", "")  # the student's name is shown, not run
    assert "jo &lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert not re.search(r'(src|href)="(https?:)?//', html) and "@import" not in html  # nothing from the network
    assert html.count("<svg") == 2 and "Isolation in force" in html
    for heading in ("Pass rate per step", "Score distribution", "Checks most students fail",
                    "Timed out, crashed or tried to forge", "Similar submissions", "Every submission"):
        assert f"<h2>{heading}</h2>" in html


@pytest.mark.slow
def test_the_page_in_a_real_browser(page):
    from tests.test_browser import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).is_file():
        pytest.skip("chromium is not installed: install it with `apt-get install chromium` (Debian/Ubuntu)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="install the dev extra: pip install -e '.[dev]'")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            view = browser.new_page(viewport={"width": 1200, "height": 1400})
            requests = []
            view.on("request", lambda request: requests.append(request.url))
            view.goto(page.as_uri())
            bars = view.locator("svg").first.locator("rect[fill='#1a7f37']:has(title)")  # each bar's passed part
            assert bars.count() == 5 and view.locator("svg").first.bounding_box()["width"] > 600
            assert view.get_by_text("tried to forge", exact=True).count() == 2
            assert view.locator("table").last.locator("tr").count() == len(CLASS) + 1
            ARTIFACTS.mkdir(exist_ok=True)
            view.screenshot(path=str(ARTIFACTS / "class-report.png"), full_page=True)
            assert requests == [page.as_uri()]  # the page fetched nothing else
        finally:
            browser.close()
    assert (ARTIFACTS / "class-report.png").stat().st_size > 10_000
    shutil.copy(ARTIFACTS / "class-report.png", page.with_suffix(".png"))


def test_a_process_left_running_after_its_grading_is_listed_as_an_attempt():
    """What the walls stop after an agent (a daemon killed when its child is) fails no check: it is named anyway."""
    from tests.checks.report.test_formats import scored

    one = scored("mo")
    one["stopped"] = ["left a process running after its own had ended (a daemon): the grader killed it"]
    (found,) = class_stats.incidents([one, scored("al")])
    assert (found.submission, found.kind, found.where) == ("mo", "tried to forge", "after its calls")
    assert found.message.startswith("left a process running after its own had ended")
    assert "left a process running" in to_html([one])


@pytest.mark.machine  # its attackers write in the machine's /tmp at the user level; solutions/ changes its mode
@pytest.mark.slow
@pytest.mark.skipif(identities.need_root() is not None or identities.python() is None,
                    reason=str(identities.need_root() or "no Python every user may run"))
def test_under_dockers_default_walls_the_forgers_and_attackers_are_listed(tmp_path):
    """At the `user` level (root with Docker's default walls, as on Gradescope) the walls stop an attack without a
    trace in any check: a daemon that would rewrite results.json is killed with its child's user. The class report
    lists it all the same, beside the agents that end their process early (which every level shows)."""
    folder = tmp_path / "class"
    for kind, name in (("attacking", "rewrites_results"), ("attacking", "daemon"), ("forging", "exits_at_import")):
        (folder / name).mkdir(parents=True)
        self_contained(FIXTURES / kind / f"{name}.py", folder / name).rename(folder / name / "agent.py")
    (folder / "ada").mkdir()
    shutil.copy(REFERENCE_AGENT, folder / "ada" / "agent.py")
    folder.chmod(0o700)
    grades = tmp_path / "grades.json"
    command = [identities.python(), "-m", "lab.commands", "grade", str(folder), "--format", "json", "--out",
               str(grades), "--jobs", "2"]
    with identities.reference_made(0o700):
        done = subprocess.run(identities.as_docker_default(command), cwd=identities.home(), capture_output=True,
                              text=True, timeout=600, env={"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"})
    assert done.returncode == 0 and "isolation: user" in done.stderr, done.stderr
    graded = json.loads(grades.read_text(encoding="utf-8"))
    found = {(i.submission, i.kind) for i in class_stats.incidents(graded)}
    # Both daemons are out of their child's process group before its import returns, so both are caught alive.
    assert found == {(name, "tried to forge") for name in ("rewrites_results", "daemon", "exits_at_import")}, found
    assert {one["submission"]: one["score"] for one in graded}["ada"] == 5  # an honest agent is named for nothing
