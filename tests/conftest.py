"""Shared fixtures: a table with a GM, a co-GM, two players, an observer and an outsider."""

import os

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from momenta_site.catalogues import compile_catalogues
from tables.models import Campaign, Character, Membership
from tables.services.roll_templates import seed_default_templates

# These machines are noisy: never fail a property test on wall-clock time.
hypothesis_settings.register_profile("momenta", deadline=None, print_blob=True)
hypothesis_settings.load_profile("momenta")

PASSWORD = "table-pass-123"


def pytest_configure(config):
    """The translations the pages are drawn in, built from locale/ as `manage.py demo`
    builds them (the .mo files are not committed; issue 28). Once, before xdist starts
    its workers: they then find every .mo newer than its .po and write nothing, where
    two writers could leave one reading a half-written file."""
    if not hasattr(config, "workerinput"):
        compile_catalogues()
    elif django_settings.REDIS_URL:
        _own_redis_database(config.workerinput["workerid"])


# The slowest modules: a browser module takes 10-140 s, most others under 2 s.
SLOW_FIRST = ("tests/e2e/", "tests/host/test_host_e2e.py", "tests/tables/test_fuzz_inputs.py")


# CI's second stage (.ci/run) runs the tests marked `backends` again on PostgreSQL +
# Redis: where the two stacks behave differently. The channel layer, presence and the
# production stack; the tests that commit for real (transaction=True: row locks, several
# connections, on_commit), every race among them; and these modules, which depend on
# what each database stores or refuses (NUL, jsonb's key order, id sequences).
BACKEND_DIRS = ("tests/live/", "tests/deploy/")
BACKEND_MODULES = (
    "tests/tables/test_fuzz_inputs.py",
    "tests/tables/test_unstorable_text.py",
    "tests/tables/test_campaign_export.py",
    "tests/tables/test_campaign_export_round_trip.py",
    "tests/tables/test_events_registry.py",
    "tests/tables/test_deny_by_default.py",
    "tests/tables/test_login_lockout.py",
)


def _on_backends(item) -> bool:
    from tests import races

    if item.nodeid.startswith(BACKEND_DIRS + BACKEND_MODULES):
        return True
    if getattr(getattr(item, "module", None), "race", None) is races.race:
        return True
    marker = item.get_closest_marker("django_db")
    return bool(marker and marker.kwargs.get("transaction"))


def pytest_collection_modifyitems(items):
    """The slow modules handed out first (xdist's loadscope deals modules in this
    order), so the run does not end waiting on one worker's last browser module."""
    items.sort(key=lambda item: not item.nodeid.startswith(SLOW_FIRST))
    for item in items:
        if _on_backends(item):
            item.add_marker("backends")


# Cases of one module that each build their own world, so nothing is shared by keeping
# them on one worker: each is a unit of its own for loadscope (the fuzz's roles and parts).
SPREAD = (
    "tests/tables/test_fuzz_inputs.py::test_no_input_answers_500[",
    "tests/tables/test_fuzz_inputs.py::test_no_form_charset_answers_500[",
)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """loadscope, but each SPREAD case may go to any worker: the fuzz module alone was
    2.5 minutes on one worker while the other had finished (issue 38)."""
    if config.getvalue("dist") != "loadscope":
        return None  # xdist's own choice
    from xdist.scheduler import LoadScopeScheduling

    class SpreadScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return nodeid if nodeid.startswith(SPREAD) else super()._split_scope(nodeid)

    return SpreadScheduling(config, log)


def _own_redis_database(worker: str) -> None:
    """Each xdist worker its own Redis database and channel prefix (CI's second run):
    every worker's test database numbers its campaigns from 1, and pub/sub channels are
    server-wide, so table 1's doorbells would ring in every worker. Set in the
    environment too, for the server processes tests start."""
    number = int(worker.removeprefix("gw")) + 1
    url = f"{django_settings.REDIS_URL.rsplit('/', 1)[0]}/{number}"
    prefix = f"momenta-{worker}"
    os.environ.update(REDIS_URL=url, CHANNEL_LAYER_PREFIX=prefix)
    django_settings.REDIS_URL = url
    layer = django_settings.CHANNEL_LAYERS["default"]["CONFIG"]
    layer["hosts"][0]["address"] = url
    layer["prefix"] = prefix
    cache = django_settings.CACHES["default"]
    if "redis" in cache["BACKEND"].lower():  # the configured cache some tests put back
        cache["LOCATION"] = url


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 costs ~0.4 s a user here; tests need logins, not strong hashes."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache(settings, request):
    """Each test gets its own cache, so none inherits another's entries (and no test
    flushes a shared Redis). Login failures are in the database, not here."""
    backend = "django.core.cache.backends.locmem.LocMemCache"
    settings.CACHES = {"default": {"BACKEND": backend, "LOCATION": request.node.nodeid}}


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A request in another language (Accept-Language, a person's setting) leaves it
    active on the thread (LocaleMiddleware does not switch back): the next test's
    service messages would be in it."""
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


def make_user(username: str):
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


@pytest.fixture
def gm(db):
    return make_user("gm")


@pytest.fixture
def cogm(db):
    return make_user("cogm")


@pytest.fixture
def player(db):
    return make_user("player")


@pytest.fixture
def player2(db):
    return make_user("player2")


@pytest.fixture
def observer(db):
    return make_user("observer")


@pytest.fixture
def outsider(db):
    return make_user("outsider")


def _campaign(gm, cogm, player, player2, observer, **fields):
    campaign = Campaign.objects.create(owner=gm, **fields)
    seed_default_templates(campaign)  # as campaigns.create_campaign does (D6-04)
    for user, role in [
        (gm, Membership.Role.GM),
        (cogm, Membership.Role.GM),
        (player, Membership.Role.PLAYER),
        (player2, Membership.Role.PLAYER),
        (observer, Membership.Role.OBSERVER),
    ]:
        Membership.objects.create(campaign=campaign, user=user, role=role)
    return campaign


@pytest.fixture
def momenta_campaign(gm, cogm, player, player2, observer):
    return _campaign(gm, cogm, player, player2, observer, name="The Drift")


@pytest.fixture
def d20_campaign(gm, cogm, player, player2, observer):
    return _campaign(
        gm,
        cogm,
        player,
        player2,
        observer,
        name="Arrakis",
        preset=Campaign.Preset.D20,
        dice_system=Campaign.DiceSystem.D20,
        economy=Campaign.Economy.GROUP,
    )


@pytest.fixture
def hero(momenta_campaign, player):
    character = Character.objects.create(
        campaign=momenta_campaign, owner=player, name="Ash", resolve=3, resolve_max=4
    )
    for name, dice in [("GRIT", 3), ("WITS", 4), ("LUCK", 2)]:
        character.attributes.create(name=name, value=dice)
    return character


@pytest.fixture
def sidekick(momenta_campaign, player2):
    return Character.objects.create(
        campaign=momenta_campaign, owner=player2, name="Bo", resolve=2, resolve_max=3
    )


# --- Site fixtures (issue 4) ------------------------------------------------------

ROLES = ["gm", "cogm", "player", "player2", "observer", "outsider", "anonymous"]


@pytest.fixture
def client_for(gm, cogm, player, player2, observer, outsider):
    """client_for("observer") -> a test Client logged in as that fixture user
    ("anonymous": not logged in)."""
    from django.test import Client

    users = {
        "gm": gm,
        "cogm": cogm,
        "player": player,
        "player2": player2,
        "observer": observer,
        "outsider": outsider,
    }

    def make(role: str) -> Client:
        client = Client()
        if role != "anonymous":
            client.force_login(users[role])
        return client

    return make


@pytest.fixture
def kara(d20_campaign, player):
    """A 2d20 character (T-R1: target = attribute + skill), with a focus, a trait and assets."""
    character = Character.objects.create(
        campaign=d20_campaign, owner=player, name="Kara", determination=1
    )
    character.attributes.create(name="Power", value=7)
    character.skills.create(name="Communicate", value=6)
    character.traits.create(kind="focus", text="Persuasion")
    character.traits.create(kind="trait", text="Power: I get what I want")
    character.assets.create(name="Signet ring", quality=1, permanent=True)
    character.assets.create(name="Quiet corner", quality=0, permanent=False)
    return character


@pytest.fixture
def marcus(d20_campaign, gm):
    """An NPC: owned by the GM."""
    return Character.objects.create(
        campaign=d20_campaign, owner=gm, name="Marcus", is_npc=True, determination=0
    )


# --- Dice the server rolls (randomness is injected: tests choose faces) ------------------


@pytest.fixture
def d20_faces(monkeypatch):
    """d20_faces([faces…]): the next d20s the server rolls show these faces; returns the
    source (its `.faces` left over)."""
    import rules.d20
    from rules.dice import FixedDice

    def load(faces):
        source = FixedDice(faces)
        monkeypatch.setattr(rules.d20, "_rng", lambda rng: source if rng is None else rng)
        return source

    return load


@pytest.fixture
def d6_faces(monkeypatch):
    """d6_faces([5, 5, 1, 2]): the next Momenta rolls the server makes show these faces."""
    from rules.dice import FixedDice
    from tables.services import momenta

    def load(faces):
        source = FixedDice(faces)
        monkeypatch.setattr(momenta.rolls, "system_random", lambda: source)
        return source

    return load
