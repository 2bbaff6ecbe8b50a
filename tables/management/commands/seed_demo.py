"""Demo data: a GM, three players, a Momenta campaign and a 2d20 campaign.

Idempotent: a second run finds everything in place and changes nothing.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tables.models import Campaign, Character, Membership, Trait
from tables.services.campaigns import PRESETS
from tables.services.harm_tracks import give_line_tracks
from tables.services.roll_templates import seed_default_templates

PASSWORD = "momenta-demo"
URL = "http://127.0.0.1:8000/"
USERS = ["gm", "alice", "bob", "cara"]

MOMENTA = {
    "name": "The Salt Roads (Momenta demo)",
    "preset": Campaign.Preset.MOMENTA,
    "members": {"alice": "player", "bob": "player", "cara": "player"},
    "characters": [
        {
            "name": "Iska Vell",
            "owner": "alice",
            "resolve": 3,
            "resolve_max": 4,
            "attributes": {"MIGHT": 2, "AGILITY": 3, "WITS": 4, "PRESENCE": 2, "LUCK": 2},
            "threads": ["Owes the salt guild a life", "Never leaves a crewmate behind"],
        },
        {
            "name": "Dorran Coil",
            "owner": "bob",
            "resolve": 4,
            "resolve_max": 4,
            "attributes": {"MIGHT": 4, "AGILITY": 2, "WITS": 2, "PRESENCE": 3, "LUCK": 1},
            "threads": ["Hunted by his old captain"],
        },
        {
            "name": "Mira Thane",
            "owner": "cara",
            "resolve": 2,
            "resolve_max": 3,
            "attributes": {"MIGHT": 1, "AGILITY": 4, "WITS": 3, "PRESENCE": 3, "LUCK": 3},
            "threads": ["Reads the old star charts", "Sister in the Lantern Court"],
        },
        {
            "name": "The Tollkeeper",
            "owner": "gm",
            "is_npc": True,
            "resolve": 2,
            "resolve_max": 2,
            "attributes": {"MIGHT": 3, "AGILITY": 1, "WITS": 3, "PRESENCE": 4, "LUCK": 2},
            "threads": ["Counts every coin twice"],
        },
    ],
}

D20 = {
    "name": "House Intrigue (2d20 demo)",
    "preset": Campaign.Preset.D20,
    "members": {"alice": "player", "bob": "player", "cara": "observer"},
    "group_momentum": 2,
    "threat": 3,
    "characters": [
        {
            "name": "Kara",
            "owner": "alice",
            "determination": 1,
            "attributes": {"Duty": 5, "Faith": 4, "Justice": 6, "Power": 7, "Truth": 5},
            "skills": {"Battle": 4, "Communicate": 6, "Discipline": 5, "Move": 4, "Understand": 5},
            "traits": [
                ("focus", "Persuasion"),
                ("focus", "Etiquette"),
                ("trait", "Power: I get what I want"),
                ("trait", "Noble of a minor House"),
            ],
            "assets": [("Signet ring", 1, True), ("Quiet corner of the ballroom", 0, False)],
        },
        {
            "name": "Anna",
            "owner": "alice",
            "notes": "Kara's handmaiden; assists Kara's tests (T-03).",
            "attributes": {"Duty": 6, "Faith": 5, "Justice": 4, "Power": 4, "Truth": 5},
            "skills": {"Battle": 2, "Communicate": 4, "Discipline": 4, "Move": 5, "Understand": 4},
            "traits": [("focus", "Servants' gossip"), ("trait", "Handmaiden")],
        },
        {
            "name": "Dastan",
            "owner": "bob",
            "determination": 1,
            "attributes": {"Duty": 6, "Faith": 4, "Justice": 5, "Power": 5, "Truth": 6},
            "skills": {"Battle": 6, "Communicate": 4, "Discipline": 5, "Move": 5, "Understand": 3},
            "traits": [("focus", "Short blades"), ("trait", "Swordmaster")],
        },
        {
            "name": "Marcus",
            "owner": "gm",
            "is_npc": True,
            "determination": 0,
            "notes": "Officially here for a spice deal. A skilled assassin.",
            "attributes": {"Duty": 7, "Faith": 4, "Justice": 4, "Power": 6, "Truth": 5},
            "skills": {"Battle": 7, "Communicate": 5, "Discipline": 6, "Move": 6, "Understand": 5},
            "traits": [("focus", "Poisons"), ("trait", "Assassin"), ("trait", "Has allies here")],
        },
    ],
}


class Command(BaseCommand):
    help = "Create demo users and two demo campaigns (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--url", default=URL, help="Where the demo is served (printed).")

    @transaction.atomic
    def handle(self, *args, url=URL, **options):
        users = {name: self._user(name) for name in USERS}
        for spec in (MOMENTA, D20):
            self._campaign(spec, users)
        self.stdout.write(self.style.SUCCESS(f"Demo ready at {url}"))
        self.stdout.write(f"Log in with any of these (password for all: {PASSWORD}):")
        roles = {
            "gm": "GM of both campaigns",
            "alice": "player: Iska; Kara and her handmaiden Anna",
            "bob": "player: Dorran; Dastan",
            "cara": "player: Mira; observer in the 2d20 campaign",
        }
        for name in USERS:
            self.stdout.write(f"  {name:<6} / {PASSWORD}   ({roles[name]})")

    def _user(self, username):
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            user.set_password(PASSWORD)
            user.save()
        return user

    def _campaign(self, spec, users):
        gm = users["gm"]
        dice_system, economy = PRESETS[spec["preset"]]
        campaign, created = Campaign.objects.get_or_create(
            name=spec["name"],
            owner=gm,
            defaults={
                "preset": spec["preset"],
                "dice_system": dice_system,
                "economy": economy,
                "group_momentum": spec.get("group_momentum", 0),
                "threat": spec.get("threat", 0),
            },
        )
        seed_default_templates(campaign)  # as campaigns.create_campaign does (D6-04)
        Membership.objects.get_or_create(
            campaign=campaign, user=gm, defaults={"role": Membership.Role.GM}
        )
        for name, role in spec["members"].items():
            Membership.objects.get_or_create(
                campaign=campaign, user=users[name], defaults={"role": role}
            )
        for sheet in spec["characters"]:
            self._character(campaign, sheet, users)

    def _character(self, campaign, sheet, users):
        character, created = Character.objects.get_or_create(
            campaign=campaign,
            name=sheet["name"],
            defaults={
                "owner": users[sheet["owner"]],
                "is_npc": sheet.get("is_npc", False),
                "notes": sheet.get("notes", ""),
                "resolve": sheet.get("resolve", 0),
                "resolve_max": sheet.get("resolve_max", 0),
                "determination": sheet.get("determination", 0),
            },
        )
        if not created:
            return
        for name, value in sheet.get("attributes", {}).items():
            character.attributes.create(name=name, value=value)
        for name, value in sheet.get("skills", {}).items():
            character.skills.create(name=name, value=value)
        for text in sheet.get("threads", []):
            character.traits.create(kind=Trait.Kind.THREAD, text=text)
        for kind, text in sheet.get("traits", []):
            character.traits.create(kind=kind, text=text)
        for name, quality, permanent in sheet.get("assets", []):
            character.assets.create(name=name, quality=quality, permanent=permanent)
        give_line_tracks(campaign, character)  # as a sheet saved at the table starts (SC-02)
