"""What both benches seed: Django on a fresh, migrated SQLite file, and Momenta tables.

Imported as a sibling module by bench/live_bench.py and bench/side_by_side.py (their
own directory is on sys.path when run as scripts), so neither imports the other's
fixtures.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path


def setup_django() -> Path:
    """Point settings at a fresh SQLite file, then start Django and migrate."""
    tmp = Path(tempfile.mkdtemp(prefix="live_bench_"))
    os.environ["DJANGO_SETTINGS_MODULE"] = "momenta_site.settings"
    os.environ["SQLITE_PATH"] = str(tmp / "bench.sqlite3")
    # Servers run with DEBUG off, which needs a key; one per run, shared by the
    # bench (it signs the clients' session cookies) and the servers it starts.
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.pop("DATABASE_URL", None)  # this benchmark measures the embedded SQLite stack
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    return tmp


def make_table(name, gm, players) -> tuple[int, list[tuple[object, int]]]:
    """A Momenta campaign (through the service) and one character per player.

    Returns the campaign id and [(player, character id)].
    """
    from tables.models import Campaign, Character, Membership
    from tables.services.campaigns import create_campaign

    campaign = create_campaign(gm, name, Campaign.Preset.MOMENTA)
    seats = []
    for i, player in enumerate(players):
        Membership.objects.create(campaign=campaign, user=player, role=Membership.Role.PLAYER)
        hero = Character.objects.create(
            campaign=campaign, owner=player, name=f"Hero {i}", resolve=2, resolve_max=3
        )
        for attr, dice in (("GRIT", 3), ("WITS", 4), ("LUCK", 2)):
            hero.attributes.create(name=attr, value=dice)
        seats.append((player, hero.pk))
    return campaign.pk, seats
