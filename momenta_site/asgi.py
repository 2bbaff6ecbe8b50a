"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "momenta_site.settings")
# First, so the apps are loaded before the imports below touch models.
django_asgi_app = get_asgi_application()

from django.conf import settings  # noqa: E402

from momenta_site.http_handler import SyncChainASGIHandler  # noqa: E402

# The one seam between Django's handler and the one-hop one (settings.ASGI_HTTP_HANDLER).
http_app = SyncChainASGIHandler() if settings.ASGI_HTTP_HANDLER == "one-hop" else django_asgi_app

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from momenta_site.gc_tuning import tune_for_serving  # noqa: E402
from momenta_site.mail import SendAfterAnswer  # noqa: E402
from momenta_site.origin import SameOriginValidator  # noqa: E402
from momenta_site.request_log import SocketLogMiddleware, TrustedProxyMiddleware  # noqa: E402
from tables.live.routing import websocket_urlpatterns  # noqa: E402

router = ProtocolTypeRouter(
    {
        # A request's mail goes out after its answer (momenta_site/mail.py).
        "http": SendAfterAnswer(http_app),
        # Websockets skip CSRF, so the Origin check is what stops other sites.
        "websocket": AllowedHostsOriginValidator(
            SameOriginValidator(
                # Inside the auth stack: a socket's lines name its user (request_log.py).
                AuthMiddlewareStack(SocketLogMiddleware(URLRouter(websocket_urlpatterns)))
            )
        ),
    }
)
# Outermost: the client's address, scheme and request id from the proxy only.
application = TrustedProxyMiddleware(router, settings.FORWARDED_ALLOW_IPS)

# Last, once everything start-up makes exists (momenta_site/gc_tuning.py).
tune_for_serving()
