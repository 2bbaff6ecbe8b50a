"""Websocket routes (live push lands in issue 6)."""

websocket_urlpatterns: list = []
