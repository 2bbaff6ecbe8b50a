"""2d20 play: skill tests, Determination, Momentum spends and contests.

One function per command a person can give, one module per noun: `tests`
(roll_d20_test), `rerolls` (determination_reroll), `spends` (spend_momentum,
refunds, vetoes), `resolution` (resolve_test; the scene's end closing open tests),
`contests`; `sheet` describes a test from the sheet (D20TestRequest, build_spec, the
odds preview), tables/policy/d20_records.py reads and writes the JSON a D20Test
stores, `pools` writes the rules' ledger entries, `checks` holds the read-only checks.
Each command opens a transaction, locks the campaign row, reads what it needs under
that lock, checks who may do it, lets rules/ decide, writes every pool change through
change_pool (with its reason) and appends one TableEvent.

Choices made here, where the seeds leave the table to decide:

- Target number = the character's Attribute value + Skill value (T-R1), read
  from the sheet by name.
- A focus applies only if the character has it (a Trait of kind "focus").
  With a focus, every die at or under the *skill* value scores 2 successes
  (the usual 2d20 convention); without one, only a 1 does (focus 1).
- Assisting characters roll against their own attribute + skill of the same
  names as the leader's unless the command names others (T-03).
- NPCs (is_npc) are the GM's characters: the GM buys their dice with Threat
  (MO-08, MO-13) and their unspent Momentum goes to Threat (CT-R1).
- Determination rerolls (T-04) come before any Momentum is spent: the first
  spend closes the dice.
- A secret test (TB-03) changes no pool a player sees while it is hidden: not
  the group pool, not Determination, not Threat while it is shown to players.
  Those pools are on every screen (PM-13, MO-13), and a move with no log entry
  would betray the roll. So a hidden test buys its dice only with Threat the
  players cannot see, spends only its own Momentum, and is revealed before a
  Determination reroll or before its unspent Momentum is saved to a pool they
  see; anything else is refused and changes nothing. The Momenta side refuses
  the same (services_momenta.roll_momenta: a secret roll changes no pool).
"""

from tables.policy.d20_records import holder_of, ledger_of, result_of
from tables.services.d20.checks import NOTE_MAX, require_d20, visible_test_record
from tables.services.d20.contests import cancel_contest, contest_opposer_roll
from tables.services.d20.loader import D20Rows, load_test
from tables.services.d20.pools import apply_entries
from tables.services.d20.rerolls import determination_reroll
from tables.services.d20.resolution import resolve_test
from tables.services.d20.sheet import (
    D20TestRequest,
    build_spec,
    focus,
    odds_or_refusal,
    preview_odds,
    target,
)
from tables.services.d20.spends import (
    ASSET_DEFAULT_NAME,
    refund_dont_know,
    spend_momentum,
    veto_spend,
)
from tables.services.d20.tests import roll_d20_test

__all__ = [
    "ASSET_DEFAULT_NAME",
    "NOTE_MAX",
    "D20Rows",
    "D20TestRequest",
    "apply_entries",
    "build_spec",
    "cancel_contest",
    "contest_opposer_roll",
    "determination_reroll",
    "focus",
    "holder_of",
    "ledger_of",
    "load_test",
    "odds_or_refusal",
    "preview_odds",
    "refund_dont_know",
    "require_d20",
    "resolve_test",
    "result_of",
    "roll_d20_test",
    "spend_momentum",
    "target",
    "veto_spend",
    "visible_test_record",
]
