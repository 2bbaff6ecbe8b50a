"""Momenta play: /campaigns/<pk>/momenta/… (views_momenta)."""

from django.urls import path

from . import views_momenta as views

P = "campaigns/<int:pk>/momenta/"

urlpatterns = [
    path(P + "composer/", views.composer, name="momenta_composer"),
    path(P + "odds/", views.odds, name="momenta_odds"),
    path(P + "roll/", views.roll, name="momenta_roll"),
    path(P + "rolls/<int:roll_pk>/allocate/", views.allocate, name="momenta_allocate"),
    path(P + "rolls/<int:roll_pk>/reveal/", views.reveal, name="momenta_reveal"),
    path(P + "assists/", views.assist_request, name="momenta_assist_request"),
    path(P + "assists/<int:assist_pk>/answer/", views.assist_answer, name="momenta_assist_answer"),
    path(P + "trauma/", views.trauma, name="momenta_trauma"),
    path(P + "templates/", views.template_save, name="momenta_template_save"),
    path(
        P + "templates/<int:template_pk>/delete/",
        views.template_delete,
        name="momenta_template_delete",
    ),
    path(P + "patterns/", views.pattern_save, name="momenta_pattern_save"),
]
