"""Websocket routes: one socket per open table page."""

from django.urls import path

from tables.live.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/campaigns/<int:pk>/", TableConsumer.as_asgi()),
]
