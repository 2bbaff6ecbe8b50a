"""Collected static files, minified (issue 29): comments and spacing cost every visitor
bytes and parse time, and the sources keep them for the next reader.

collectstatic saves each file through `_save` (Django's hook for custom storages), then
ManifestStaticFilesStorage hashes what was saved: so the hashed name is that of the
minified bytes, and whitenoise's gzip and brotli copies are made from them. Files named
`.min.` (htmx, the admin's vendored libraries) are minified already.

The demo's files get gzip copies only: brotli on the admin's ~350 files costs ~7 s of
CPU at each start, against ~1 s for the rest, and gzip already takes ~70 % off the page's
stylesheet and scripts.
"""

from __future__ import annotations

from pathlib import PurePath

from django.core.files.base import ContentFile
from rcssmin import cssmin
from rjsmin import jsmin
from whitenoise.storage import CompressedManifestStaticFilesStorage

# /*! ... */ comments are licences: kept.
MINIFIERS = {
    ".css": lambda text: cssmin(text, keep_bang_comments=True),
    ".js": lambda text: jsmin(text, keep_bang_comments=True),
}


def minified(name: str, text: str) -> str | None:
    """`text` minified if `name` is a stylesheet or script not minified yet, else None."""
    path = PurePath(name)
    minify = MINIFIERS.get(path.suffix)
    if minify is None or ".min" in path.suffixes:
        return None
    return minify(text)


class Minify:
    """A storage mixin: stylesheets and scripts saved minified."""

    def _save(self, name, content):
        if PurePath(name).suffix in MINIFIERS:
            content.seek(0)
            text = minified(name, content.read().decode("utf-8"))
            if text is not None:
                content = ContentFile(text.encode("utf-8"))
        return super()._save(name, content)


class MinifiedStaticFilesStorage(Minify, CompressedManifestStaticFilesStorage):
    """Production's: hashed, minified, with gzip and brotli copies."""


class DemoStaticFilesStorage(Minify, CompressedManifestStaticFilesStorage):
    """The demo's: hashed, minified, with gzip copies."""

    def create_compressor(self, **kwargs):
        return super().create_compressor(**kwargs, use_brotli=False)
