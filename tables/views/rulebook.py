"""The rules the table follows (docs/rules.md, issue 36), served as a page so that a
§ mark can open it at its clause (`rules/#PM-05`).

Open to anyone, signed in or not: the rules of the game hold no one's secrets, and a
link to a clause works from a Discord post or a sign-up page alike. The document is
the project's own file, so its HTML (the clause anchors) passes through as written.
"""

from __future__ import annotations

import functools

import markdown
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

RULES_DOC = settings.BASE_DIR / "docs" / "rules.md"


@functools.lru_cache(maxsize=1)
def _rendered(modified: float) -> str:
    """The document as HTML, drawn once per version of the file (`modified`, its mtime)."""
    return markdown.markdown(RULES_DOC.read_text(encoding="utf-8"))


@require_safe
def rules_page(request: HttpRequest) -> HttpResponse:
    body = mark_safe(_rendered(RULES_DOC.stat().st_mtime))
    return render(request, "tables/rules.html", {"rules": body})
