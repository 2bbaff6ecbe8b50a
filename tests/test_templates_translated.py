"""Every word a template shows goes through Django's translation tags (issue 28).

The guard walks every template under templates/ and reports, as file:line, English that
would reach a reader untranslated: text between tags, the readable attributes (title,
aria-label, placeholder, alt, confirmations, tab labels, the value of an input button),
and literal words handed to a filter or an include (`default:"none"`, `label="Roll"`),
which must be `_("...")`. It ignores what is already inside {% translate %} or
{% blocktranslate %}, Django comments, variables and tags, and script and style contents.
"""

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

# Django's own token pattern (django.template.base.tag_re): tokens never span lines.
TOKEN = re.compile(r"{%.*?%}|{{.*?}}|{#.*?#}")
# Attributes a reader sees or hears (screen readers speak aria-label and title).
READABLE = {
    "title",
    "aria-label",
    "aria-description",
    "aria-roledescription",
    "placeholder",
    "alt",
    "label",
    "hx-confirm",
    "data-confirm",
    "data-gm-tab",
}
BUTTON_INPUTS = {"submit", "button", "reset"}
# Literal words given to a filter or an include: `|default:"none"`, `with label="Roll"`.
# A default that is a CSS selector or a short code ("#queue", "ic") is not a word.
LITERAL_ARG = re.compile(
    r"""\|(?:default|default_if_none|yesno):("[^"#.\[]*[A-Za-z]{3}[^"]*"|'[^'#.\[]*[A-Za-z]{3}[^']*')"""
    r"""|\b(?:label|title|text|heading|summary|hint|message|caption)=("[^"]*"|'[^']*')"""
)
PLURALIZE = re.compile(r"\|\s*pluralize\b")
ENTITY = re.compile(r"&#?\w+;")
ALPHA = re.compile(r"[A-Za-z]")


@dataclass(frozen=True)
class Finding:
    line: int
    what: str
    text: str


def _skipped_spans(src):
    """Spans a reader never sees untranslated: comments, translation blocks, class blocks."""
    spans, open_tag, start = [], None, 0
    for m in TOKEN.finditer(src):
        tok = m.group()
        inner = tok[2:-2].strip()
        word = inner.split(" ", 1)[0] if tok.startswith("{%") else ""
        if open_tag:
            if word == open_tag:
                spans.append((start, m.end()))
                open_tag = None
            continue
        if tok.startswith("{#"):
            spans.append(m.span())
        elif word in ("comment", "verbatim") or (word == "block" and "class" in inner):
            # A block that fills a class attribute (main_class, bodyclass) holds no words.
            open_tag, start = "end" + word, m.start()
        elif word in ("blocktranslate", "blocktrans"):
            open_tag, start = "end" + word, m.start()
        elif word in ("translate", "trans"):
            spans.append(m.span())
    return spans


def _blank(src, spans):
    """The source with spans replaced by spaces (newlines kept, so lines still count)."""
    out = list(src)
    for a, b in spans:
        for i in range(a, b):
            if out[i] != "\n":
                out[i] = " "
    return "".join(out)


def _no_tokens(text):
    return TOKEN.sub(" ", text)


def scan(src):
    """Untranslated English in one template's source, as Findings."""
    findings = []
    line_of = lambda pos: src.count("\n", 0, pos) + 1  # noqa: E731

    for m in TOKEN.finditer(src):
        tok = m.group()
        if tok.startswith("{#"):
            continue
        for arg in LITERAL_ARG.finditer(tok):
            if "_(" not in tok[max(0, arg.start() - 2) : arg.end()]:
                findings.append(Finding(line_of(m.start()), "literal argument", arg.group()))
        if PLURALIZE.search(tok):
            findings.append(Finding(line_of(m.start()), "English plural (pluralize)", tok))

    clean = _blank(src, _skipped_spans(src))
    # Django tokens in the cleaned text are not text: blank them too, keep offsets.
    plain = _blank(clean, [m.span() for m in TOKEN.finditer(clean)])
    # Django tokens that were inside attribute values now read as blanks; the attribute
    # check below reads `clean` so it sees literal words left beside them.
    i, n, text_start = 0, len(plain), 0
    texts = []
    while i < n:
        c = plain[i]
        if c == "<" and plain.startswith("<!--", i):
            end = plain.find("-->", i)
            end = n if end < 0 else end + 3
            i = end
            continue
        if c == "<" and i + 1 < n and (plain[i + 1].isalpha() or plain[i + 1] in "/!"):
            texts.append((text_start, i))
            i, tag, attrs = _read_tag(plain, clean, i)
            findings.extend(_check_attrs(tag, attrs, line_of))
            if tag in ("script", "style"):
                close = plain.lower().find("</" + tag, i)
                i = n if close < 0 else close
            text_start = i
            continue
        i += 1
    texts.append((text_start, n))
    for a, b in texts:
        for offset, line in _lines(plain[a:b], a):
            words = ENTITY.sub(" ", line).strip()
            if ALPHA.search(words):
                findings.append(Finding(line_of(offset), "text", words))
    return findings


def _lines(chunk, base):
    pos = base
    for line in chunk.split("\n"):
        yield pos, line
        pos += len(line) + 1


def _read_tag(plain, clean, i):
    """Read the HTML tag at i: (position after it, tag name, [(attr, value, pos)])."""
    n = len(plain)
    j = i + 1
    if plain.startswith("!", j):  # doctype
        end = plain.find(">", j)
        return (n if end < 0 else end + 1), "!", []
    m = re.compile(r"/?([A-Za-z][\w:-]*)").match(plain, j)
    tag = m.group(1).lower() if m and not m.group().startswith("/") else ""
    j = m.end() if m else j
    attrs = []
    attr_re = re.compile(r"""\s*([^\s=>/"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?""")
    while j < n and plain[j] != ">":
        a = attr_re.match(plain, j)
        if not a or a.end() == j:
            j += 1
            continue
        if a.group(2) is not None:
            vstart, vend = a.span(2)
            raw = clean[vstart:vend]
            if raw[:1] in "\"'":
                raw = raw[1:-1]
            attrs.append((a.group(1).lower(), raw, vstart))
        else:
            attrs.append((a.group(1).lower(), None, a.start(1)))
        j = a.end()
    return j + 1, tag, attrs


def _check_attrs(tag, attrs, line_of):
    kinds = {name: value for name, value, _ in attrs}
    for name, value, pos in attrs:
        if value is None:
            continue
        readable = name in READABLE or (
            name == "value"
            and tag == "input"
            and (kinds.get("type") or "").lower() in BUTTON_INPUTS
        )
        if readable and ALPHA.search(ENTITY.sub(" ", _no_tokens(value))):
            yield Finding(line_of(pos), f"<{tag} {name}>", _no_tokens(value).strip())


def _templates():
    return sorted(TEMPLATES.rglob("*.html"))


def test_the_guard_sees_text_attributes_and_literal_arguments():
    src = (
        "{% load i18n %}<p title=\"Hi {{ x }}\">Roll {{ n }}{% translate 'ok' %}</p>\n"
        '{% blocktranslate %}fine{% endblocktranslate %}<input type="submit" value="Go">\n'
        '{# Comment #}<script>let a = "word";</script>{{ y|default:"none" }}'
        '<button value="edit">{% translate "Edit" %}</button>'
    )
    found = {(f.line, f.what) for f in scan(src)}
    assert found == {
        (1, "<p title>"),
        (1, "text"),
        (2, "<input value>"),
        (3, "literal argument"),
    }


def test_the_guard_passes_marked_text():
    src = (
        '{% load i18n %}<p title="{% translate "Hi" %}">{{ x }} · {% blocktranslate '
        "count n=k %}{{ n }} die{% plural %}{{ n }} dice{% endblocktranslate %}</p>"
        '{{ y|default:_("none") }}&nbsp;<button name="action" value="edit">·</button>'
    )
    assert scan(src) == []


@pytest.mark.parametrize("path", _templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_template_text_is_translated(path):
    findings = scan(path.read_text(encoding="utf-8"))
    rel = path.relative_to(TEMPLATES.parent)
    assert not findings, "untranslated English:\n" + "\n".join(
        f"{rel}:{f.line}: {f.what}: {f.text[:80]}" for f in findings
    )
