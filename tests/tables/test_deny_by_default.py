"""Deny by default (issue 34, TB-03, MO-09b, MO-13): what a player or observer may not
see answers, on every read-only endpoint, exactly as if it were not there.

Both tables are in play with everything a GM keeps back (tests/secrets_in_play.py: a
hidden board trait, secret rolls, a GM-only note, another player's message to the GM,
hidden Difficulties), their ids made distinctive so an id is found as surely as a text.

The URLs come from the URLconf, so a new endpoint is walked without touching this
file; each is asked with the secrets' ids wherever an id fits (path arguments, the
odds previews' trait marks, a log page's cursor, a ledger's subject).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tables.models import (
    AssistRequest,
    CustomSpend,
    Membership,
    RollTemplate,
    SceneTrait,
    TableEvent,
)
from tests.html_forms import form_fields
from tests.secrets_in_play import leaks_in, put_secrets_in_play

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def secrets(momenta_campaign, d20_campaign, hero, sidekick, kara, marcus, gm, player2):
    return put_secrets_in_play(
        momenta_campaign, d20_campaign, gm=gm, player2=player2, hero=hero, sidekick=sidekick,
        kara=kara,
    )  # fmt: skip


def _patterns(resolver=None, prefix=""):
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if not route.startswith("admin/"):
                yield from _patterns(entry, route)
        elif isinstance(entry, URLPattern):
            yield route


def _fill(route: str, args: dict) -> str | None:
    names = re.findall(r"<(?:\w+:)?(\w+)>", route)
    if any(n not in args for n in names):
        return None
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(args[m.group(1)]), route)


def _urls(campaigns, ids, composers) -> list[tuple[str, dict]]:
    """(url, GET parameters) for every route, on both tables, with the secrets' ids."""
    momenta_campaign, d20_campaign = campaigns
    asked = []
    for table, campaign, trait_id in (
        ("momenta", momenta_campaign, ids["trait"][0]),
        ("d20", d20_campaign, ids["trait"][1]),
    ):
        args = {
            "pk": campaign.pk,
            "roll_pk": ids["roll"],
            "tid": ids["test"],
            "cpk": campaign.characters.first().pk,
            "member_pk": Membership.objects.get(
                campaign=campaign, role="gm", user=campaign.owner
            ).pk,
            "token": campaign.invite_token,
            "index": 0,
            "seq": campaign.last_seq,
            "cid": ids["call"],
            "assist_pk": AssistRequest.objects.first().pk,
            "template_pk": RollTemplate.objects.first().pk,
            "sid": CustomSpend.objects.first().pk,
        }
        composer = composers[table]
        marked = [
            composer | {"hinders": [str(trait_id)]},
            composer | {"helps": [str(trait_id)], "secret": ["on"]},
        ]
        for route in _patterns():
            url = _fill(route, args)
            if url is None:
                continue
            asked.append((url, {}))
            if url.endswith(("/odds/", "/composer/", "/table/", "/reference/")):
                asked += [(url, params) for params in marked]
            if url.endswith("/calls/odds/"):
                asked += [(url, composers["d20"] | {"call": [str(ids["call"])]})]
            if url.endswith("/table/log/"):
                asked += [
                    (url, {"before": str(campaign.last_seq + 1), "show": show})
                    for show in ("all", "everything", "rolls", "talk", "pools")
                ]
            if url.endswith("/table/ledger/"):
                asked += [
                    (url, {"pool": pool, **who})
                    for pool in ("threat", "group_momentum", "momentum", "determination")
                    for who in ({}, {"character": str(args["cpk"])})
                ]
    return asked


def _composers(campaigns, player) -> dict[str, dict]:
    """What the player's composers send as drawn (their own character chosen)."""
    client = Client()
    client.force_login(player)
    found = {}
    for table, form_id, campaign in (
        ("momenta", "momenta-roll", campaigns[0]),
        ("d20", "d20-composer", campaigns[1]),
    ):
        page = client.get(f"/campaigns/{campaign.pk}/table/").content.decode()
        found[table] = form_fields(page, form_id)
        assert found[table], f"no {form_id} on the player's table page"
    return found


@pytest.mark.parametrize("role", ["player", "observer"])
def test_no_read_only_endpoint_shows_a_player_or_observer_what_the_gm_keeps(
    role, secrets, momenta_campaign, d20_campaign, player, client_for
):
    campaigns = (momenta_campaign, d20_campaign)
    before = TableEvent.objects.count()
    client = client_for(role)
    leaks, asked = [], 0
    for url, params in _urls(campaigns, secrets, _composers(campaigns, player)):
        for headers in ({}, HX):
            response = client.get(url, params, **headers)
            asked += 1
            body = response.content.decode(errors="replace")
            body += " ".join(f"{k}: {v}" for k, v in response.items())
            for label in leaks_in(body, secrets):
                shown = {k: v for k, v in params.items() if k != "csrfmiddlewaretoken"}
                leaks.append(f"{url} {shown} {'(htmx)' if headers else ''}: {label}")
    assert asked > 300  # the walk reached every route, not a handful
    assert not leaks, "\n".join(sorted(set(leaks)))
    assert TableEvent.objects.count() == before  # reading changed nothing


@pytest.mark.parametrize("table", ["momenta", "d20"])
def test_a_hidden_traits_id_answers_a_player_exactly_as_a_missing_one(
    table, secrets, momenta_campaign, d20_campaign, player, client_for
):
    """Not the same meaning in other words, nor another length: the same answer."""
    campaigns = (momenta_campaign, d20_campaign)
    campaign, trait_id = {
        "momenta": (momenta_campaign, secrets["trait"][0]),
        "d20": (d20_campaign, secrets["trait"][1]),
    }[table]
    composer = _composers(campaigns, player)[table]
    missing = 990_000
    assert not SceneTrait.objects.filter(pk=missing).exists()
    client = client_for("player")
    url = f"/campaigns/{campaign.pk}/{table}/odds/"

    def answer(mark, trait):
        got = client.get(url, composer | {mark: [str(trait)]}, **HX)
        return got.status_code, got.content.decode().replace(str(trait), "ID")

    for mark in ("helps", "hinders"):
        hidden, absent = answer(mark, trait_id), answer(mark, missing)
        assert hidden == absent
        assert "not on this table" in absent[1]  # a refusal, not an empty answer


# --- No reader filter has a default -------------------------------------------------------
# A parameter by one of these names tells a function who is reading (or what they may
# see); a default would let a caller that forgets it show everything, as the Momenta
# odds preview once showed hidden traits' text to players.
READER_PARAMS = {
    "audience",
    "audiences",
    "viewer",
    "viewer_id",
    "actor_id",
    "private_to",
    "is_gm",
    "gm",
    "sees_hidden",
}
NOT_A_READER = {
    # The writer: records who may read the event it appends; every reader is filtered
    # by the stored audience (access.sees_event), and GM-only and private kinds refuse ALL.
    ("tables/services/core.py", "append_event", "audience"),
    ("tables/services/discord.py", "set_webhooks", "gm"),  # the GMs' webhook URL
}


def _defaults(function) -> set[str]:
    """The names of `function`'s parameters that have a default."""
    args = function.args
    positional = [a.arg for a in args.posonlyargs + args.args]
    named = positional[len(positional) - len(args.defaults) :]
    keywords = [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d]
    return {*named, *keywords}


def test_no_function_that_filters_for_a_reader_has_a_default_reader():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    defaulted = []
    for path in sorted(
        [*root.joinpath("tables").rglob("*.py"), *root.joinpath("rules").rglob("*.py")]
    ):
        if "migrations" in path.parts:
            continue
        where = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for name in READER_PARAMS & _defaults(node):
                if (where, node.name, name) not in NOT_A_READER:
                    defaulted.append(f"{where}:{node.lineno} {node.name}({name}=…)")
    assert not defaulted, "\n".join(defaulted)
