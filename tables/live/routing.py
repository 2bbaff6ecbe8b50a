"""Websocket routes: one socket per open table page; any other path is refused."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from tables.live.consumers import TableConsumer


class NoSuchSocket(AsyncWebsocketConsumer):
    """A handshake on a path no page opens: refused (403), not "No route found",
    which the server logged as an error and answered 500 (issue 26)."""

    async def connect(self):
        await self.close()


websocket_urlpatterns = [
    path("ws/campaigns/<int:pk>/", TableConsumer.as_asgi()),
    # Last: matches whatever the routes above do not.
    re_path(r"", NoSuchSocket.as_asgi()),
]
