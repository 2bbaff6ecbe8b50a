"""bench/reset_timing.py's server: the site's settings, its mail through
bench/slow_mail.py. A tree from before issue 34 sends inside the request through
EMAIL_BACKEND itself, so there the slow backend takes that place."""

from momenta_site import settings as _site
from momenta_site.settings import *  # noqa: F403

if hasattr(_site, "EMAIL_DELIVERY_BACKEND"):
    EMAIL_DELIVERY_BACKEND = "slow_mail.SlowMailBackend"
else:
    EMAIL_BACKEND = "slow_mail.SlowMailBackend"
