"""What a character sheet may change, and who may change it (PM-12, PM-13, MO-13).

The form shows these limits (a locked box, read-only pools) and the service
(tables/services/characters.py) refuses them from any caller, in the same words.
"""

from __future__ import annotations

# The pools a sheet carries. They change through the rules and the GM (PM-13, MO-13):
# a player's sheet never sets them.
SHEET_POOLS = ("momentum", "resolve", "determination")
# Their maxima are the GM's too (RS-01): a player sets one only on a new character's sheet.
SHEET_MAXIMA = ("resolve_max",)
# PM-12: creation makes Momentum free, so once out of it only a GM may put it back.
BACK_INTO_CREATION = "Only the GM can put a character back into character creation."
POOLS_REFUSAL = (
    "{character}'s {pool} changes through play and the GM, not the sheet: ask the GM. "
    "Nothing was saved."
)
