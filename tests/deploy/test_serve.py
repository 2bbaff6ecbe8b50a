"""`manage.py serve`: refuses to start a site that would fail, else runs uvicorn."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tables.management.commands import serve

pytestmark = pytest.mark.django_db


@pytest.fixture
def collected(settings, tmp_path):
    """Production static files: STATIC_ROOT set and its manifest written."""
    settings.STATIC_COLLECTED = True
    settings.STATIC_ROOT = tmp_path
    (tmp_path / "staticfiles.json").write_text('{"paths": {}, "version": "1.1"}')
    return tmp_path


@pytest.fixture
def exec_calls(monkeypatch):
    calls = []
    monkeypatch.setattr(os, "execv", lambda path, argv: calls.append(argv))
    return calls


def test_serve_runs_uvicorn_workers_with_a_graceful_stop(
    collected, settings, exec_calls, no_metrics_folder
):
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    call_command("serve", "--port", "8002", "--workers", "3", "--graceful-timeout", "20")
    [argv] = exec_calls
    assert argv[:4] == [sys.executable, "-m", "uvicorn", "momenta_site.asgi:application"]
    flags = dict(zip(argv[4::2], argv[5::2], strict=False))
    assert flags["--host"] == "127.0.0.1"
    assert flags["--port"] == "8002"
    assert flags["--workers"] == "3"
    assert flags["--timeout-graceful-shutdown"] == "20"
    # Read by the app, with X-Request-ID, not by uvicorn (momenta_site/request_log.py).
    assert "--no-proxy-headers" in argv and "--proxy-headers" not in argv


def test_serve_hands_the_proxys_addresses_to_the_workers_app(collected, exec_calls, monkeypatch):
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    call_command("serve", "--forwarded-allow-ips", "10.0.0.2")
    assert len(exec_calls) == 1
    assert os.environ["FORWARDED_ALLOW_IPS"] == "10.0.0.2"


def test_serve_says_which_release_starts_whatever_the_log_level(collected, exec_calls, capsys):
    """The journal names the release after an upgrade or a rollback, at LOG_LEVEL=WARNING
    and in the text format too (only JSON lines carried it: issue 39)."""
    from momenta_site import release

    call_command("serve", "--port", "8003")
    said = capsys.readouterr().out
    assert f"Momenta Table {release.VERSION} ({release.commit()}) serving on" in said
    assert "http://127.0.0.1:8003/" in said


def test_serve_hands_its_drain_file_to_the_uvicorn_workers(
    collected, exec_calls, monkeypatch, tmp_path
):
    monkeypatch.delenv("DRAIN_FILE", raising=False)
    call_command("serve", "--port", "8001", "--drain-file", str(tmp_path / "drain-8001"))
    assert len(exec_calls) == 1
    # The workers are a fresh interpreter: they read it from the environment.
    assert os.environ["DRAIN_FILE"] == str(tmp_path / "drain-8001")


def test_serve_refuses_without_collected_static_files_when_debug_is_off(settings, exec_calls):
    settings.STATIC_COLLECTED = False
    with pytest.raises(CommandError, match="STATIC_ROOT is not set"):
        call_command("serve")
    assert exec_calls == []


def test_serve_refuses_when_collectstatic_has_not_run(collected, exec_calls):
    (collected / "staticfiles.json").unlink()
    with pytest.raises(CommandError, match="collectstatic"):
        call_command("serve")
    assert exec_calls == []


def test_serve_refuses_while_a_translation_is_not_compiled(
    collected, settings, tmp_path, exec_calls
):
    """Pages would be English for everyone who chose German (issue 28)."""
    catalogue = tmp_path / "locale" / "de" / "LC_MESSAGES" / "django.po"
    catalogue.parent.mkdir(parents=True)
    catalogue.write_text('msgid ""\nmsgstr ""\n')
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    with pytest.raises(CommandError, match="compilemessages"):
        call_command("serve")
    assert exec_calls == []
    catalogue.with_suffix(".mo").write_bytes(b"")  # compiled after the .po was written
    call_command("serve")
    assert len(exec_calls) == 1


def test_serve_refuses_while_a_migration_is_not_applied(collected, monkeypatch, exec_calls):
    monkeypatch.setattr(serve, "unapplied_migrations", lambda: ["tables.0099_new"])
    with pytest.raises(CommandError, match=r"run `manage.py migrate` first"):
        call_command("serve")
    assert exec_calls == []


def test_serve_refuses_several_workers_without_redis(collected, settings, exec_calls):
    """The in-memory channel layer cannot reach another process: live pushes would be lost."""
    settings.REDIS_URL = ""
    with pytest.raises(CommandError, match="REDIS_URL"):
        call_command("serve", "--workers", "2")
    assert exec_calls == []


def test_unapplied_migrations_lists_none_on_a_migrated_database():
    assert serve.unapplied_migrations() == []


def test_serve_hands_uvicorn_the_sites_log_format_and_level(collected, settings, exec_calls):
    settings.LOG_LEVEL = "INFO"
    call_command("serve")
    [argv] = exec_calls
    assert argv[argv.index("--log-level") + 1] == "info"
    assert argv[argv.index("--log-config") + 1] == str(serve.LOG_CONFIG)
    assert "--no-access-log" in argv  # the site's own line per request is enough


def test_serve_has_uvicorn_make_its_info_lines_at_the_default_level(
    collected, settings, exec_calls
):
    """At WARNING too: the filter needs the worker's death line made to raise it."""
    settings.LOG_LEVEL = "WARNING"
    call_command("serve")
    [argv] = exec_calls
    assert argv[argv.index("--log-level") + 1] == "info"


UVICORN_LINES = """
import logging
from uvicorn.config import Config
Config("momenta_site.asgi:application", log_config=%r, log_level="info", access_log=True)
logging.getLogger("uvicorn.error").info("Started server process [%%d]", 42)
access = ("127.0.0.1:5", "GET", "/", "1.1", 200)
logging.getLogger("uvicorn.access").info('%%s - "%%s %%s HTTP/%%s" %%d', *access)
"""


def test_uvicorns_own_lines_come_out_in_the_sites_json_format():
    """What `serve` passes uvicorn, read by uvicorn itself in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOG_")}
    env |= {"DJANGO_SETTINGS_MODULE": "momenta_site.settings", "DEBUG": "1", "LOG_FORMAT": "json"}
    env["LOG_LEVEL"] = "INFO"  # as `serve` is run for the line per request
    done = subprocess.run(
        [sys.executable, "-c", UVICORN_LINES % str(serve.LOG_CONFIG)],
        cwd=serve.ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stderr.splitlines()]
    assert [(x["logger"], x["level"]) for x in lines] == [
        ("uvicorn.error", "INFO"),
        ("uvicorn.access", "INFO"),
    ]
    assert lines[0]["message"] == "Started server process [42]"
    assert lines[1]["message"] == '127.0.0.1:5 - "GET / HTTP/1.1" 200'


DEATH_LINES = """
import logging
from uvicorn.config import Config
Config("momenta_site.asgi:application", log_config=%r, log_level="info").configure_logging()
logging.getLogger("uvicorn.error").info("Started server process [%%d]", 42)
logging.getLogger("uvicorn.error").info("Child process [%%d] died", 43)
logging.getLogger("uvicorn.error").info("Started server process [%%d]", 44)
"""


def test_a_workers_death_is_one_warning_at_the_default_level():
    """The report: a killed worker was logged at INFO, invisible at LOG_LEVEL=WARNING.
    uvicorn's supervisor says so, then starts another: only the first is a warning."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOG_")}
    env |= {"DJANGO_SETTINGS_MODULE": "momenta_site.settings", "DEBUG": "1", "LOG_FORMAT": "json"}
    done = subprocess.run(
        [sys.executable, "-c", DEATH_LINES % str(serve.LOG_CONFIG)],
        cwd=serve.ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stderr.splitlines()]
    assert [(x["level"], x["message"]) for x in lines] == [("WARNING", "Child process [43] died")]


TWO_WORKERS = """
import os, sys
import django
django.setup()
from tables.management.commands.serve import uvicorn_argv
argv = uvicorn_argv(host="127.0.0.1", port=int(sys.argv[1]), workers=2, graceful_timeout=2,
                    access_log=False)
os.execv(argv[0], argv)
"""


def workers_of(pid: int) -> set[int]:
    """uvicorn's worker processes (multiprocessing's spawned children, not its tracker)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"spawn_main" in cmdline:
                found.add(int(child))
    return found


def wait_for(condition, seconds: float):
    deadline = time.monotonic() + seconds
    while not (found := condition()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_a_killed_worker_of_the_served_site_is_one_warning_line(tmp_path):
    """`serve`'s own uvicorn command line, two workers, one killed with -9, at the
    default LOG_LEVEL: one WARNING line, nothing else (its replacement's start is INFO)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    dropped = ("LOG_", "DATABASE_URL", "REDIS_URL")  # CI's stage 2 sets them: one process here
    env = {k: v for k, v in os.environ.items() if not k.startswith(dropped)}
    env |= {"DJANGO_SETTINGS_MODULE": "momenta_site.settings", "DEBUG": "1"}
    env["SQLITE_PATH"] = str(tmp_path / "db.sqlite3")
    log = tmp_path / "stderr"
    with log.open("w") as stderr:
        server = subprocess.Popen(
            [sys.executable, "-c", TWO_WORKERS, str(port)], cwd=serve.ROOT, env=env, stderr=stderr
        )
    try:
        first = wait_for(lambda: len(workers_of(server.pid)) == 2 and workers_of(server.pid), 90)
        killed = min(first)
        os.kill(killed, signal.SIGKILL)
        wait_for(lambda: (workers_of(server.pid) - first) and len(workers_of(server.pid)) == 2, 90)
        server.terminate()
        server.wait(timeout=30)
    finally:
        if server.poll() is None:  # failed midway: leave no process behind
            for pid in workers_of(server.pid):
                os.kill(pid, signal.SIGKILL)
            server.kill()
            server.wait()
    lines = log.read_text().splitlines()
    assert len(lines) == 1, lines
    assert " WARNING uvicorn.error " in lines[0]
    assert lines[0].endswith(f"Child process [{killed}] died")


@pytest.fixture
def no_metrics_folder(monkeypatch):
    """serve sets PROMETHEUS_MULTIPROC_DIR for its workers: put back as it was after."""
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "")
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR")


def test_several_workers_share_their_metrics_in_a_folder_emptied_at_start(
    collected, settings, exec_calls, no_metrics_folder, monkeypatch, tmp_path
):
    """Prometheus scrapes a port, which any of its workers answers: each answers for all
    (momenta_site/metrics.py). A worker from the last run must not count in this one."""
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    monkeypatch.setattr(serve.tempfile, "gettempdir", lambda: str(tmp_path))
    folder = tmp_path / "momenta-metrics-8003"
    folder.mkdir()
    (folder / "counter_4242.db").write_bytes(b"the last run's")
    (folder / "notes.txt").write_text("not prometheus_client's: kept")
    call_command("serve", "--port", "8003", "--workers", "2")
    assert len(exec_calls) == 1
    assert os.environ["PROMETHEUS_MULTIPROC_DIR"] == str(folder)
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]


def test_the_operators_metrics_folder_is_used_and_emptied(
    collected, settings, exec_calls, no_metrics_folder, monkeypatch, tmp_path
):
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    folder = tmp_path / "metrics"
    folder.mkdir()
    (folder / "gauge_livesum_4242.db").write_bytes(b"a dead worker's sockets")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(folder))
    call_command("serve", "--workers", "2")
    assert os.environ["PROMETHEUS_MULTIPROC_DIR"] == str(folder)
    assert list(folder.iterdir()) == []


def test_one_worker_counts_in_its_own_memory(collected, exec_calls, no_metrics_folder):
    call_command("serve", "--workers", "1")
    assert len(exec_calls) == 1
    assert "PROMETHEUS_MULTIPROC_DIR" not in os.environ
