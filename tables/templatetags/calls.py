"""{% called_tests_panel %}: the table page's first draw of the called-tests panel."""

from django import template

from tables.presenters.calls import panel_context

register = template.Library()


@register.inclusion_tag("tables/partials/call_panel.html", takes_context=True)
def called_tests_panel(context):
    # The panel's forms need the page's CSRF token, which an inclusion tag's context lacks.
    return {
        **panel_context(context["campaign"], context["membership"]),
        "csrf_token": context.get("csrf_token"),
        "rule_marks": context.get("rule_marks", False),  # issue 37: the reader's § marks
    }
