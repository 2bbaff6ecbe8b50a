"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "momenta_site.settings")
django.setup(set_prefix=False)

from momenta_site.gc_tuning import tune_for_serving  # noqa: E402
from momenta_site.http_handler import SyncChainASGIHandler  # noqa: E402

django_asgi_app = SyncChainASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from momenta_site.origin import SameOriginValidator  # noqa: E402
from tables.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Websockets skip CSRF, so the Origin check is what stops other sites.
        "websocket": AllowedHostsOriginValidator(
            SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)

# Last, once everything start-up makes exists (momenta_site/gc_tuning.py).
tune_for_serving()
