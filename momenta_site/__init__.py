# The release (CHANGELOG.md); pyproject.toml's version says the same (tests/deploy/test_release.py).
__version__ = "0.3.0"
