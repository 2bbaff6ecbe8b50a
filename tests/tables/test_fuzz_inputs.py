"""No input answers 500 (issues 12, 26): every URL of the app, hostile values in every field.

The URLs come from the URLconf, so a new endpoint is covered without touching this
file; its fields come from the forms and htmx controls the pages draw (what a
browser would send), with one field at a time replaced by a hostile value. Roles:
GM, player, observer and anonymous, with DEBUG off. A refusal (4xx) changes nothing:
no event, no pool moved. Every URL also gets form bodies in other charsets, with the
CSRF check on as a browser meets it, and the websocket URLconf gets hostile and
unrouted paths. CI's second stage runs this file on PostgreSQL and Redis too.
"""

from __future__ import annotations

import itertools
import logging
import re
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlsplit

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.db import connections
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
from tables.services import momenta, sessions
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

# The GM passes every door: every value in all fields at once, and "²" in each field
# alone (a field's own parsing); the others are mostly stopped at the door.
ROLES = {
    "gm": (HOSTILE + [LISTED], ["²"]),
    "player": (HOSTILE[:3], []),
    "observer": (HOSTILE[:1], []),
    "anonymous": (HOSTILE[:1], []),
}
# Last, so the rest of the run keeps its session and its members.
LAST = ("member_promote", "member_remove", "signup", "login", "logout")


class _Forms(HTMLParser):
    """Every form (and htmx control) of a page: (method, path, {field: [values]})."""

    def __init__(self, page: str = ""):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.found: list[tuple[str, str, dict]] = []
        self.stack: list[dict] = []  # open forms' field dicts
        self.select: tuple[str, list] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and not any(k in a for k in ("action", "hx-get", "hx-post")):
            a["action"] = self.page  # a form without an action posts to its page
        for attr, method in (("hx-get", "GET"), ("hx-post", "POST"), ("action", None)):
            target = a.get(attr)
            if not target or target.startswith(("data:", "#")):
                continue
            split = urlsplit(target)
            fields: dict[str, list[str]] = {}
            for k, v in parse_qsl(split.query, keep_blank_values=True):
                fields.setdefault(k, []).append(v)
            verb = method or (a.get("method") or "get").upper()
            if tag == "form":
                self.stack.append(fields)
            elif self.stack and a.get("hx-include") == "closest form":
                fields = self.stack[-1]  # sent with the enclosing form's fields
            self.found.append((verb, split.path, fields))
        name = a.get("name")
        if not name or not self.stack or "disabled" in a:
            return
        fields = self.stack[-1]
        if tag in ("input", "textarea"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind not in ("submit", "button", "reset", "image", "file"):
                fields.setdefault(name, []).append(a.get("value") or "")
        elif tag == "select":
            self.select = (name, [])
        elif tag == "option" and self.select:
            self.select[1].append(a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "select" and self.select and self.stack:
            name, options = self.select
            self.stack[-1].setdefault(name, []).append(options[0] if options else "")
            self.select = None
        elif tag == "form" and self.stack:
            self.stack.pop()


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
    """Both tables mid-play: a session and scene, a roll waiting for its patterns, an
    Assist asked, a 2d20 test with a spend, a contest and a custom spend."""
    monkeypatch.setattr(momenta.rolls, "system_random", lambda: FixedDice([5, 5, 5, 1, 2, 3] * 500))
    d20_dice = FixedDice([1, 2, 3] * 500)
    monkeypatch.setattr(rules.d20, "_rng", lambda rng: d20_dice if rng is None else rng)
    for campaign in (momenta_campaign, d20_campaign):
        sessions.start_session(campaign.pk, gm)
        sessions.start_scene(campaign.pk, gm, "Opening")
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
    Contest.objects.create(campaign=d20_campaign, opposer=marcus, active=kara, actor=gm)
    CustomSpend.objects.create(campaign=d20_campaign, name="Favour", cost=1)
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


def _harvest(urls: set[str]) -> dict[tuple[str, str], dict]:
    """(method, path) -> the fields its forms send, from every page a GM or player sees."""
    found: dict[tuple[str, str], dict] = {}
    for role in ("gm", "player"):
        client = Client()
        client.force_login(Membership.objects.filter(role=role).first().user)
        for url in sorted(urls):
            response = client.get(url, **HX) if "/d20/tests/" in url else client.get(url)
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            reader = _Forms(url)
            reader.feed(response.content.decode())
            for method, path, fields in reader.found:
                merged = found.setdefault((method, path), {})
                for name, values in fields.items():
                    merged.setdefault(name, values)
    return found


def _state():
    pools = list(
        Campaign.objects.order_by("pk").values_list("group_momentum", "threat", "invite_token")
    )
    sheets = list(
        Character.objects.order_by("pk").values_list("momentum", "resolve", "determination")
    )
    return TableEvent.objects.count(), pools, sheets, Membership.objects.count()


def _requests(routes, ids, forms, together, alone):
    """(method, url, data) for every endpoint: its fields as drawn, then hostile values
    in all of them at once (a list: each field repeated), then in one field at a time."""
    for route, _name in sorted(routes, key=lambda r: r[1] in LAST and LAST.index(r[1])):
        for table in _tables_for(route):
            args = ids[table]
            url = _fill(route, args)
            drawn = {m: f for (m, p), f in forms.items() if p == url}
            for method, fields in (drawn or {"GET": {}, "POST": {}}).items():
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


def test_no_input_answers_500(world, settings, client_for):
    settings.DEBUG = False
    routes = list(_patterns())
    ids = _ids(*world)
    pages = {_fill(r, a) for r, _ in routes for a in ids.values() if "<str:token>" not in r}
    forms = _harvest(pages)
    failures, refused_changes, sent = [], [], 0
    for role, (together, alone) in ROLES.items():
        client = client_for(role)
        client.raise_request_exception = False
        for method, url, data in _requests(routes, ids, forms, together, alone):
            before = _state()
            send = client.post if method == "POST" else client.get
            response = send(url, data, **HX)
            sent += 1
            if response.status_code >= 500:
                failures.append((role, method, url, _short(data), response.status_code))
            elif response.status_code >= 400 and _state() != before:
                refused_changes.append((role, method, url, _short(data), response.status_code))
    print(f"fuzz: {sent} requests, {len(failures)} answered 5xx")
    assert not failures, f"{len(failures)} of {sent} requests answered 5xx:\n" + "\n".join(
        map(str, failures[:40])
    )
    assert not refused_changes, "refused but changed state:\n" + "\n".join(
        map(str, refused_changes[:20])
    )
    # SQLite stores NUL; PostgreSQL refuses it with a 500: it must never get that far.
    assert not _stored_nul(), _stored_nul()


def _stored_nul() -> list[str]:
    """Text columns of the app's records that hold a NUL character."""
    from django.apps import apps
    from django.db import models

    found = []
    for model in [
        *apps.get_app_config("tables").get_models(),
        Campaign._meta.get_field("owner").related_model,
    ]:
        for field in model._meta.concrete_fields:
            if isinstance(field, models.CharField | models.TextField):
                # In Python: SQLite's LIKE ends a pattern at its NUL.
                values = model.objects.values_list(field.name, flat=True)
                if any("\x00" in (v or "") for v in values):
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
    data = next(f for m, p, f in reader.found if p == url and m == "POST")
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


def test_no_form_charset_answers_500(world, settings):
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
    for role in ("gm", "anonymous"):
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
