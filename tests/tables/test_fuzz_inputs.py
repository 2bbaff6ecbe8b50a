"""No input answers 500 (issues 12, 26): every URL of the app, hostile values in every field.

The URLs come from the URLconf, so a new endpoint is covered without touching this
file; its fields come from the forms and htmx controls the pages draw (what a
browser would send, each form on its own, with its first submit button), with one
field at a time replaced by a hostile value. Roles: GM, player, observer and anonymous,
with DEBUG off. A refusal (4xx) changes nothing: no event, no pool moved. A NUL goes
into every field of every form on its own, so a view that reads text past a form
(a scene board trait did, issue 34) meets it; what PostgreSQL refuses is refused on
SQLite too. Every URL also gets form bodies in other charsets, with the
CSRF check on as a browser meets it, and the websocket URLconf gets hostile and
unrouted paths. CI's second stage runs this file on PostgreSQL and Redis too.

Each role's requests (the GM's in parts) are a case of their own on a fresh table, so
xdist runs them side by side (tests/conftest.py's SPREAD; issue 38).
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import logging
import re
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlsplit

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.db import connection, connections
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

import rules.d20
from rules.dice import FixedDice
from tables.models import (
    AssistRequest,
    Campaign,
    Character,
    Contest,
    CustomSpend,
    D20Test,
    Membership,
    MomentaRoll,
    RollTemplate,
    TableEvent,
)
from tables.services import momenta, scene_board, sessions
from tables.services.d20 import contest_opposer_roll
from tests.html_forms import form_fields

HX = {"HTTP_HX_REQUEST": "true"}

HOSTILE = [
    "²",  # str.isdigit() says yes, int() says no
    "١",  # an Arabic-Indic one: int() takes it, a database id must not be one
    "\x00",  # PostgreSQL refuses NUL in text
    "1e400",
    "99999999999999999999",
    "-1",
    "",
    "x" * 5000,
    "Double:²",  # an allocation's "pattern:face"
]
# Scalars sent as a list (a repeated field): [baseline, hostile].
LISTED = ["²", "\x00"]

# The GM passes every door: every value in all fields at once, and "²" (a field's own
# parsing) and NUL in each field alone; the player, NUL alone too (their own forms).
# All at once, a door such as `action` refuses the request before any text is read.
# The others are mostly stopped at the door. Lone surrogates cannot arrive: Django
# decodes a body's bytes with errors="replace" (test_undecodable_text_is_not_stored).
ROLES = {
    "gm": (HOSTILE + [LISTED], ["²", "\x00"]),
    "player": (HOSTILE[:3], ["\x00"]),
    "observer": (HOSTILE[:1], []),
    "anonymous": (HOSTILE[:1], []),
}
# What only the database decides, sent to each field alone on PostgreSQL (CI's second
# stage): "²" alone stops at the field's own parsing, before any query, the same on both
# databases, so SQLite's run is its test; a quarter of the GM's requests (issue 38).
DATABASE_DECIDES = ("\x00",)
# Last, so the rest of the run keeps its scene (the board's commands need one), its
# session and its members.
LAST = (
    "scene_end", "gm_scene_end", "member_promote", "member_remove", "signup", "login", "logout",
)  # fmt: skip


class _Forms(HTMLParser):
    """Every form (and htmx control) of a page: (method, path, {field: [values]}, {its
    own}). A form's first named submit button is sent, as pressing Enter in it sends
    it; an htmx control sends its own name and value, and its hx-vals, with the fields
    of the form it includes."""

    def __init__(self, page: str = ""):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.found: list[tuple[str, str, dict, dict]] = []
        self.stack: list[dict] = []  # open forms' field dicts
        self.pressed: list[bool] = []  # whether each open form has its submit button
        self.select: tuple[str, list] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and not any(k in a for k in ("action", "hx-get", "hx-post")):
            a["action"] = self.page  # a form without an action posts to its page
        form: dict[str, list[str]] | None = None  # one for all of a form's targets
        for attr, method in (("hx-get", "GET"), ("hx-post", "POST"), ("action", None)):
            target = a.get(attr)
            if not target or target.startswith(("data:", "#")):
                continue
            split = urlsplit(target)
            fields: dict[str, list[str]] = {}
            for k, v in parse_qsl(split.query, keep_blank_values=True):
                fields.setdefault(k, []).append(v)
            verb = method or (a.get("method") or "get").upper()
            own = {}
            if tag == "form":
                form = fields = form if form is not None else fields
            else:
                own = _own_values(a)
                if self.stack and a.get("hx-include") == "closest form":
                    fields = self.stack[-1]  # the enclosing form's, still being read
            self.found.append((verb, split.path, fields, own))
        if form is not None:
            self.stack.append(form)
            self.pressed.append(False)
        if tag == "option" and self.select:
            self.select[1].append((a.get("value", ""), "selected" in a))
        name = a.get("name")
        if not self.stack or "disabled" in a:
            return
        fields = self.stack[-1]
        kind = a.get("type", "submit" if tag == "button" else "text")
        if tag in ("input", "button") and kind == "submit":
            if not self.pressed[-1] and name:
                fields.setdefault(name, []).append(a.get("value") or "")
            self.pressed[-1] = True  # the first one, named or not
        elif not name:
            return
        elif tag in ("input", "textarea"):
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind not in ("button", "reset", "image", "file"):
                fields.setdefault(name, []).append(a.get("value") or _typed(a, kind))
        elif tag == "select":
            self.select = (name, [])

    def handle_endtag(self, tag):
        if tag == "select" and self.select and self.stack:
            # The selected option, as a browser sends it (else the first): the settings
            # form sent as drawn must not turn the 2d20 table into a Momenta one.
            name, options = self.select
            chosen = [v for v, selected in options if selected] or [v for v, _ in options[:1]]
            self.stack[-1].setdefault(name, []).append(chosen[0] if chosen else "")
            self.select = None
        elif tag == "form" and self.stack:
            self.stack.pop()
            self.pressed.pop()


def _own_values(a: dict) -> dict[str, list[str]]:
    """What an htmx control adds to its request: its hx-vals, its name and value."""
    try:
        own = json.loads(a.get("hx-vals") or "{}")
    except ValueError:
        own = {}
    own = {k: [str(v)] for k, v in own.items()} if isinstance(own, dict) else {}
    if a.get("name"):
        own[a["name"]] = [a.get("value") or ""]
    return own


def _typed(a: dict, kind: str) -> str:
    """What a person types into an empty field the form requires: the hostile values
    then reach past its number fields, into the text the command stores."""
    if "required" not in a:
        return ""
    return (a.get("min") or "1") if kind == "number" else "Fuzz"


def _patterns(resolver=None, prefix=""):
    """(route, name) of every URL pattern except the admin's."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if not route.startswith("admin/"):
                yield from _patterns(entry, route)
        elif isinstance(entry, URLPattern):
            yield route, entry.name


@pytest.fixture
def world(momenta_campaign, d20_campaign, hero, sidekick, kara, marcus, gm, player, monkeypatch):
    """Both tables mid-play: a session and scene with a trait on its board, a roll
    waiting for its patterns, an Assist asked, a 2d20 test with a spend, a contest and
    a custom spend."""
    monkeypatch.setattr(momenta.rolls, "system_random", lambda: FixedDice([5, 5, 5, 1, 2, 3] * 500))
    d20_dice = FixedDice([1, 2, 3] * 500)
    monkeypatch.setattr(rules.d20, "_rng", lambda rng: d20_dice if rng is None else rng)
    for campaign in (momenta_campaign, d20_campaign):
        sessions.start_session(campaign.pk, gm)
        sessions.start_scene(campaign.pk, gm, "Opening")
        # Kept past the scene: its tools (edit…) stay on the board when the fuzz ends it.
        scene_board.add_trait(campaign.pk, gm, "Fog", lasting=True)
    c = Client()
    c.force_login(player)
    base = f"/campaigns/{momenta_campaign.pk}/"
    page = c.get(base + "table/").content.decode()
    answer = c.post(base + "momenta/roll/", form_fields(page, "momenta-roll"), **HX)
    assert MomentaRoll.objects.exists(), answer.content.decode()
    AssistRequest.objects.create(
        campaign=momenta_campaign, roller=hero, helper=sidekick, requested_by=player
    )
    d20 = f"/campaigns/{d20_campaign.pk}/d20/"
    page = c.get(f"/campaigns/{d20_campaign.pk}/table/").content.decode()
    answer = c.post(d20 + "roll/", form_fields(page, "d20-composer"), **HX)
    assert D20Test.objects.exists(), answer.content.decode()
    # As the GM opens one: the opposer's roll first (a contest without it cannot be).
    marcus.attributes.create(name="Power", value=8)
    marcus.skills.create(name="Communicate", value=2)
    contest_opposer_roll(
        d20_campaign.pk, gm, marcus.pk, kara.pk, attribute="Power", skill="Communicate"
    )
    CustomSpend.objects.create(campaign=d20_campaign, name="Favour", cost=1)
    # Known invite tokens: every world then draws the same pages (_harvest_once).
    for campaign in (momenta_campaign, d20_campaign):
        campaign.invite_token = f"fuzz-invite-{campaign.pk}"
        campaign.save(update_fields=["invite_token"])
    return momenta_campaign, d20_campaign


def _ids(momenta_campaign, d20_campaign) -> dict[str, dict[str, object]]:
    """Path arguments, per campaign, that name real records of that campaign."""
    test = D20Test.objects.filter(campaign=d20_campaign).first()
    common = {
        "member_pk": Membership.objects.filter(campaign=momenta_campaign, role="player").first().pk,
        "cpk": Character.objects.filter(campaign=momenta_campaign).first().pk,
        "token": momenta_campaign.invite_token,
        "uidb64": "MQ",  # a password reset link's user (its token: the invite's, refused)
    }
    records = {
        "roll_pk": MomentaRoll.objects.first().pk,
        "assist_pk": AssistRequest.objects.first().pk,
        "template_pk": RollTemplate.objects.filter(campaign=momenta_campaign).first().pk,
        "tid": test.pk,
        "index": 0,
        "cid": Contest.objects.first().pk,
        "sid": CustomSpend.objects.first().pk,
        "seq": 1,  # an event of the log (the void form's, issue 15)
    }
    return {
        "momenta": common | records | {"pk": momenta_campaign.pk},
        "d20": common | records | {"pk": d20_campaign.pk},
    }


def _tables_for(route: str) -> tuple[str, ...]:
    """Which table a URL is fuzzed on: its ruleset's, else both (or one, without a table)."""
    if "momenta/" in route:
        return ("momenta",)
    if "d20/" in route or "gm/" in route or "<int:pk>" not in route:
        return ("d20",)
    return ("momenta", "d20")


def _fill(route: str, ids: dict) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(ids[m.group(1)]), route)


def _harvest(urls: set[str]) -> dict[tuple[str, str], list[dict]]:
    """(method, path) -> each of its forms' fields, from every page a GM or player sees:
    forms posting to one URL (the board's add and edit) each sent on its own, one of
    those alike (one field names and button: each trait's tools) kept."""
    found: dict[tuple[str, str], dict[tuple, dict]] = {}
    for role in ("gm", "player"):
        client = Client()
        client.force_login(Membership.objects.filter(role=role).first().user)
        for url in sorted(urls):
            response = client.get(url, **HX) if "/d20/tests/" in url else client.get(url)
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            reader = _Forms(url)
            reader.feed(response.content.decode())
            for method, path, fields, own in reader.found:
                fields = fields | own
                alike = (tuple(sorted(fields)), tuple(fields.get("action", ())))
                found.setdefault((method, path), {}).setdefault(alike, fields)
    return {target: list(forms.values()) for target, forms in found.items()}


# The forms of one world, per worker process. The fuzz's cases each build the same world
# (the same ids on SQLite, whose ids roll back with each test), so its ~300 pages are read
# once per process, not once a case (issue 38); where ids differ (PostgreSQL's sequences
# do not roll back) a case reads its own.
_HARVESTS: dict[str, dict] = {}


def _harvest_once(ids: dict, pages: set[str]) -> dict[tuple[str, str], list[dict]]:
    key = json.dumps([ids, sorted(pages)], sort_keys=True, default=str)
    if key not in _HARVESTS:
        _HARVESTS[key] = _harvest(pages)
    return copy.deepcopy(_HARVESTS[key])


def _state():
    pools = list(
        Campaign.objects.order_by("pk").values_list("group_momentum", "threat", "invite_token")
    )
    sheets = list(
        Character.objects.order_by("pk").values_list("momentum", "resolve", "determination")
    )
    return TableEvent.objects.count(), pools, sheets, Membership.objects.count()


def _requests(routes, ids, forms, together, alone, part=(0, 1)):
    """(method, url, data) for every endpoint: its fields as drawn, then hostile values
    in all of them at once (a list: each field repeated), then in one field at a time.
    part=(index, parts): every parts-th URL from the index-th on, each URL with all its
    requests, in the same order."""
    index, parts = part
    ordered = sorted(routes, key=lambda r: r[1] in LAST and LAST.index(r[1]))
    urls = [(route, table) for route, _name in ordered for table in _tables_for(route)]
    for route, table in urls[index::parts]:
        args = ids[table]
        url = _fill(route, args)
        drawn = [(m, f) for (m, p), each in forms.items() if p == url for f in each]
        for method, fields in drawn or [("GET", {}), ("POST", {})]:
            if method not in ("GET", "POST"):
                continue  # <form method="dialog"> never leaves the page
            baseline = {k: list(v) for k, v in fields.items()}
            names = (set(baseline) | {"next"}) - {"csrfmiddlewaretoken"}
            yield method, url, baseline
            for value in together if drawn else together[:1]:
                if isinstance(value, list):
                    yield method, url, baseline | {n: ["1", *value] for n in names}
                else:
                    yield method, url, baseline | dict.fromkeys(names, [value])
            # Formset rows (attributes-0-name) are model form fields like the rest.
            single = sorted(n for n in names if not re.search(r"-\d+-", n))
            for field, value in itertools.product(single, alone if drawn else []):
                yield method, url, baseline | {field: [value]}
        if "<str:token>" in route:
            for value in HOSTILE[:4]:
                yield "GET", _fill(route, args | {"token": value}), {}
        for arg in re.findall(r"<int:(\w+)>", route):
            yield "GET", _fill(route, args | {arg: "99999999999999999999"}), {}


# The GM's requests are most of them: in this many parts. Each role, and each of the GM's
# parts, is a case of its own on a fresh table (conftest.py's scheduler deals the cases
# to different xdist workers; issue 38).
GM_PARTS = 3
CASES = [("gm", (k, GM_PARTS)) for k in range(GM_PARTS)] + [
    (role, (0, 1)) for role in ROLES if role != "gm"
]


@pytest.mark.parametrize(
    "role, part", CASES, ids=[f"{role}-{k + 1}-of-{n}" for role, (k, n) in CASES]
)
def test_no_input_answers_500(role, part, world, settings, client_for):
    settings.DEBUG = False
    routes = list(_patterns())
    ids = _ids(*world)
    pages = {_fill(r, a) for r, _ in routes for a in ids.values() if "<str:token>" not in r}
    forms = _harvest_once(ids, pages)
    failures, refused_changes, sent = [], [], 0
    together, alone = ROLES[role]
    if connection.vendor == "postgresql":
        alone = [value for value in alone if value in DATABASE_DECIDES]
    with _nul_queries() as nul_queries:
        client = client_for(role)
        client.raise_request_exception = False
        for method, url, data in _requests(routes, ids, forms, together, alone, part):
            before, queried = _state(), len(nul_queries)
            send = client.post if method == "POST" else client.get
            response = send(url, data, **HX)
            sent += 1
            code = response.status_code
            if code >= 500 or len(nul_queries) > queried:
                # A NUL in a query: PostgreSQL's 500, SQLite's silence.
                code = code if code >= 500 else f"{code}, NUL sent to the database"
                failures.append((role, method, url, _short(data), code))
            elif code >= 400 and _state() != before:
                refused_changes.append((role, method, url, _short(data), code))
    print(f"fuzz: {sent} requests, {len(failures)} answered 5xx or queried with a NUL")
    assert not failures, f"{len(failures)} of {sent} requests:\n" + "\n".join(
        map(str, failures[:40])
    )
    assert not refused_changes, "refused but changed state:\n" + "\n".join(
        map(str, refused_changes[:20])
    )
    # SQLite stores NUL; PostgreSQL refuses it with a 500: it must never get that far.
    assert not _stored_nul(), _stored_nul()


def _sends_nul(param) -> bool:
    """A query parameter with a NUL: text, or JSON (PostgreSQL's Jsonb holds the value;
    SQLite gets the JSON text, the NUL written as the escape \\u0000)."""
    if hasattr(param, "obj"):
        return _holds_nul(param.obj)
    if not isinstance(param, str):
        return False
    if "\x00" in param:
        return True
    if param.startswith(("{", "[", '"')) and "\\u0000" in param:
        try:
            return _holds_nul(json.loads(param))
        except ValueError:
            return False
    return False


@contextlib.contextmanager
def _nul_queries():
    """The SQL statements sent with a NUL in a parameter, as they run: PostgreSQL
    refuses one (a 500), SQLite takes it silently, to store or only to look up."""
    seen: list[str] = []

    def spy(execute, sql, params, many, context):
        if many:
            params = list(params)  # read twice: here, then by the database
        for row in params if many else [params]:
            values = row.values() if isinstance(row, dict) else row or ()
            if any(map(_sends_nul, values)):
                seen.append(sql[:80])
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        yield seen


def _holds_nul(value) -> bool:
    """A stored value with a NUL: text, or any string or key of a JSON value."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(k) or _holds_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(map(_holds_nul, value))
    return False


def _stored_nul() -> list[str]:
    """Text and JSON columns of the app's records that hold a NUL character (PostgreSQL
    refuses it in jsonb as in text)."""
    from django.apps import apps
    from django.db import models

    found = []
    for model in [
        *apps.get_app_config("tables").get_models(),
        Campaign._meta.get_field("owner").related_model,
    ]:
        for field in model._meta.concrete_fields:
            if isinstance(field, models.CharField | models.TextField | models.JSONField):
                # In Python: SQLite's LIKE ends a pattern at its NUL.
                values = model.objects.values_list(field.name, flat=True)
                if any(map(_holds_nul, values)):
                    found.append(f"{model.__name__}.{field.name}")
    return found


def test_a_new_sheet_row_sent_twice_is_a_form_error(world, client_for, hero, settings):
    """A double submit of a new attribute row: the second answers with a clear message
    (the first saved it), not the database's IntegrityError."""
    settings.DEBUG = False
    client = client_for("player")
    client.raise_request_exception = False
    url = f"/campaigns/{hero.campaign_id}/characters/{hero.pk}/edit/"
    reader = _Forms(url)
    reader.feed(client.get(url).content.decode())
    data = next(f for m, p, f, _ in reader.found if p == url and m == "POST")
    new_row = int(data["attributes-INITIAL_FORMS"][0])  # the first blank row
    data |= {f"attributes-{new_row}-name": ["NERVE"], f"attributes-{new_row}-value": ["2"]}
    assert client.post(url, data).status_code == 302
    again = client.post(url, data)
    assert again.status_code == 400
    assert "already a attribute named NERVE" in again.content.decode()
    assert hero.attributes.filter(name="NERVE").count() == 1


def test_a_scene_title_with_a_nul_is_refused_with_a_message(world, client_for, settings):
    momenta_campaign, _ = world
    settings.DEBUG = False
    client = client_for("gm")
    sessions.end_scene(momenta_campaign.pk, momenta_campaign.owner)
    before = _state()
    url = f"/campaigns/{momenta_campaign.pk}/scenes/start/"
    response = client.post(url, {"title": "Dock\x00s"}, **HX)
    assert (
        response.status_code == 200
        and "Null characters are not allowed" in response.content.decode()
    )
    assert _state() == before


# Form bodies a browser would not send: Django reads urlencoded forms in UTF-8 only.
FORM_FIELDS = "username=gm&password=x&title=D\u00e9j\u00e0&text=\u00bd&next=/"
CHARSETS = ["utf-16", "utf-16-be", "latin-1", "shift_jis", "cp1252", "utf-8", "x-no-such"]
BOUNDARY = "fuzzboundary"


def _charset_bodies():
    """(content type, body, unreadable) triples: urlencoded in each charset (Django
    reads only UTF-8, and an unknown charset as UTF-8), and multipart whose parts
    say charsets of their own."""
    for charset in CHARSETS:
        codec = charset if charset != "x-no-such" else "utf-8"
        yield (
            f"application/x-www-form-urlencoded; charset={charset}",
            FORM_FIELDS.encode(codec, errors="replace"),
            charset not in ("utf-8", "x-no-such"),
        )
    for charset in ("utf-16", "x-no-such"):
        codec = charset if charset != "x-no-such" else "utf-8"
        part = (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n'
            f"Content-Type: text/plain; charset={charset}\r\n\r\n"
        ).encode() + "D\u00e9j\u00e0".encode(codec)
        yield (
            f"multipart/form-data; boundary={BOUNDARY}; charset={charset}",
            part + f"\r\n--{BOUNDARY}--\r\n".encode(),
            False,
        )


@pytest.mark.parametrize("role", ["gm", "anonymous"])  # each a case: issue 38
def test_no_form_charset_answers_500(role, world, settings):
    """Every URL (and one that is not), every body, with the CSRF check on and a valid
    token in the header (htmx's way): a body Django cannot read is a 400, never a 500
    from the error page reading it again (issue 26)."""
    settings.DEBUG = False
    routes = list(_patterns())
    ids = _ids(*world)
    urls = sorted(
        {_fill(r, a) for r, n in routes for a in ids.values() if n not in LAST}
        | {"/no/such/page/", "/admin/login/", "/login/", "/signup/"}
    )
    failures, refused_changes, sent = [], [], 0
    client = Client(enforce_csrf_checks=True)
    client.raise_request_exception = False
    client.get("/login/")  # the CSRF cookie, as the page sets it
    if role != "anonymous":
        client.force_login(Membership.objects.filter(role=role).first().user)
    token = client.cookies[django_settings.CSRF_COOKIE_NAME].value
    for url in urls:
        for content_type, body, unreadable in _charset_bodies():
            before = _state()
            sent += 1
            try:
                response = client.generic(
                    "POST", url, body, content_type, HTTP_X_CSRFTOKEN=token, **HX
                )
            except Exception as error:  # raised past Django's error answers: a 500
                failures.append((role, url, content_type, repr(error)[:80]))
                continue
            code = response.status_code
            if code >= 500:
                failures.append((role, url, content_type, code))
            elif code >= 400 and _state() != before:
                refused_changes.append((role, url, content_type, code))
            if unreadable and code != 400 and code < 500:
                failures.append((role, url, content_type, code))
    print(f"fuzz charsets: {sent} requests, {len(failures)} wrong")
    assert not failures, f"{len(failures)} of {sent} requests:\n" + "\n".join(
        map(str, failures[:40])
    )
    assert not refused_changes, "refused but changed state:\n" + "\n".join(
        map(str, refused_changes[:20])
    )


def test_a_utf16_form_to_the_login_or_the_talk_view_is_a_400(momenta_campaign, player):
    """The audit's two cases, by name, with the CSRF check on as a browser meets it:
    they answered 500 (issue 26)."""
    talk = f"/campaigns/{momenta_campaign.pk}/table/talk/"
    for user, url in ((None, "/login/"), (player, talk)):
        client = Client(enforce_csrf_checks=True)
        client.raise_request_exception = False
        client.get("/login/")  # the CSRF cookie
        if user:
            client.force_login(user)
        token = client.cookies[django_settings.CSRF_COOKIE_NAME].value
        body = "text=hello&username=gm".encode("utf-16")
        content_type = "application/x-www-form-urlencoded; charset=utf-16"
        response = client.generic("POST", url, body, content_type, HTTP_X_CSRFTOKEN=token)
        assert response.status_code == 400, (url, response.status_code)
        assert "UTF-8 only" in response.content.decode()


def _websocket_paths(campaign_pk: int) -> list[str]:
    """The websocket URLconf's routes with hostile arguments, and paths none routes."""
    from tables.live.routing import websocket_urlpatterns

    paths = ["/ws/", "/ws/campaigns/x/", "/ws/campaigns/", "/ws/campaigns/1", "/", "/login/"]
    paths += [f"/ws/campaigns/{campaign_pk}/extra/", "/ws/campaigns/%00/", "/ws/\u00b2/"]
    for entry in websocket_urlpatterns:
        route = str(entry.pattern)
        for value in ["99999999999999999999", "0", "-1", "\u00b2", "\u0661", "x" * 300]:
            paths.append(
                _fill(route, {arg: value for arg in re.findall(r"<(?:\w+:)?(\w+)>", route)})
            )
    return paths


@pytest.mark.django_db(transaction=True)
async def test_no_websocket_path_answers_500(momenta_campaign, gm, caplog):
    """Refused (403) or closed by the consumer, never an exception: the server
    answered "No route found" with a 500 and an error in the log (issue 26)."""
    from momenta_site.asgi import application

    browser = Client()
    await sync_to_async(browser.force_login)(gm)
    cookie = browser.cookies[django_settings.SESSION_COOKIE_NAME].value
    headers = [
        (b"origin", b"http://testserver"),
        (b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]
    failures = []
    with caplog.at_level(logging.ERROR):
        for path in _websocket_paths(momenta_campaign.pk):
            communicator = WebsocketCommunicator(application, path, headers=headers)
            try:
                accepted, _code = await communicator.connect(timeout=10)
                await communicator.disconnect()
            except Exception as error:  # the app raised: a 500 from a real server
                failures.append((path, repr(error)[:120]))
                continue
            if accepted:
                failures.append((path, "accepted"))
    # The consumers' thread keeps its connection: closed, or PostgreSQL cannot drop
    # the test database at the end.
    await database_sync_to_async(connections.close_all)()
    errors = [r.getMessage()[:120] for r in caplog.records if r.levelno >= logging.ERROR]
    assert not failures, failures
    assert not errors, errors


def _short(data: dict) -> dict:
    return {k: [v if len(v) < 20 else v[:8] + "…" for v in vs] for k, vs in data.items()}
