"""How a 2d20 command moves pools: the rules' ledger entries written as pool changes,
bought dice paid for (MO-08, MO-13), Determination spent before the roll (GL-02,
GL-03), and the secrecy of a hidden test kept (TB-03)."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext, gettext_lazy

from rules.game_lines import BONUS_ONE, SET_ONE, STACKED_DECK
from rules.ledger import DETERMINATION, GM, GROUP_MOMENTUM, PLAYER, THREAT, LedgerEntry
from rules.momentum import GroupPool, Threat, buy_d20s, d20_purchase_cost, pay_for_assistants
from tables.errors import refused_by_rules
from tables.models import Campaign, Character, Membership, PoolChange
from tables.services.core import Change, ServiceError, StaleState, change_pool, players_see
from tables.words.said import words

NOTHING_PAID = {"cost": 0, "from_momentum": 0, "to_threat": 0, "threat_spent": 0}

# What one point of the personal pool buys before the roll, in the ledger's words.
BEFORE_ROLL_WORDS = {
    BONUS_ONE: gettext_lazy("a bonus d20 showing 1 (GL-02)"),
    SET_ONE: gettext_lazy("one d20 set to 1 (GL-03)"),
    STACKED_DECK: gettext_lazy("Stacked Deck: LCK instead of the attribute (GL-02)"),
}


def group_pool(campaign: Campaign) -> GroupPool:
    """The group pool as the rules see it, with the game line's cap (MO-06, GL-01)."""
    return GroupPool(campaign.group_momentum, own_cap=campaign.group_cap)


def keep_secret(campaign: Campaign, hidden: bool, changes: list[Change], instead: str) -> None:
    """TB-03: a hidden test moves no pool the players see (see the package docstring).

    Called inside the transaction after the changes are made: raising rolls them back.
    """
    seen = sorted(
        {str(PoolChange.Pool(c.pool).label) for c in changes if players_see(campaign, c.pool)}
    )
    if hidden and seen:
        raise ServiceError(
            gettext(
                "A secret test cannot change %(pools)s: every player would see it move. %(instead)s"
            )
            % {"pools": " or ".join(seen), "instead": instead}
        )


def apply_entries(
    campaign: Campaign,
    entries: Iterable[LedgerEntry],
    *,
    who: str,
    character: Character | None = None,
    expected_momentum: int | None = None,
    fresh: bool = False,
) -> list[Change]:
    """Write rules' ledger entries as pool changes, in order, each with its reason.

    `expected_momentum` is the group pool the person saw: if it moved since,
    StaleState is raised before anything is written (the transaction rolls back).
    `fresh`: the campaign's pools were read with its lock (change_pool's `fresh`).
    """
    changes = []
    for entry in entries:
        reason = f"{who}: {entry.reason}"[:200]
        sentence = entry.reason_words and words("%(who)s: %(reason)s", who=who,
                                                reason=entry.reason_words)  # fmt: skip
        if entry.pool in (GROUP_MOMENTUM, THREAT):
            expected = expected_momentum if entry.pool == GROUP_MOMENTUM else None
            owner = None
        elif entry.pool == DETERMINATION:
            expected, owner = None, character
        else:  # pragma: no cover - the 2d20 rules touch no other pool
            raise ValueError(f"unexpected pool {entry.pool!r}")
        # Hand change_pool what the rules asked for; rules.pools works out the
        # cap for both, so the line written is the entry, or the pool moved.
        change = change_pool(
            campaign,
            entry.pool,
            entry.requested,
            reason,
            character=owner,
            expected=expected,
            fresh=fresh and owner is None,
            reason_words=sentence or None,
        )
        if (change.delta, change.lost, change.after) != (entry.delta, entry.lost, entry.after):
            raise StaleState(gettext("The pools changed while this was worked out; try again."))
        changes.append(change)
    return changes


def buy_dice(
    campaign: Campaign,
    character: Character,
    membership: Membership,
    dice: int,
    from_momentum: int,
    expected_momentum: int | None,
    assistants: int = 0,
) -> tuple[dict, list[Change]]:
    """MO-08, MO-13, GL-06: pay for bought d20s and the assistants a line charges for
    (STA 2nd ed.: after the first). Players pay `from_momentum` from the group pool (the
    dice first), the rest added to Threat; the GM pays an NPC's from Threat."""
    line = campaign.line
    extra = line.assistance_cost(assistants)
    if not dice and not extra:
        if from_momentum:
            raise ServiceError(
                gettext("Nothing to pay before this roll, so nothing to pay it with.")
            )
        return dict(NOTHING_PAID), []
    npc = character.is_npc
    if npc and not membership.is_gm:  # pragma: no cover - can_control already refused
        raise PermissionDenied(gettext("Only the GM buys dice for NPCs."))
    with refused_by_rules():
        dice_cost = d20_purchase_cost(dice)
        if not npc:
            _check_split(from_momentum, dice_cost + extra, line.group_pool)
        payers = {"actor": GM if npc else PLAYER, "gm_pool": campaign.book_line.gm_pool}
        momentum = None if npc else group_pool(campaign)
        # An NPC's Momentum goes on whole, for the rules to refuse (MO-13).
        for_dice = from_momentum if npc else min(from_momentum, dice_cost)
        bought = buy_d20s(
            dice, threat=Threat(campaign.threat), momentum=momentum, from_momentum=for_dice,
            **payers,
        )  # fmt: skip
        helpers = pay_for_assistants(
            extra, threat=bought.threat, momentum=bought.momentum,
            from_momentum=from_momentum - for_dice, **payers,
        )  # fmt: skip
    # Both callers hand over the campaign they just locked: its pools are current.
    changes = apply_entries(
        campaign,
        bought.entries + helpers.entries,
        who=character.name,
        expected_momentum=expected_momentum,
        fresh=True,
    )
    return _paid(bought, helpers, extra), changes


def _check_split(from_momentum, cost: int, pool: str) -> None:
    """A player pays at most the whole cost from the group pool; a split within the
    dice's cost gets the rules' own words."""
    if isinstance(from_momentum, int) and from_momentum > cost:
        raise ServiceError(
            gettext("Pay between 0 and %(cost)d of the %(cost)d from %(pool)s.")
            % {"cost": cost, "pool": pool}
        )


def _paid(bought, helpers, extra: int) -> dict:
    """What the dice and the assistants cost together, as the roll's card records it."""
    paid = {
        "cost": bought.cost + helpers.cost,
        "from_momentum": bought.from_momentum + helpers.from_momentum,
        "to_threat": bought.to_threat + helpers.to_threat,
        "threat_spent": bought.threat_spent + helpers.threat_spent,
    }
    if extra:
        paid["assistants_paid"] = extra  # GL-06: the card says what the cost was for
    return paid


def determination_before_roll(campaign: Campaign, character: Character) -> Change:
    """GL-02, GL-03: 1 point of the line's personal pool, spent as the test is rolled."""
    line = campaign.line
    reason = gettext("%(name)s: %(pool)s for %(what)s") % {
        "name": character.name,
        "pool": line.personal_pool,
        "what": BEFORE_ROLL_WORDS[line.personal_spend],
    }
    if character.determination < 1:
        raise ServiceError(
            gettext("%(character)s has no %(personal_pool)s left to spend.")
            % {"character": character.name, "personal_pool": line.personal_pool}
        )
    return change_pool(campaign, DETERMINATION, -1, reason, character=character)
