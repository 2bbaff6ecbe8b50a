"""The game engine: pure Python. The only Django import is in apps.py."""
