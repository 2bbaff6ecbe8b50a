"""Lighthouse on the demo's table and recap pages (issues 29, 40): fails below the bar.

    .venv/bin/python .ci/lighthouse.py

Starts the demo (`manage.py demo 127.0.0.1:PORT`, a fresh SQLite file in a temporary
folder), starts a session and rolls a little on both campaigns so the logs (and the
session's recap) are not empty, then audits the table page and the session recap of
both demo campaigns (Momenta, 2d20) as the GM and as a player, desktop and mobile:
16 runs of the pinned Lighthouse in .ci/lighthouse/, all in one Node process
(lighthouse/audit-worker.mjs; npm ci there first if
it is not installed) against headless Debian chromium. Each person logs in through a
real browser profile (a Playwright persistent context) and Lighthouse drives that same
chromium over its debugging port: the session cookie reaches the page and its live
socket alike (extra headers would not reach the socket, which would then answer 403).

Prints each run's scores; exits 1 if any run scores below MIN_SCORE in performance,
accessibility or best practices, or shifts its layout more than MAX_CLS, naming the
audits that cost points.
"""

from __future__ import annotations

import argparse
import json
import secrets
import select
import subprocess
import sys
import tempfile
from contextlib import closing
from functools import partial
from pathlib import Path
from subprocess import PIPE

ROOT = Path(__file__).resolve().parents[1]
# Run as a script from any folder: import this checkout's tables, not another one.
sys.path.insert(0, str(ROOT))

from tables.devtools import browser as devtools_browser  # noqa: E402
from tables.devtools.server import ServerProcess, free_port, server_env  # noqa: E402

LIGHTHOUSE_DIR = ROOT / ".ci" / "lighthouse"
LIGHTHOUSE = LIGHTHOUSE_DIR / "node_modules" / ".bin" / "lighthouse"
WORKER = LIGHTHOUSE_DIR / "audit-worker.mjs"
RUN_TIMEOUT_S = 180
PASSWORD = "momenta-demo"  # tables/management/commands/seed_demo.py
PEOPLE = {"gm": "GM", "alice": "player"}
CAMPAIGNS = {"momenta": "Momenta demo", "2d20": "2d20 demo"}
PAGES = {"table": "table/", "recap": "recap/"}  # each campaign's pages audited
FORM_FACTORS = ("desktop", "mobile")
CATEGORIES = ("performance", "accessibility", "best-practices")
MIN_SCORE = 98
MAX_CLS = 0.05
TIMEOUT_MS = 20_000
TRIES = 3
RUNS_WHEN_BELOW = 3

# Rolls made before the audits, through the services (as the pages would), so each log
# holds cards of both kinds: a Momenta roll per character, a 2d20 test per character;
# in a session, so its recap has pools to draw and luck to weigh.
PLAY = """
from tables.models import Campaign
from tables.services.d20 import D20TestRequest, roll_d20_test
from tables.services.momenta import RollRequest, roll_momenta
from tables.services.sessions import end_scene, start_scene, start_session

for campaign in Campaign.objects.order_by("pk"):
    start_session(campaign.pk, campaign.owner)
    start_scene(campaign.pk, campaign.owner, "Lighthouse")
    for character in campaign.characters.order_by("pk"):
        attribute = character.attributes.order_by("pk").first()
        skill = character.skills.order_by("pk").first()
        if campaign.preset == Campaign.Preset.MOMENTA:
            roll_momenta(campaign.pk, character.owner, character.pk,
                         RollRequest(attribute=attribute.name))
        else:
            roll_d20_test(campaign.pk, character.owner, character.pk,
                          D20TestRequest(attribute=attribute.name, skill=skill.name))
    end_scene(campaign.pk, campaign.owner)
"""


def ensure_lighthouse() -> None:
    if not LIGHTHOUSE.exists():
        # The versions of package-lock.json, exactly (lighthouse pinned in package.json).
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=LIGHTHOUSE_DIR,
            check=True,
        )


def log_in(context, base: str, username: str) -> dict[str, str]:
    """Log `username` in on `context`'s page; the audited paths of the demo campaigns."""
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(base + "/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form[action='/login/'] button[type=submit]")
    page.wait_for_url(base + "/")
    paths = {}
    for key, name in CAMPAIGNS.items():
        href = page.locator("a", has_text=name).first.get_attribute("href")
        for page_name, tail in PAGES.items():
            paths[key if page_name == "table" else f"{key} {page_name}"] = (
                href.rstrip("/") + "/" + tail
            )
    # Off the page: Lighthouse opens its own tab in this browser, with this profile.
    page.goto("about:blank")
    return paths


class Worker:
    """Lighthouse's Node process (lighthouse/audit-worker.mjs): every run in one, a job
    a line, where the CLI started Node and read its config again for each (~2.5 s)."""

    def __init__(self):
        self.process: subprocess.Popen | None = None

    def run(self, job: dict) -> dict:
        """{"ok": …, "error": …} of one run; a worker that hangs or dies is replaced."""
        if self.process is None:
            self.process = subprocess.Popen(
                ["node", str(WORKER)], cwd=LIGHTHOUSE_DIR, stdin=PIPE, stdout=PIPE, text=True
            )
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], RUN_TIMEOUT_S)
        line = self.process.stdout.readline() if ready else ""
        if not line:
            self.close()
            return {"ok": False, "error": "no answer from the Lighthouse worker"}
        return json.loads(line)

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def audit(worker: Worker, port: int, url: str, form_factor: str, out: Path) -> dict:
    job = {
        "url": url,
        "port": port,
        "formFactor": form_factor,
        "categories": list(CATEGORIES),
        "out": str(out),
    }
    for attempt in range(1, TRIES + 1):
        out.unlink(missing_ok=True)
        done = worker.run(job)
        report = json.loads(out.read_text()) if out.exists() else {}
        # A trace Chromium failed to record (NO_NAVSTART, NO_FCP on a busy machine) is
        # Lighthouse's to retry, not a finding about the page.
        if done["ok"] and not report.get("runtimeError"):
            return report
        print(f"  (Lighthouse failed on try {attempt} of {TRIES})", flush=True)
    return report or {"runtimeError": {"message": done.get("error", "Lighthouse failed")}}


def shortfalls(report: dict) -> list[str]:
    """The audits that cost points: failed ones in the scored categories."""
    lost = []
    for key in CATEGORIES:
        for ref in report["categories"][key]["auditRefs"]:
            result = report["audits"][ref["id"]]
            score = result.get("score")
            if ref["weight"] and score is not None and score < 1:
                shown = result.get("displayValue") or f"score {score:.2f}"
                lost.append(f"{key}: {ref['id']} ({shown})")
    return lost


def runs(worker, paths: dict[str, str], role: str, only: str, port: int, base: str, out: Path):
    """(name, audit) of each run for one person: every page, desktop and mobile, whose
    name has `only`."""
    for campaign, path in paths.items():
        for form_factor in FORM_FACTORS:
            name = f"{campaign} {role} {form_factor}"
            if only in name:
                report = out / f"{name.replace(' ', '-')}.json"
                yield name, partial(audit, worker, port, base + path, form_factor, report)


def main() -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="Write the JSON reports to this folder.")
    parser.add_argument("--only", default="", help="Only the runs whose name has this.")
    args = parser.parse_args()
    keep = args.keep
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    ensure_lighthouse()
    failures, audited = [], 0
    with tempfile.TemporaryDirectory(prefix="momenta-lighthouse-") as folder:
        folder = Path(folder)
        # One key for the demo and the shell that plays on its database (with DEBUG off,
        # only `manage.py demo` makes one of its own).
        env = server_env(folder, SECRET_KEY=secrets.token_urlsafe(50))
        demo = ServerProcess(folder, ["demo"], env=env)
        worker = Worker()
        with demo as server, sync_playwright() as playwright, closing(worker):
            server.manage("shell", "-c", PLAY)
            print(f"Demo server on {server.base}; Lighthouse {MIN_SCORE}+, CLS <= {MAX_CLS}")
            print(f"{'page':<28} {'perf':>5} {'a11y':>5} {'bp':>5} {'CLS':>7}")
            for username, role in PEOPLE.items():
                port = free_port()
                context = playwright.chromium.launch_persistent_context(
                    str(folder / f"profile-{username}"),
                    executable_path=str(devtools_browser.CHROMIUM),
                    args=[*devtools_browser.CHROMIUM_ARGS, f"--remote-debugging-port={port}"],
                    headless=True,
                )
                context.set_default_timeout(TIMEOUT_MS)
                try:
                    paths = log_in(context, server.base, username)
                    for name, again in runs(
                        worker, paths, role, args.only, port, server.base, keep or folder
                    ):
                        failures += check(name, again(), again)
                        audited += 1
                finally:
                    context.close()
    if failures:
        print("\nBelow the bar:")
        for line in failures:
            print("  " + line)
        return 1
    print(f"All {audited} runs at the bar.")
    return 0


def scores_of(report: dict) -> tuple[dict[str, int], float]:
    scores = {key: round(100 * (report["categories"][key]["score"] or 0)) for key in CATEGORIES}
    return scores, report["audits"]["cumulative-layout-shift"]["numericValue"]


def below_bar(report: dict) -> bool:
    scores, cls = scores_of(report)
    return min(scores.values()) < MIN_SCORE or cls > MAX_CLS


def check(name: str, report: dict, again) -> list[str]:
    """Print one run's scores; its failures, each a line naming the run.

    Performance varies from run to run with what else the machine does (Lighthouse's
    own advice: judge the median of several runs). A run below the bar is audited twice
    more and judged on the median performance of the three, each one printed."""
    if report.get("runtimeError"):
        return [f"{name}: {report['runtimeError'].get('message')}"]
    print_scores(name, report)
    if below_bar(report):
        runs = [report]
        for _ in range(RUNS_WHEN_BELOW - 1):
            runs.append(again())
            if runs[-1].get("runtimeError"):
                return [f"{name}: {runs[-1]['runtimeError'].get('message')}"]
            print_scores(f"  {name} again", runs[-1])
        runs.sort(key=lambda r: scores_of(r)[0]["performance"])
        report = runs[len(runs) // 2]
    if not below_bar(report):
        return []
    scores, cls = scores_of(report)
    return [f"{name}: {scores}, CLS {cls:.3f}"] + [f"{name}: {line}" for line in shortfalls(report)]


def print_scores(name: str, report: dict) -> None:
    scores, cls = scores_of(report)
    print(
        f"{name:<28} {scores['performance']:>5} {scores['accessibility']:>5} "
        f"{scores['best-practices']:>5} {cls:>7.3f}",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
