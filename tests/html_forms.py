"""What a browser would submit from a form in an HTML fragment: its fields as drawn.

form_fields(html, "momenta-roll") -> {"character": ["3"], "attribute": ["LUCK"], …}
drawn_fields(html) -> the same for every field in the fragment, in a form or not (an
answer's out-of-band parts).
Checked boxes and radios, selected options (else the first), text, numbers and
hidden inputs; disabled fields and buttons are left out, as a browser leaves them.
"""

from __future__ import annotations

from html.parser import HTMLParser


class _FormReader(HTMLParser):
    def __init__(self, form_id: str | None):
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.depth = 0 if form_id else 1  # >0 inside the form (None: the whole fragment)
        self.fields: dict[str, list[str]] = {}
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []

    def _add(self, name: str, value: str) -> None:
        self.fields.setdefault(name, []).append(value)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == self.form_id:
            self.depth = 1
            return
        if not self.depth:
            return
        if tag == "form":
            self.depth += 1
        name = a.get("name")
        if "disabled" in a:
            return
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self._add(name, a.get("value", "on"))
            elif kind not in ("submit", "button", "reset", "image", "file"):
                self._add(name, a.get("value") or "")
        elif tag == "select" and name:
            self.select, self.options = name, []
        elif tag == "option" and self.select:
            self.options.append((a.get("value", ""), "selected" in a))

    def handle_endtag(self, tag):
        if not self.depth:
            return
        if tag == "select" and self.select:
            chosen = [v for v, selected in self.options if selected] or [
                v for v, _ in self.options[:1]
            ]
            for value in chosen:
                self._add(self.select, value)
            self.select = None
        elif tag == "form":
            self.depth -= 1


def form_fields(html: str, form_id: str) -> dict[str, list[str]]:
    reader = _FormReader(form_id)
    reader.feed(html)
    return reader.fields


def drawn_fields(html: str) -> dict[str, list[str]]:
    reader = _FormReader(None)
    reader.feed(html)
    return reader.fields
