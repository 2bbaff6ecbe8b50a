"""EMAIL_URL: how the site sends mail (password resets), as one URL.

- `console://` (the default): each message is printed to the server's stdout,
  which is the journal under systemd. Nothing leaves the machine.
- `smtp://user:password@host:587?tls=1` — STARTTLS on 587; `smtps://…:465`
  (or `?ssl=1`) for TLS from the start. `?timeout=N` seconds (default 10). The
  user and password are percent-decoded (`%40` for `@`).
- `file:///var/spool/momenta-mail`: one file per message in that folder (the
  browser tests read the reset link from it).
- `locmem://`: kept in memory (`django.core.mail.outbox`); for tests.
- `dummy://`: thrown away.

Parsed once when the settings load; a URL this cannot read stops the server
with the reason, rather than losing every reset mail later. settings.py makes the
URL's backend EMAIL_DELIVERY_BACKEND: a page's mail is sent through it after the
answer (momenta_site/mail.py).
"""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "smtps": "django.core.mail.backends.smtp.EmailBackend",
    "file": "django.core.mail.backends.filebased.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
    "dummy": "django.core.mail.backends.dummy.EmailBackend",
}
# A mail server that does not answer must not hold a request (and its worker) for
# Django's default of no timeout at all.
SMTP_TIMEOUT = 10


def _flag(query: dict[str, list[str]], name: str) -> bool:
    return query.get(name, ["0"])[-1].strip().lower() in {"1", "true", "yes", "on"}


def email_settings(url: str) -> dict:
    """The Django EMAIL_* settings `url` stands for."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in BACKENDS:
        known = ", ".join(f"{name}://" for name in BACKENDS)
        # The scheme only: the rest may hold the mail password, and this goes to the journal.
        raise ImproperlyConfigured(f"EMAIL_URL must start with one of {known}; got {scheme}://.")
    values: dict = {"EMAIL_BACKEND": BACKENDS[scheme]}
    if scheme == "file":
        if parts.netloc or not parts.path.startswith("/"):
            raise ImproperlyConfigured("EMAIL_URL=file:///… needs an absolute folder path.")
        values["EMAIL_FILE_PATH"] = unquote(parts.path)
    if scheme not in ("smtp", "smtps"):
        return values
    query = parse_qs(parts.query)
    try:
        port = parts.port
        timeout = int(query.get("timeout", [SMTP_TIMEOUT])[-1])
    except ValueError as error:
        raise ImproperlyConfigured(f"EMAIL_URL has a bad port or timeout: {error}.") from None
    if not parts.hostname:
        raise ImproperlyConfigured("EMAIL_URL=smtp://… needs a host name.")
    ssl = scheme == "smtps" or _flag(query, "ssl")
    tls = _flag(query, "tls")
    if ssl and tls:
        raise ImproperlyConfigured("EMAIL_URL: choose tls=1 (STARTTLS) or ssl=1, not both.")
    values.update(
        EMAIL_HOST=parts.hostname,
        EMAIL_PORT=port or (465 if ssl else 587 if tls else 25),
        EMAIL_HOST_USER=unquote(parts.username or ""),
        EMAIL_HOST_PASSWORD=unquote(parts.password or ""),
        EMAIL_USE_TLS=tls,
        EMAIL_USE_SSL=ssl,
        EMAIL_TIMEOUT=timeout,
    )
    return values
