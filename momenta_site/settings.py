"""One settings module, read from the environment with safe defaults.

DATABASE_URL unset -> SQLite (WAL, IMMEDIATE transactions); REDIS_URL unset ->
the in-memory channel layer, which only works with exactly one server process.
"""

import os
import tempfile
from pathlib import Path

import dj_database_url
import environ
from csp.constants import NONE, SELF, UNSAFE_EVAL
from django.core.exceptions import ImproperlyConfigured

from momenta_site.email_url import email_settings
from momenta_site.secret_key import running_demo, secret_key

BASE_DIR = Path(__file__).resolve().parent.parent


# Booleans, numbers and lists read by django-environ (docs/settings.md says how); text
# with os.environ, as written: django-environ would read `$NAME` as another variable.
env = environ.Env()


DEBUG = env.bool("DEBUG", False)
# This process is `manage.py demo`: its static files and pages are served as production
# serves them behind its proxy (below).
DEMO = running_demo()
# With DEBUG off and no SECRET_KEY the server refuses to start (momenta_site/secret_key.py).
SECRET_KEY = secret_key(
    debug=DEBUG, sqlite_path=os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3"))
)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# Served over TLS (HTTPS=1): HSTS, http -> https, cookies only over TLS. Off by
# default: the demo and the tests serve plain HTTP on loopback. Each is also its
# own variable. Behind a TLS proxy, SECURE_PROXY_SSL_HEADER=1 trusts its
# X-Forwarded-Proto (only when the proxy sets it on every request).
HTTPS = env.bool("HTTPS", False)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", HTTPS)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", HTTPS)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", HTTPS)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", HTTPS)
if env.bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Login throttling (tables/lockout.py, django-axes): this many wrong passwords for one
# username lock it out until the window has passed since the last. The failures are
# database rows, so the lockout holds across server processes.
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_LOCKOUT_SECONDS = env.int("LOGIN_LOCKOUT_SECONDS", 15 * 60)
# And this many from one client address, whatever usernames they name (0: no limit).
# The address is the one uvicorn reports (tables/lockout.py): behind a proxy,
# only with `manage.py serve --forwarded-allow-ips` naming it, or every client
# would share the proxy's address and its count.
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", 20)
# Password checks one process runs at once (tables/forms/login.py): hashing is CPU
# the other pages need; more guesses wait their turn.
LOGIN_CHECKS_AT_ONCE = env.int("LOGIN_CHECKS_AT_ONCE", 1)
# django-axes keeps the count, from the LOGIN_ settings above (tables/lockout.py). Its
# backend, first, refuses a locked-out login on any path; the login forms word the
# refusal themselves, in the page (429), so no AxesMiddleware (its check, silenced).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "tables.lockout.LockoutHandler"
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # in this order: LockoutHandler
AXES_FAILURE_LIMIT = "tables.lockout.failure_limit"
AXES_COOLOFF_TIME = "tables.lockout.cool_off"
AXES_CLIENT_IP_CALLABLE = "tables.lockout.client_address"
AXES_USERNAME_CALLABLE = "tables.lockout.username"
AXES_RESET_ON_SUCCESS = True  # the username's failures only (LockoutHandler)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # tries while locked don't count
AXES_DISABLE_ACCESS_LOG = True  # no row for every successful login
AXES_VERBOSE = False
SILENCED_SYSTEM_CHECKS = ["axes.W002"]

# Who may make an account at /signup/ (tables/views/site.py): everyone, or with 0 only
# someone holding a campaign's working invite link; the operator can add anyone in /admin/.
REGISTRATION_OPEN = env.bool("REGISTRATION_OPEN", True)
# Mail, for password resets: the backend, EMAIL_HOST… from one URL
# (momenta_site/email_url.py). The default prints each message to the server's log.
_mail = email_settings(os.environ.get("EMAIL_URL", "console://"))
# A request's mail is held until its answer has gone out, then sent through the URL's
# backend (momenta_site/mail.py): the answer's time must not tell who has an account.
EMAIL_DELIVERY_BACKEND = _mail.pop("EMAIL_BACKEND")
EMAIL_BACKEND = "momenta_site.mail.HoldingBackend"
globals().update(_mail)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "csp",
    "django_htmx",
    "template_partials",
    "rules",
    "tables",
    "axes",
]

MIDDLEWARE = [
    # First: /healthz answers any host, over plain HTTP (momenta_site/health.py).
    "momenta_site.health.HealthCheckMiddleware",
    # Then /metrics, for Prometheus at a worker's own address over plain HTTP, and the
    # request counts of everything after it (momenta_site/metrics.py).
    "momenta_site.metrics.MetricsMiddleware",
    # A request id for every line the request logs, and a line for it (request_log.py).
    "momenta_site.request_log.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files where no proxy serves them (the demo, `manage.py host`, tests); behind
    # deploy/'s Caddy or nginx, /static/ never reaches a worker (deploy/momenta-static.caddy).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",  # CONTENT_SECURITY_POLICY below
    "momenta_site.middleware.DatabaseUnavailableMiddleware",
    # Before anything reads request.POST (the CSRF check, a 400/403/404 answer).
    "momenta_site.middleware.UnreadableFormMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session, before CommonMiddleware (Django's order): the browser's language
    # (Accept-Language) for anyone; PersonLocaleMiddleware below puts a person's own first.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Needs request.user: a person's language and time zone from their settings (issue 28).
    "tables.views.locale.PersonLocaleMiddleware",
    "momenta_site.request_log.RequestUserMiddleware",  # the user on the lines from here
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: a command's Idempotency-Key reaches the services the view calls (issue 27).
    "tables.views.submissions.IdempotencyKeyMiddleware",
]

if DEMO:
    # The demo has no proxy in front to compress its pages (production's Caddy does:
    # deploy/Caddyfile, `encode`), so Django does, inside whitenoise, which serves its
    # own gzip copies. Django's GZipMiddleware pads its answers against BREACH.
    MIDDLEWARE.insert(
        MIDDLEWARE.index("whitenoise.middleware.WhiteNoiseMiddleware") + 1,
        "django.middleware.gzip.GZipMiddleware",
    )

# django-csp, on every answer (unless a view set its own). What the pages need, and nothing
# more: scripts and the stylesheet from our own static files; htmx evaluates its trigger
# filters (hx-trigger="load[…]") with Function(), hence 'unsafe-eval'; images are inline
# data: URIs (the favicon); htmx and the live socket talk to this origin only. No inline
# script or style.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, UNSAFE_EVAL],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

ROOT_URLCONF = "momenta_site.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "momenta_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                # LANGUAGE_CODE for <html lang> (base.html): the reader's language.
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tables.context_processors.registration",
                # rule_marks: the reader's § marks (issue 37), off unless it says so.
                "tables.context_processors.rule_marks",
            ],
        },
    },
]
# The live render seam (tables/live/frames.py): an event's fragments drawn once per
# audience per process, from the rows its command committed. False: read and drawn afresh.
LIVE_FRAME_MEMO = env.bool("LIVE_FRAME_MEMO", True)

# Django's form renderer with its standard widget templates drawn in Python
# (momenta_site/form_renderer.py): ~23 % of a Momenta roll's CPU, whose answer redraws
# the composer (issue 22). tests/tables/test_form_renderer.py holds it to Django's bytes;
# FORM_RENDERER=django takes Django's own.
if os.environ.get("FORM_RENDERER", "fast") != "django":
    FORM_RENDERER = "momenta_site.form_renderer.FastWidgetRenderer"

SQLITE_OPTIONS = {
    # IMMEDIATE: a transaction that reads then writes takes the write lock up
    # front instead of failing with "database is locked" on upgrade.
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}

# HTTP under ASGI (momenta_site/asgi.py), one seam: "one-hop" runs a request's
# middleware and view in one call on the process's one sync thread
# (momenta_site/http_handler.py); "django" is Django's own handler, a thread per
# request. One-hop stays because it saves ~30 % of a roll's server CPU (bench/README.md,
# issue 22); tests/deploy/test_asgi_http.py holds both to the same answers.
ASGI_HTTP_HANDLER = os.environ.get("ASGI_HTTP_HANDLER", "one-hop")
if ASGI_HTTP_HANDLER not in ("one-hop", "django"):
    raise ImproperlyConfigured("ASGI_HTTP_HANDLER must be 'one-hop' or 'django'.")
# One-hop: the one sync thread keeps its connection between requests and consumer calls
# (reopening one per live event cost more than the event). Django's handler: not kept,
# since a connection kept in a request's own thread outlives it, open, until garbage
# collection (Django: "When using ASGI, persistent connections should be disabled").
CONN_MAX_AGE = env.int("CONN_MAX_AGE", 300 if ASGI_HTTP_HANDLER == "one-hop" else 0)

DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=CONN_MAX_AGE, conn_health_checks=True
        )
    }
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        # psycopg's default is 130 s: a database host that drops packets would hold each
        # connect (a request's without the pool, the pool's own) that long.
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
            "connect_timeout", env.int("DB_CONNECT_TIMEOUT", 2)
        )
    if DATABASES["default"]["ENGINE"].endswith("postgresql") and env.bool("DB_POOL", True):
        # Under ASGI every request and socket call runs in a thread of its own, so
        # per-thread persistent connections pile up; a pool per process (psycopg_pool)
        # hands one out per request or consumer call and takes it back after. Django
        # refuses a pool with CONN_MAX_AGE > 0. CONN_HEALTH_CHECKS makes the pool
        # test a connection before handing it out (a restarted PostgreSQL costs no
        # failed request). DB_POOL=0 (e.g. behind pgbouncer) keeps CONN_MAX_AGE.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env.int("DB_POOL_MIN_SIZE", 2),
            "max_size": env.int("DB_POOL_MAX_SIZE", 10),
            # Waiting longer for a free connection than this answers 503 (middleware).
            # Short: the process's requests and sockets share one thread (one-hop), so
            # each one waiting holds up all the others, and a wait this long means
            # PostgreSQL is not handing out connections (a restart, a connection storm).
            "timeout": env.int("DB_POOL_TIMEOUT", 2),
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": SQLITE_OPTIONS,
            "CONN_MAX_AGE": CONN_MAX_AGE,
            "CONN_HEALTH_CHECKS": True,
        }
    }
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
    # Tests use a file too: an in-memory shared-cache database fails concurrent
    # writers at once ("table is locked") instead of waiting like production.
    DATABASES["default"]["TEST"] = {
        "NAME": os.path.join(tempfile.gettempdir(), f"momenta-test-{os.getpid()}.sqlite3")
    }

# How long /healthz and /readyz wait for a pooled database connection before answering
# 503 (momenta_site/health.py): the proxy's probe must hear within 2 s.
HEALTH_DATABASE_TIMEOUT = env.float("HEALTH_DATABASE_TIMEOUT", 1.0)

REDIS_URL = os.environ.get("REDIS_URL", "")
# While this file exists /readyz answers 503 "draining", so the proxy sends the
# instance no new requests before a restart (deploy/restart); /healthz does not flap.
# `manage.py serve --drain-file` sets it per instance; unset, an instance never drains.
DRAIN_FILE = os.environ.get("DRAIN_FILE", "")
# The proxy's addresses: only from these are X-Forwarded-For/-Proto and X-Request-ID
# believed (momenta_site/request_log.py). Set by `manage.py serve --forwarded-allow-ips`.
FORWARDED_ALLOW_IPS = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# /metrics answers loopback, and anyone sending `Authorization: Bearer <this>` (unset: no
# one else; momenta_site/metrics.py).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
if REDIS_URL:
    # Pub/sub, not the list-based RedisChannelLayer: a doorbell may be lost
    # (sockets catch up from the database), and pub/sub keeps no per-channel
    # lists or group entries in Redis that a crashed process would leak; its
    # reader polls with a short timeout, so no blocking pop races the socket
    # timeout. Client options are set here, not left to redis-py's defaults.
    CHANNEL_LAYERS = {
        "default": {
            # channels_redis's, logging Redis going away and back once (channel_layer.py).
            "BACKEND": "momenta_site.channel_layer.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # A doorbell is published in the command's request after commit:
                        # a dead Redis must cost it a second at most, not 30 (no read here
                        # blocks longer than the reader's 0.1 s poll; broadcast.py).
                        "socket_connect_timeout": 0.5,
                        "socket_timeout": 1,
                        "socket_keepalive": True,
                        "health_check_interval": 15,
                    }
                ],
                # Redis pub/sub channels are server-wide, not per database number:
                # sites (or a bench's relay) sharing one Redis need their own prefix.
                "prefix": os.environ.get("CHANNEL_LAYER_PREFIX", "momenta"),
            },
        }
    }
else:
    # The in-memory layer drops a channel from all its groups once a message
    # has waited `expiry` seconds (default 60): on a busy server a socket
    # would silently stop getting doorbells. An hour makes that a non-event;
    # doorbells are tiny and each socket drains its own queue. Our subclass sweeps
    # for expired messages once a second, not on every message (channel_layer.py).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "momenta_site.channel_layer.InMemoryChannelLayer",
            "CONFIG": {"expiry": 3600, "capacity": 1000},
        }
    }

# Sessions are read from the cache (written through to the database): one statement
# less on every request. Sound because the cache is as shared as the server is: per
# process with the in-memory layer (one process), Redis across processes.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
if REDIS_URL:
    # django-redis: one connection pool per process for every request's and socket's
    # cache object (Django's own left a Redis connection behind each, issue 26). When
    # Redis does not answer, reads miss and writes are skipped (IGNORE_EXCEPTIONS):
    # sessions come from the database, and the keys a skipped write left stale are
    # deleted before Redis is used again (redis_cache.py, which also logs the outage
    # once). Redis answers a session read in well under a millisecond, so half a second
    # to connect and one to answer mean it is away.
    CACHES = {
        "default": {
            "BACKEND": "momenta_site.redis_cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "CLIENT_CLASS": "momenta_site.redis_cache.DegradingClient",
                "SOCKET_CONNECT_TIMEOUT": 0.5,
                "SOCKET_TIMEOUT": 1,
            },
        }
    }
# A cache call Redis does not answer misses instead of raising; redis_cache.py logs it,
# once per outage (django-redis's own log is a traceback per call: left off).
DJANGO_REDIS_IGNORE_EXCEPTIONS = True
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = False

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The test suite's browser servers only (tables/devtools/server.py sets it under pytest):
# each login there would pay PBKDF2's ~0.4 s of CPU. Refused outside a pytest session, so
# no production server can be started storing MD5 hashes, cheap to brute-force (issue 38).
if env.bool("TEST_FAST_PASSWORD_HASHER", False):
    if "PYTEST_VERSION" not in os.environ:
        raise ImproperlyConfigured(
            "TEST_FAST_PASSWORD_HASHER is for the test suite's servers only: unset it."
        )
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 8},
    },
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The languages a person or a campaign may choose (issue 28); each but English has its
# catalogue in locale/, compiled by `manage.py demo`, the test run and deploy/README.md.
# Each in its own name, as a language switch shows them: the reader may not read the
# language the page is in now. Names of languages, not wording: nothing to translate.
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("es", "Español"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["momenta_site.formats"]  # the short dates each language reads
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# `manage.py demo` serves collected files too (issue 29: cached for a year, minified,
# gzipped: momenta_site/static_storage.py), from a folder beside its SQLite file
# (db.sqlite3.static/) that it collects into before serving.
STATIC_ROOT = Path(
    os.environ.get(
        "STATIC_ROOT",
        os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")) + ".static"
        if DEMO
        else str(BASE_DIR / "staticfiles"),
    )
)
# Static files are served by the proxy in production (deploy/), by whitenoise otherwise,
# never by the development server. Setting STATIC_ROOT says "collectstatic has written the files
# there": hashed names (cached for a year), minified (momenta_site/static_storage.py),
# with gzip/brotli copies, served from that folder (`manage.py serve` refuses to start
# without them). Unset (the tests, development) the files are served from the source
# folders as they are, found on each request, so an edited stylesheet shows at once.
STATIC_COLLECTED = "STATIC_ROOT" in os.environ or DEMO
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "momenta_site.static_storage.MinifiedStaticFilesStorage"
        if "STATIC_ROOT" in os.environ
        else "momenta_site.static_storage.DemoStaticFilesStorage"
        if DEMO
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not STATIC_COLLECTED
WHITENOISE_AUTOREFRESH = not STATIC_COLLECTED

# Where a GM's Discord webhook may point (tables/discord/webhooks.py): unset, Discord's
# own hosts; the browser tests point it at their local fake webhook server.
DISCORD_WEBHOOK_HOSTS = env.list("DISCORD_WEBHOOK_HOSTS", default=[])
# Host names whose addresses are not checked (tables/discord/outbound.py): every other
# webhook host must resolve to public addresses only (no loopback, private range or
# cloud metadata service). The browser tests list the fake server's 127.0.0.1 here.
DISCORD_ALLOWED_HOSTS = env.list("DISCORD_ALLOWED_HOSTS", default=[])
# Sender threads per process (one campaign's posts take one at a time), and the failed
# deliveries in a row after which a webhook is parked until a GM resumes it.
DISCORD_WORKERS = env.int("DISCORD_WORKERS", 4)
DISCORD_PARK_AFTER = env.int("DISCORD_PARK_AFTER", 5)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Django's default logging prints nothing when DEBUG is off, so a 500 would
# leave no trace on the console the server runs in. Everything at LOG_LEVEL and
# above goes to stderr (the journal), each line with its time, level, request id
# and user (momenta_site/logs.py); INFO adds a line per request and per socket
# (momenta_site/request_log.py). LOG_FORMAT=json: one JSON object per line.
# `manage.py serve` hands both to uvicorn, so its own lines read the same.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "WARNING").upper()
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
    raise ImproperlyConfigured("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL.")
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text")
if LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured("LOG_FORMAT must be 'text' or 'json'.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"site": {"()": "momenta_site.logs.Formatter", "json": LOG_FORMAT == "json"}},
    "filters": {
        "refusals": {"()": "momenta_site.log_filters.RefusalsWithoutTraceback"},
        "health_probes": {"()": "momenta_site.log_filters.HealthProbeAnswers"},
        "database_answered": {"()": "momenta_site.log_filters.AnsweredForTheDatabase"},
        "redis_outage": {"()": "momenta_site.log_filters.RedisOutage"},
        "database_outage": {"()": "momenta_site.log_filters.DatabaseOutage"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "level": LOG_LEVEL,
            "formatter": "site",
            "filters": ["redis_outage", "database_outage"],
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {"django.request": {"filters": ["refusals", "health_probes", "database_answered"]}},
}
