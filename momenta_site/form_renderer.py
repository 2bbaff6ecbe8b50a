"""A form renderer that draws Django's standard widget templates in Python (issue 10).

Every answer to a roll redraws the composer: some thirty widgets, each through the
template engine (input.html, its attrs.html include, ...) at ~0.2 ms apiece. This
renderer is Django's own `DjangoTemplates` renderer (same engine, same template dirs)
except that the widget templates below are reproduced here byte for byte, with the
engine's escaping: `{{ x }}` is `render_value_in_context` (localize, then
`conditional_escape`), `{{ x|stringformat:'s' }}` is the filter plus its `is_safe`
rule, and attrs.html drops False and writes True as a bare name.

Anything it cannot reproduce exactly goes to the engine: an unknown template name, an
option drawn with a template of its own, a value the engine would call (a callable), an
attrs dict with an "items" key (the engine would loop over that key's value), a widget
context that is not the plain dicts Django builds. tests/tables/test_form_renderer.py
compares both renderers on every form of the app and on tricky values.

A seam, kept because it pays: issue 22 measured it at ~23 % of a Momenta roll's CPU
(bench/README.md). FORM_RENDERER=django in the environment takes Django's own.
"""

from __future__ import annotations

from html import escape as _html_escape

from django.forms.renderers import DjangoTemplates
from django.template.base import render_value_in_context
from django.template.defaultfilters import stringformat
from django.utils.safestring import SafeData, mark_safe

_W = "django/forms/widgets/"


class _Unsupported(Exception):
    """This context is not one the Python drawing reproduces exactly: use the engine."""


class _EngineContext:
    """What render_value_in_context reads of a Context: the forms engine's defaults
    (autoescape on; localization and time zone from settings)."""

    autoescape = True
    use_l10n = None
    use_tz = None


_CONTEXT = _EngineContext()


def _get(mapping, key):
    """`mapping.key` as the engine resolves it, for a plain dict holding the key; the
    engine would call a callable value, so such a value is left to it."""
    if type(mapping) is not dict or key not in mapping:
        raise _Unsupported
    value = mapping[key]
    if callable(value):
        raise _Unsupported
    return value


def _var(value) -> str:
    """`{{ value }}` under autoescape."""
    if type(value) is str:
        return _html_escape(value)
    if callable(value):
        raise _Unsupported
    return render_value_in_context(value, _CONTEXT)


def _var_s(value) -> str:
    """`{{ value|stringformat:'s' }}` under autoescape: a safe input stays unescaped."""
    if type(value) is str:
        return _html_escape(value)
    if type(value) is int:
        return str(value)
    out = stringformat(value, "s")
    if isinstance(value, SafeData):  # the engine's rule for an is_safe filter
        out = mark_safe(out)
    return _var(out)


def _attrs(widget) -> str:
    """attrs.html: False drops the attribute, True writes the bare name."""
    attrs = _get(widget, "attrs")
    if type(attrs) is not dict or "items" in attrs:
        raise _Unsupported
    parts = []
    for name, value in attrs.items():
        if callable(value):
            raise _Unsupported
        if value is False:
            continue
        if value is True:
            parts.append(" " + _var(name))
        else:
            parts.append(f' {_var(name)}="{_var_s(value)}"')
    return "".join(parts)


def _input(widget) -> str:
    """input.html (with its trailing newline)."""
    value = _get(widget, "value")
    try:
        has_value = value != None  # noqa: E711 - the template's `!= None`, not `is not`
    except Exception:
        has_value = False  # the engine's `if` reads a failing comparison as false
    out = f'<input type="{_var(_get(widget, "type"))}" name="{_var(_get(widget, "name"))}"'
    if has_value:
        out += f' value="{_var_s(value)}"'
    return out + _attrs(widget) + ">\n"


def _include_input(widget) -> str:
    """text.html, number.html, hidden.html, ...: `{% include input.html %}` + newline."""
    return _input(widget) + "\n"


def _input_option(widget) -> str:
    """input_option.html: the input, wrapped in its label when wrap_label is set."""
    wrap = bool(_get(widget, "wrap_label"))
    out = ""
    if wrap:
        attrs = _get(widget, "attrs")
        if type(attrs) is not dict:
            raise _Unsupported
        option_id = attrs.get("id")
        if callable(option_id):
            raise _Unsupported
        out = f'<label for="{_var(option_id)}">' if option_id else "<label>"
    out += _input(widget)
    if wrap:
        out += f" {_var(_get(widget, 'label'))}</label>"
    return out + "\n"


def _include_input_option(widget) -> str:
    """radio_option.html, checkbox_option.html."""
    return _input_option(widget) + "\n"


def _select_option(widget) -> str:
    value, label = _var_s(_get(widget, "value")), _var(_get(widget, "label"))
    return f'<option value="{value}"{_attrs(widget)}>{label}</option>\n'


def _option(option) -> str:
    """`{% include option.template_name with widget=option %}`."""
    draw = _OPTION_TEMPLATES.get(_get(option, "template_name"))
    if draw is None:
        raise _Unsupported
    return draw(option)


def _groups(widget):
    for group in _get(widget, "optgroups"):
        group_name, options, _index = group
        if callable(group_name):
            raise _Unsupported
        yield group_name, options


def _select(widget) -> str:
    out = [f'<select name="{_var(_get(widget, "name"))}"{_attrs(widget)}>']
    for group_name, options in _groups(widget):
        if group_name:
            out.append(f'\n  <optgroup label="{_var(group_name)}">')
        for option in options:
            out.append("\n  " + _option(option))
        if group_name:
            out.append("\n  </optgroup>")
    out.append("\n</select>\n")
    return "".join(out)


def _multiple_input(widget) -> str:
    """multiple_input.html: radio and checkbox lists, each option in a <div>."""
    attrs = _get(widget, "attrs")
    if type(attrs) is not dict:
        raise _Unsupported
    list_id, css_class = attrs.get("id"), attrs.get("class")
    if callable(list_id) or callable(css_class):
        raise _Unsupported
    out = ["<div"]
    if list_id:
        out.append(f' id="{_var(list_id)}"')
    if css_class:
        out.append(f' class="{_var(css_class)}"')
    out.append(">")
    for group_name, options in _groups(widget):
        if group_name:
            out.append(f"\n  <div><label>{_var(group_name)}</label>")
        for option in options:
            out.append(f"<div>\n    {_option(option)}</div>")
        if group_name:
            out.append("\n  </div>")
    out.append("\n</div>\n")
    return "".join(out)


def _include_multiple_input(widget) -> str:
    """radio.html, checkbox_select.html."""
    return _multiple_input(widget) + "\n"


def _textarea(widget) -> str:
    value = _get(widget, "value")
    text = _var(value) if value else ""
    return f'<textarea name="{_var(_get(widget, "name"))}"{_attrs(widget)}>\n{text}</textarea>\n'


_INPUT_INCLUDES = (
    "checkbox color date datetime email file hidden number password search tel text time url"
)

_TEMPLATES = {
    _W + "attrs.html": _attrs,
    _W + "input.html": _input,
    _W + "input_option.html": _input_option,
    _W + "radio_option.html": _include_input_option,
    _W + "checkbox_option.html": _include_input_option,
    _W + "select.html": _select,
    _W + "select_option.html": _select_option,
    _W + "multiple_input.html": _multiple_input,
    _W + "radio.html": _include_multiple_input,
    _W + "checkbox_select.html": _include_multiple_input,
    _W + "textarea.html": _textarea,
    **{_W + name + ".html": _include_input for name in _INPUT_INCLUDES.split()},
}

# The templates an option may be drawn with inside select.html or multiple_input.html.
_OPTION_TEMPLATES = {
    name: _TEMPLATES[name]
    for name in (
        _W + "select_option.html",
        _W + "radio_option.html",
        _W + "checkbox_option.html",
        _W + "input_option.html",
        _W + "input.html",
    )
}


class FastWidgetRenderer(DjangoTemplates):
    """Django's DjangoTemplates form renderer, with its standard widget templates drawn
    in Python; every other template (forms, fields, errors, labels, the admin's
    widgets) and every context the drawing does not cover goes to the engine."""

    def render(self, template_name, context, request=None):
        draw = _TEMPLATES.get(template_name)
        if draw is not None and type(context) is dict and "widget" in context:
            try:
                return draw(context["widget"]).strip()
            except Exception:  # _Unsupported, or a shape the engine should judge
                pass
        return super().render(template_name, context, request=request)
