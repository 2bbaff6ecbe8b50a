"""The bare Channels relay that bench/live_bench.py measures the app against.

What a live table costs at the least on this stack (same ASGI server, same
channel layer, from the same settings): a socket joins the group
`table-<id>` and gets every `group_send` to it as is; `POST
/campaigns/<id>/send/?seq=N` sends one small event frame to that group. No
database, no session, no rendering, no replay.

Serve with `uvicorn bench.relay_app:application` (or daphne) from the
project root, with REDIS_URL set for channels_redis.
"""

from __future__ import annotations

import json
import os
from urllib.parse import parse_qs

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "momenta_site.settings")
django.setup()  # CHANNEL_LAYERS comes from the app's settings

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

# About the size of a log entry's first line; the app's frames are larger.
FRAGMENT = '<li id="event-{seq}" data-seq="{seq}">A roll: 2 successes</li>'


def group_name(table_id: int) -> str:
    return f"table-{table_id}"


class RelayConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = group_name(int(self.scope["url_route"]["kwargs"]["pk"]))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def relay_frame(self, message):
        await self.send(text_data=message["text"])


async def _respond(send, status: int) -> None:
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": b""})


async def http_app(scope, receive, send):
    """POST /campaigns/<id>/send/?seq=N: one frame to the table's group; anything
    else is 404 (the bench polls / for readiness)."""
    while (await receive()).get("more_body"):
        pass  # the request body is not used
    parts = scope["path"].strip("/").split("/")
    query = parse_qs(scope.get("query_string", b"").decode())
    if (
        scope["method"] != "POST"
        or len(parts) != 3
        or parts[0] != "campaigns"
        or parts[2] != "send"
        or not parts[1].isdigit()
    ):
        await _respond(send, 404)
        return
    seq = int((query.get("seq") or ["0"])[0])
    text = json.dumps({"type": "event", "seq": seq, "html": FRAGMENT.format(seq=seq)})
    await get_channel_layer().group_send(
        group_name(int(parts[1])), {"type": "relay.frame", "text": text}
    )
    await _respond(send, 204)


application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": URLRouter([path("ws/campaigns/<int:pk>/", RelayConsumer.as_asgi())]),
    }
)
