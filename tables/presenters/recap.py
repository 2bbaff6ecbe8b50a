"""The recap's words (issue 40): its facts (tables/recap/facts.py) as the page and the
Markdown export draw them, in the reader's language, with the line's pool names.

Only wording and arrangement: names from the registry, the game line (GL-01) and the
sheet; numbers as numbers, formatted by the templates for the reader's locale.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext as _

from tables.live.render import kind_label
from tables.models import Campaign, PoolChange
from tables.presenters.odds_chart import fraction
from tables.recap import chart as charts
from tables.recap.facts import CharacterTally, Mark, Moment, Recap, Series
from tables.recap.spans import Outline, Span
from tables.words.wording import pool_name


def series_name(campaign: Campaign, series: Series, names: dict[int, str]) -> str:
    label = pool_name(campaign, series.pool, str(PoolChange.Pool(series.pool).label))
    if series.character_id is None:
        return label
    who = names.get(series.character_id, "?")
    return _("%(who)s's %(pool)s") % {"who": who, "pool": label}


def mark_words(campaign: Campaign, mark: Mark, names: dict[int, str]) -> str:
    who = names.get(mark.character_id, "")
    if mark.kind == "scene_start":
        return _("Scene %(n)s starts") % {"n": mark.number}
    if mark.kind == "scene_end":
        return _("Scene %(n)s ends") % {"n": mark.number}
    if mark.kind == "complication":
        return _("Complication: %(who)s") % {"who": who}
    if mark.kind == "keep_initiative":
        return _("Keep the Initiative: %(who)s") % {"who": who} if who else _("Keep the Initiative")
    if who:
        return _("Big spend by %(who)s: %(n)s points") % {"who": who, "n": mark.number}
    return _("Big spend: %(n)s points") % {"n": mark.number}


def moment_words(moment: Moment, names: dict[int, str]) -> str:
    who = names.get(moment.character_id, "")
    if moment.kind == "critical":
        return _("Critical success: %(who)s") % {"who": who}
    if moment.kind == "complication":  # a die's (whose roll), or the board's (its text)
        return _("Complication: %(who)s") % {"who": moment.name or who}
    if moment.kind == "task_finished":
        return _("Task finished: %(task)s") % {"task": moment.name}
    if moment.kind == "round":
        return _("Conflict round %(n)s") % {"n": moment.number}
    action = {
        "added": pgettext("trait", "added"),
        "changed": pgettext("trait", "changed"),
        "removed": pgettext("trait", "removed"),
        "revealed": pgettext("trait", "revealed"),
        "hidden": pgettext("trait", "hidden"),
        "kept": pgettext("trait", "kept"),
    }.get(moment.action, moment.action)
    return _("Trait %(action)s: %(trait)s") % {"action": action, "trait": moment.name or "…"}


@dataclass(frozen=True)
class Luck:
    observed: int
    expected: Fraction

    @property
    def difference(self) -> str:
        """Successes over (+) or under (−) the expectation, in the reader's numbers."""
        value = round(float(self.observed - self.expected), 2)
        sign = "+" if value > 0 else "−" if value < 0 else "±"
        return sign + number_format(abs(value), 2)

    @property
    def expected_decimal(self) -> str:
        return number_format(round(float(self.expected), 2), 2)

    @property
    def exact(self) -> str:
        return fraction(self.expected)


def spent_on(campaign: Campaign, tally: CharacterTally, spend_names: dict[str, str]) -> list:
    """(what, points): a 2d20 spend by its stored name, a Momenta spend by its event."""
    out = []
    for key, points in sorted(tally.spent_on.items(), key=lambda item: -item[1]):
        if not points:
            continue
        stored = spend_names.get(key)
        # A standard spend's stored name is its message id; a GM's own (MO-14) as typed.
        name = (gettext(stored) if not key.startswith("custom:") else stored) if stored else None
        name = name or kind_label(key, campaign.line)
        out.append((name, points))
    return out


def character_rows(campaign: Campaign, recap: Recap) -> list[dict]:
    first, last = recap.span.first, recap.span.last
    return [
        {
            "tally": tally,
            "spent_on": spent_on(campaign, tally, recap.spend_names),
            "luck": Luck(tally.observed, tally.expected),
            "line": charts.luck_line(tally.rolls, first, last),
            "seqs": " ".join(str(r.seq) for r in tally.rolls),
        }
        for tally in recap.characters
    ]


def _line(campaign: Campaign, line: charts.Line, index: int, names: dict[int, str], table) -> dict:
    """A pool's line: its dots (each a link to its log entry, its words on hover and focus)
    and its rows of the table beside the chart."""
    name = series_name(campaign, line.series, names)
    labels: dict[str, str] = {}
    for dot in line.dots:
        if dot.kind not in labels:
            labels[dot.kind] = kind_label(dot.kind, campaign.line)
    return {
        "line": line,
        "name": name,
        "tone": index % 6,
        "dots": _dots(line, name, labels, table),
        "rows": _rows(line, labels, table),
    }


# The dots and the rows are joined here, not looped in the template: a long session has
# thousands (bench/recap_bench.py). Every text in them is escaped once, here (the names,
# the labels, the words); the rest are numbers and the table's own URL.


def _dots(line: charts.Line, name: str, labels: dict[str, str], table: str) -> str:
    words = _("%(pool)s: %(value)s after entry %(seq)s (%(delta)+d, %(what)s)")
    href = escape(table)
    return mark_safe(
        "".join(
            f'<a class="recap-dot" href="{href}?at={d.seq}#event-{d.seq}" data-seq="{d.seq}" '
            f'data-value="{d.value}" data-delta="{d.delta}"><title>'
            + escape(
                words
                % {
                    "pool": name, "value": d.value, "seq": d.seq, "delta": d.delta,
                    "what": labels[d.kind],
                }
            )
            + f'</title><circle cx="{d.x}" cy="{d.y}" r="4"/><text x="{d.x}" y="{d.label_y}" '
            f'text-anchor="middle" aria-hidden="true">{d.value}</text></a>'
            for d in line.drawn
        )
    )  # fmt: skip


def _rows(line: charts.Line, labels: dict[str, str], table: str) -> str:
    href = escape(table)
    said = {kind: escape(label) for kind, label in labels.items()}
    return mark_safe(
        "".join(
            f'<tr><td><a href="{href}?at={d.seq}#event-{d.seq}">#{d.seq}</a></td>'
            f'<td>{d.delta:+d}</td><td class="recap-after">{d.value}</td>'
            f"<td>{said[d.kind]}</td></tr>"
            for d in line.dots
        )
    )


def chart_context(campaign: Campaign, recap: Recap, names: dict[int, str]) -> dict:
    """The group pools' chart and the personal pools' chart, each with its table."""
    table = reverse("table", args=[campaign.pk])
    group = tuple(s for s in recap.series if s.character_id is None)
    personal = tuple(s for s in recap.series if s.character_id is not None)
    out = []
    for key, title, series in (
        ("group", _("The table's pools"), group),
        ("personal", _("Each character's pool"), personal),
    ):
        if not series:
            continue
        drawn = charts.chart(series, recap.marks, recap.span.first, recap.span.last)
        lines = [_line(campaign, line, i, names, table) for i, line in enumerate(drawn.lines)]
        rules = [{"rule": r, "words": mark_words(campaign, r.mark, names)} for r in drawn.rules]
        out.append({"key": key, "title": title, "chart": drawn, "lines": lines, "rules": rules})
    return {"charts": out}


def recap_context(campaign: Campaign, recap: Recap, outline: Outline) -> dict:
    """Everything templates/tables/recap.html (and recap_markdown.txt) draw."""
    names = {t.character_id: t.name for t in recap.characters}
    names.update(dict(campaign.characters.values_list("pk", "name")))
    span = recap.span
    return {
        "campaign": campaign,
        "recap": recap,
        "span": span,
        "heading": heading(span),
        "outline": outline,
        "session_scenes": outline.scenes_of(outline.session(span.session)),
        "characters": character_rows(campaign, recap),
        "moments": [{"moment": m, "words": moment_words(m, names)} for m in recap.moments],
        "marks": [{"mark": m, "words": mark_words(campaign, m, names)} for m in recap.marks],
        "tasks": recap.tasks,
        "threat_name": pool_name(campaign, "threat", str(PoolChange.Pool.THREAT.label)),
        "momentum_name": momentum_name(campaign),
        **chart_context(campaign, recap, names),
    }


def momentum_name(campaign: Campaign) -> str:
    """What a test generates and spends: the line's group pool (GL-01), or Momenta's own
    personal Momentum."""
    if campaign.uses_group_economy:
        return campaign.line.group_pool
    return str(PoolChange.Pool.MOMENTUM.label)


def heading(span: Span) -> str:
    if span.scene is None:
        return _("Session %(n)s") % {"n": span.session}
    if span.title:
        return _("Session %(n)s, scene %(s)s: %(title)s") % {
            "n": span.session,
            "s": span.scene,
            "title": span.title,
        }
    return _("Session %(n)s, scene %(s)s") % {"n": span.session, "s": span.scene}
