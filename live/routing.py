"""The live games' WebSocket addresses (config/asgi.py routes them)."""

from django.urls import path

from live.consumers import LiveGameConsumer, LiveLobbyConsumer

websocket_urlpatterns = [
    path("ws/live/lobby/", LiveLobbyConsumer.as_asgi()),
    path("ws/live/<str:slug>/", LiveGameConsumer.as_asgi()),
]
