"""Moved to tables/models/sheets.py: reading a sheet is a model query, used by forms
and services alike (the 2d20 composer and both rolls)."""

from tables.models.sheets import PARTS, prefetch_sheet  # noqa: F401
