"""After commit, services publish the event to hooks they do not import (issue 22).

The live doorbell and the Discord post subscribe in TablesConfig.ready
(tables/apps.py); services/publish.py calls them once the command has committed.
"""

import ast
from pathlib import Path

import pytest

import tables
from tables.models import TableEvent
from tables.services import publish, talk

SERVICES = Path(tables.__file__).parent / "services"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


# The after-commit side: the live layer, and Discord's posting (its URL check is a rule).
OUTWARD = ("tables.live", "tables.discord.notify", "tables.discord.sender")


@pytest.mark.parametrize("path", sorted(SERVICES.glob("*.py")), ids=lambda p: p.name)
def test_services_import_nothing_of_the_live_layer_or_discord_posting(path):
    names = imported_modules(path)
    outward = {n for n in names if any(n == o or n.startswith(o + ".") for o in OUTWARD)}
    assert not outward, f"{path.name} imports {sorted(outward)}"


@pytest.mark.django_db
def test_every_hook_hears_the_committed_event_even_if_one_fails(
    momenta_campaign, player, monkeypatch, django_capture_on_commit_callbacks
):
    heard = []

    def broken(event):
        raise RuntimeError("a hook's own failure")

    monkeypatch.setattr(publish, "_subscribers", [])
    publish.subscribe(broken)
    publish.subscribe(heard.append)
    publish.subscribe(heard.append)  # twice: still one call
    with django_capture_on_commit_callbacks(execute=True):
        event = talk.post_talk(momenta_campaign.pk, player, talk.OUT_OF_CHARACTER, "Hello")
    assert heard == [event]
    assert TableEvent.objects.filter(pk=event.pk).exists()


@pytest.mark.django_db
def test_a_refused_command_publishes_nothing(
    momenta_campaign, player, monkeypatch, django_capture_on_commit_callbacks
):
    heard = []
    monkeypatch.setattr(publish, "_subscribers", [heard.append])
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(talk.ServiceError):
        talk.post_talk(momenta_campaign.pk, player, talk.OUT_OF_CHARACTER, " ")
    assert heard == []
