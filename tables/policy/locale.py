"""Which language and time zone a reader gets (issue 28): a read, never a write.

A person's own choice (PersonSettings) first; a blank language is the browser's
(Accept-Language, as for someone not logged in), a blank time zone the campaign's on
its pages and UTC elsewhere. The choice is kept in the session at login
(login_signals.py) and on save, so a page costs no query for it; a session from
before that reads it on each request until the next login or save.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from django.conf import settings
from django.utils import timezone, translation

from tables.models import Campaign, PersonSettings
from tables.models.locale import drawable_time_zones
from tables.policy import rule_marks

SESSION_KEY = "momenta_locale"  # [language, time zone] of the person's settings


@dataclass(frozen=True)
class Reader:
    """Who a fragment is drawn for, as far as wording goes: the key pushed frames share.
    `rule_marks`: their preference for the rules' § marks (policy/rule_marks.py)."""

    language: str
    time_zone: str
    rule_marks: str = rule_marks.AUTO


def chosen(session, user) -> tuple[str, str]:
    """(language, time zone) the person chose, each "" for "not chosen"."""
    if not getattr(user, "is_authenticated", False):
        return "", ""
    kept = session.get(SESSION_KEY) if session is not None else None
    if isinstance(kept, list) and len(kept) == 2:
        return _known_language(kept[0]), _known_zone(kept[1])
    # A session from before the key (or made without login()): read, never written
    # here, as a GET writes nothing.
    mine = PersonSettings.of(user)
    return _known_language(mine.language), _known_zone(mine.time_zone)


def remember(session, person_settings: PersonSettings) -> None:
    """Keep the person's choice in their session: pages read it from there."""
    session[SESSION_KEY] = [person_settings.language, person_settings.time_zone]
    session[rule_marks.SESSION_KEY] = person_settings.rule_marks


def browser_language(accept_language: str, cookie: str | None = None) -> str:
    """The language Django's LocaleMiddleware would pick for these headers (a socket's
    handshake carries them too)."""
    request = SimpleNamespace(
        COOKIES={settings.LANGUAGE_COOKIE_NAME: cookie} if cookie else {},
        META={"HTTP_ACCEPT_LANGUAGE": accept_language},
    )
    return translation.get_language_from_request(request)


def reader(
    language: str, time_zone: str, campaign_time_zone: str = "UTC", marks: str = rule_marks.AUTO
) -> Reader:
    """The reader for a chosen (or browser's) language and a chosen (or "") time zone."""
    return Reader(
        _known_language(language) or settings.LANGUAGE_CODE,
        _known_zone(time_zone) or _known_zone(campaign_time_zone) or "UTC",
        rule_marks.known(marks),
    )


def _known_language(code) -> str:
    return code if code in dict(settings.LANGUAGES) else ""


def _known_zone(name) -> str:
    # Any zone that loads, not only the offered ones: a legacy choice still draws.
    return name if isinstance(name, str) and name in drawable_time_zones() else ""


def socket_reader(scope, campaign_id: int) -> Reader:
    """A table socket's reader: its person's choice, else the handshake's Accept-Language
    (browsers send it on a websocket too) and the campaign's time zone. Sync (ORM)."""
    language, zone = chosen(scope.get("session"), scope.get("user"))
    if not language:
        headers = dict(scope.get("headers") or ())
        accept = headers.get(b"accept-language", b"").decode("latin-1")
        cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
        language = browser_language(accept, cookie)
    campaign_zone = "UTC"
    if not zone:
        found = Campaign.objects.filter(pk=campaign_id).values_list("time_zone", flat=True)
        campaign_zone = found.first() or "UTC"
    marks = rule_marks.chosen(scope.get("session"), scope.get("user"))
    return reader(language, zone, campaign_zone, marks)


def current_reader() -> Reader:
    """The language, time zone and rule marks active now (a request's, after
    PersonLocaleMiddleware)."""
    return Reader(
        translation.get_language() or settings.LANGUAGE_CODE,
        timezone.get_current_timezone_name(),
        rule_marks.active(),
    )


class reading_as:
    """Draw for `reader`: its language, time zone and rule marks active inside, as
    before after."""

    def __init__(self, reader: Reader) -> None:
        self.language = translation.override(reader.language)
        self.zone = timezone.override(reader.time_zone)
        self.marks = rule_marks.preferring(reader.rule_marks)

    def __enter__(self):
        self.language.__enter__()
        self.zone.__enter__()
        self.marks.__enter__()

    def __exit__(self, *exc):
        self.marks.__exit__(*exc)
        self.zone.__exit__(*exc)
        self.language.__exit__(*exc)
