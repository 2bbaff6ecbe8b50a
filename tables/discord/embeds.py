"""What an event posts to Discord, and to which webhook.

Rolls, their results, pool changes, harm, extended tasks and a conflict's start, rounds
and end are posted; talk about the table itself
(settings, members, invites, notes) is not. An event for everyone goes to the
table's webhook, without Threat while the GM hides it (MO-13); an event for the GM
only (a secret roll, hidden Threat) goes to the GM's webhook, never the table's.
Built from the event in memory, after commit: no query for a campaign without webhooks.
The words come from the event: its payload (summary, changes), the registry's label
(events.label_of, as the log's) and tables/words/ for a pool change — never from the
page's presenters.
Worded in the campaign's language (notify.py draws it under translation.override).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tables import events as kinds
from tables.models import Campaign, TableEvent
from tables.policy.access import NAMED_KINDS
from tables.words.wording import pool_adjusted, pool_label, pool_name

PUBLIC = "public"
GM = "gm"

# Kinds posted even without a pool change: the rolls and what became of them.
ROLL_KINDS = frozenset(
    kind.name
    for kind in (
        kinds.MOMENTA_ROLL,
        kinds.MOMENTA_PATTERNS,
        kinds.ASSIST_ANSWERED,
        kinds.TRAUMA,
        kinds.ROLL_REVEALED,
        kinds.D20_TEST,
        kinds.D20_REROLL,
        kinds.D20_SPEND,
        kinds.D20_REFUND,
        kinds.D20_VETO,
        kinds.D20_RESOLVED,
        kinds.CONTEST_OPENED,
        kinds.CONTEST_RESOLVED,
        kinds.POOL_ADJUSTED,
        kinds.THREAT_ADDED,
        kinds.THREAT_SPENT,
        # Issue 24: harm moved (a hidden NPC's is the GM audience's: the GM's channel only)
        # and an extended task opened, fed or completed (SC-02, SC-03).
        kinds.HARM_APPLIED,
        kinds.EXTENDED_TASK,
    )
)
# A conflict's turn order (SC-01) posts when it starts, a round begins and it ends; each
# turn taken or kept would be chatter (Keep the Initiative posts anyway: it pays a pool).
CONFLICT_NEWS = frozenset({"started", "new_round", "ended"})

USERNAME = "Momenta Table"
COLOURS = {PUBLIC: 0x3B6EA5, GM: 0x8B2E2E}
# Discord refuses a message over these (https://discord.com/developers/docs/resources/message).
TITLE_MAX, DESCRIPTION_MAX, FIELD_NAME_MAX, FIELD_VALUE_MAX, FIELDS_MAX = 256, 4096, 256, 1024, 25


@dataclass(frozen=True)
class Post:
    target: str  # PUBLIC or GM: which of the campaign's webhooks
    url: str
    body: dict


def post_for(event: TableEvent, campaign: Campaign) -> Post | None:
    """The one post this event makes, or None (no webhook for its audience, or not posted)."""
    if event.kind in NAMED_KINDS or event.audience == TableEvent.Audience.NAMED:
        # A message to the GM, a whisper: for the people it names (and GMs): never a channel.
        return None
    secret = event.audience == TableEvent.Audience.GM
    target, url = (
        (GM, campaign.discord_gm_webhook_url) if secret else (PUBLIC, campaign.discord_webhook_url)
    )
    parked = campaign.discord_gm_webhook_parked_at if secret else campaign.discord_webhook_parked_at
    if not url or parked:  # parked: it kept failing; a GM resumes it (services/discord.py)
        return None
    show_threat = secret or campaign.threat_visible
    changes = [
        c
        for c in (event.payload or {}).get("changes") or []
        if isinstance(c, dict) and (show_threat or c.get("pool") != "threat")
    ]
    news = _board_news(event, secret) or _conflict_news(event)
    if event.kind not in ROLL_KINDS and not changes and not news:
        return None
    return Post(target, url, body(event, campaign, changes, secret=secret))


def body(event: TableEvent, campaign: Campaign, changes: list[dict], *, secret: bool) -> dict:
    payload = event.payload or {}
    label = kinds.label_of(event.kind, campaign.line)  # GL-01: "Doom added" at a Conan table
    who = payload.get("character") or payload.get("target") or _actor_name(event)
    title = _("%(who)s: %(what)s") % {"who": who, "what": label} if who else str(label)
    if secret:
        title = _("Secret · %(title)s") % {"title": title}
    lines = [_summary(event, payload, campaign)]
    dice = _dice(payload)
    if dice:
        lines.append(dice)
    embed = {
        "title": _cut(title, TITLE_MAX),
        "description": _cut("\n".join(line for line in lines if line), DESCRIPTION_MAX),
        "color": COLOURS[GM if secret else PUBLIC],
        "fields": [_change_field(c, campaign) for c in changes[:FIELDS_MAX]],
        "footer": {"text": _cut(f"{campaign.name} · #{event.seq}", 2048)},
    }
    if event.created_at:
        embed["timestamp"] = event.created_at.isoformat()
    # allowed_mentions: a character named "@everyone" must not ping the whole server.
    return {"username": USERNAME, "allowed_mentions": {"parse": []}, "embeds": [embed]}


# The scene board's changes a channel hears of (issue 23): a trait made, removed or shown.
# Never a hidden one's (its events are the GM audience's), not even on the GM's channel.
BOARD_NEWS = frozenset({"added", "removed", "revealed"})


def _board_news(event: TableEvent, secret: bool) -> bool:
    if event.kind != kinds.BOARD_TRAIT.name or secret:
        return False
    return (event.payload or {}).get("action") in BOARD_NEWS


def _conflict_news(event: TableEvent) -> bool:
    return event.kind == kinds.TURN.name and (event.payload or {}).get("action") in CONFLICT_NEWS


def _actor_name(event: TableEvent) -> str:
    return event.actor.get_username() if event.actor_id else ""


def _summary(event: TableEvent, payload: dict, campaign: Campaign) -> str:
    if payload.get("summary"):
        return str(payload["summary"])
    if event.kind == kinds.POOL_ADJUSTED.name:
        pool = str(payload.get("pool", ""))
        return pool_adjusted(payload, pool_name(campaign, pool, pool_label(pool)))
    return ""


def _dice(payload: dict) -> str:
    """The faces as rolled: a Momenta roll's (and its opposition's), or a 2d20 test's."""
    result = payload.get("result") if isinstance(payload.get("result"), dict) else {}
    faces = payload.get("faces") or result.get("faces") or []
    text = _("Dice: %(faces)s") % {"faces": " · ".join(str(f) for f in faces)} if faces else ""
    opposition = payload.get("opposition_faces") or []
    if opposition:
        text = _("%(dice)s vs %(opposition)s") % {
            "dice": text,
            "opposition": " · ".join(str(f) for f in opposition),
        }
    return text


def _change_field(change: dict, campaign: Campaign) -> dict:
    key = str(change.get("pool", ""))
    pool = pool_name(campaign, key, pool_label(key))  # GL-01
    name = (
        _("%(character)s's %(pool)s") % {"character": change["character"], "pool": pool}
        if change.get("character")
        else pool
    )
    value = f"{int(change.get('delta', 0)):+d} → {change.get('after')}"
    if change.get("lost"):
        value += " " + _("(%(lost)s lost beyond the cap)") % {"lost": change["lost"]}
    if change.get("reason"):
        value += f"\n{change['reason']}"
    return {
        "name": _cut(name, FIELD_NAME_MAX),
        "value": _cut(value, FIELD_VALUE_MAX),
        "inline": True,
    }


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
