"""Which parts of the GM tools a pushed event changes, decided from the event alone.

The GM audience's push redraws parts of the GM panel (partials/push_gm.html). Its
kind's registry entry (tables/events.py) names the regions it *may* change, an upper
bound; drawing all of them on every roll cost the GM's render twice the players'. The
kind and payload say which parts this event *does* change, and only those are drawn:

- THREAT (heading, the Threat form's `expected`, the show/hide toggle): a ledger line on
  Threat (every pool move has one, PM-13), or the settings (threat_visible, game line);
- SECRET_ROLLS / SECRET_TESTS: an event about a record still hidden (its audience is the
  GM's, policy.access.audience_of), or a reveal, which takes one off the list (TB-03);
- QUEUE (the Assist queue): an event about an Assist, or a roll that used one (its
  payload names the helper; the roll uses the Assist up, PM-08);
- CONTESTS: an event whose payload carries a contest (opened, rolled, resolved, called
  off: the only moves of a contest's state, CT-01, CT-02);
- COMPLICATIONS (the scene's complication range form, GL-05): only what writes the
  campaign's `scene_complication_range` or `complication_range` (the range set or cleared,
  a scene's end, which clears it, a settings change of the range). It is a form the GM may
  be typing into, so no other event redraws it;
- SESSION, SPENDS: only kinds not listed in _PLAY below change them.

Kinds not in _PLAY (rare: settings, sessions, scenes, characters, templates, voids…) keep
the bound, COMPLICATIONS aside. A part is also drawn only where the GM page has it
(`on_page`).
"""

from __future__ import annotations

from tables import events as kinds
from tables.models import Campaign, TableEvent
from tables.presenters.d20 import campaign_plays_d20

THREAT = "threat"  # #gm-threat-heading, #gm-threat-expected, #gm-threat-visibility
SESSION = "session"  # #gm-session-line
CONTESTS = "contests"  # #gm-open-contests (2d20)
SECRET_TESTS = "secret_tests"  # #gm-secret-tests (2d20)
SPENDS = "spends"  # #gm-custom-spends (2d20)
SECRET_ROLLS = "secret_rolls"  # #momenta-secret-list (Momenta)
QUEUE = "queue"  # #momenta-assist-queue (Momenta)
COMPLICATIONS = "complications"  # #gm-scene-complications (2d20)

# GM_TOOLS's parts
TOOLS = frozenset({SESSION, CONTESTS, SECRET_TESTS, SPENDS, SECRET_ROLLS, COMPLICATIONS})

# What each part reads (presenters.gm.gm_live_context's keys): nothing else is read.
READS = {
    SESSION: ("play_session", "scene"),
    CONTESTS: ("open_contests",),
    SECRET_TESTS: ("secret_tests",),
    SPENDS: ("custom_spends",),
    SECRET_ROLLS: ("secret_rolls",),
    COMPLICATIONS: (),  # the campaign row's two ranges
}


def on_page(campaign: Campaign) -> frozenset[str]:
    """The parts the GM's page has for this campaign (gm_panel.html)."""
    parts = {SESSION}
    if campaign.uses_group_economy:
        parts.add(THREAT)
    if campaign_plays_d20(campaign):
        parts |= {CONTESTS, SECRET_TESTS, SPENDS, COMPLICATIONS}
    if campaign.uses_d6:
        parts |= {SECRET_ROLLS, QUEUE}
    return frozenset(parts)


def gm_parts(kind: kinds.EventKind | None, event: TableEvent, campaign: Campaign) -> frozenset:
    """The parts of the GM tools `event` changes, within what its kind may change."""
    if kind is None:
        return frozenset()  # a row older than the registry refreshes nothing of these
    bound = set()
    if kinds.POOLS in kind.regions:
        bound.add(THREAT)
    if kinds.GM_TOOLS in kind.regions:
        bound |= TOOLS
    if kinds.ASSIST_QUEUE in kind.regions:
        bound.add(QUEUE)
    play = _PLAY.get(kind.name)
    changed = play(event) if play is not None else bound - {THREAT, COMPLICATIONS}
    if kind is kinds.SETTINGS_CHANGED or _moves_threat(event):
        changed = changed | {THREAT}
    if _writes_complication_range(kind, event):
        changed = changed | {COMPLICATIONS}
    return frozenset(bound & changed & on_page(campaign))


def _moves_threat(event: TableEvent) -> bool:
    return any(c.get("pool") == "threat" for c in (event.payload or {}).get("changes") or [])


def _writes_complication_range(kind: kinds.EventKind, event: TableEvent) -> bool:
    """Does the event write a range the form shows (services.game_lines, sessions.end_scene,
    campaigns.update_campaign_settings)?"""
    if kind in (kinds.COMPLICATION_RANGE_SET, kinds.SCENE_ENDED):
        return True
    if kind is kinds.SETTINGS_CHANGED:
        return "complication_range" in ((event.payload or {}).get("fields") or {})
    return False


def _hidden(event: TableEvent) -> bool:
    """About a record still hidden: such events go to the GMs alone (access.audience_of)."""
    return event.audience == TableEvent.Audience.GM


def _roll(event: TableEvent) -> set[str]:
    parts = {SECRET_ROLLS} if _hidden(event) else set()
    if (event.payload or {}).get("helper"):  # the Assist it used is used up (PM-08)
        parts.add(QUEUE)
    return parts


def _patterns(event: TableEvent) -> set[str]:
    return {SECRET_ROLLS} if _hidden(event) else set()  # the outcome in the secret list


def _test(event: TableEvent) -> set[str]:
    parts = {SECRET_TESTS} if _hidden(event) else set()
    if (event.payload or {}).get("contest"):
        parts.add(CONTESTS)
    return parts


def _assist(event: TableEvent) -> set[str]:
    return {QUEUE}


def _revealed(event: TableEvent) -> set[str]:
    return {SECRET_ROLLS, SECRET_TESTS}  # on_page keeps the one this campaign has


def _nothing(event: TableEvent) -> set[str]:
    return set()  # Threat aside (its ledger line says so)


# The kinds of play, frequent, whose GM parts follow from their payload.
_PLAY = {
    kinds.MOMENTA_ROLL.name: _roll,
    kinds.MOMENTA_PATTERNS.name: _patterns,
    kinds.ASSIST_REQUESTED.name: _assist,
    kinds.ASSIST_ANSWERED.name: _assist,
    kinds.ASSIST_CONSENT.name: _assist,
    kinds.ROLL_REVEALED.name: _revealed,
    **{
        kind.name: _test
        for kind in (
            kinds.D20_TEST,
            kinds.D20_REROLL,
            kinds.D20_SPEND,
            kinds.D20_REFUND,
            kinds.D20_VETO,
            kinds.D20_RESOLVED,
            kinds.DETERMINATION_PERMITTED,
            kinds.CONTEST_OPENED,
            kinds.CONTEST_RESOLVED,
            kinds.CONTEST_CANCELLED,
            kinds.CONTEST_FORFEITED,
        )
    },
    kinds.THREAT_ADDED.name: _nothing,
    kinds.THREAT_SPENT.name: _nothing,
    kinds.COMPLICATION_RANGE_SET.name: _nothing,  # its form aside (_writes_complication_range)
}
