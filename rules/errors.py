"""Exceptions the engine raises; each message is written for a player to read."""


class RulesError(Exception):
    """Base for every refusal by the rules. str(error) is shown to the player."""
