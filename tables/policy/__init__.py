"""Who may do what, and the limits a command is held to: reads only, never a write.

Forms, presenters, views and services all ask here, so a rule is written once
and nothing that only asks depends on a module that writes. Only models and the
event registry are imported.

- access.py: membership, roles, control of a character, secrecy, who sees an event.
- characters.py: what a character sheet may change, and the refusals' words.
"""
