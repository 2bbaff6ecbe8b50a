"""Limits on what a person may ask of the table, shared by the forms (which refuse
it politely) and the services (which refuse it from any caller).

Not rules of the game: they keep roll cards and allocation lists readable.
"""

MAX_POOL = 30  # dice in a pool, and in an opposition roll
MAX_MODIFIERS = 10  # dice modifiers on one roll
MAX_MODIFIER = 20  # dice one modifier adds or removes
MAX_TRAUMA = 20  # trauma points recorded at once
MAX_INVITE_USES = 1000  # joins the GM may allow through one invite link
NOTE_MAX = 120  # characters in a challenge roll's note
