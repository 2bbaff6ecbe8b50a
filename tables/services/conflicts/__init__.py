"""Conflicts (issue 24): turn order (turns.py)."""
