"""Who may do what, the limits a command is held to, and what the table's state reads as:
reads only, never a write.

Forms, presenters, template tags, views and services all ask here, so a rule is written
once and nothing that only asks depends on a module that writes: nothing here imports
tables/services/ (tests/test_code_shape.py holds it). Refusals are tables/errors.py's.

- access.py: membership, roles, control of a character, secrecy, who sees an event.
- characters.py: what a character sheet may change, and the refusals' words.
- turns.py, calls.py, play.py, game_lines.py, harm_rules.py: where a conflict's turn
  order, the GM's calls, the session and scene stand; what the game line offers.
- roll_plans.py, d20_records.py, board_traits.py: a Momenta roll planned before the
  dice fall, a 2d20 test's stored record read back, the board's traits a roll may mark.
"""
