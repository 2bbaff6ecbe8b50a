"""2d20 play (views_d20) and the GM panel (views_gm)."""

from django.urls import path

from . import views_d20, views_gm

_TEST = "campaigns/<int:pk>/d20/tests/<int:tid>/"

urlpatterns = [
    path("campaigns/<int:pk>/d20/composer/", views_d20.d20_composer, name="d20_composer"),
    path("campaigns/<int:pk>/d20/odds/", views_d20.d20_odds, name="d20_odds"),
    path("campaigns/<int:pk>/d20/roll/", views_d20.d20_roll, name="d20_roll"),
    path(_TEST, views_d20.d20_panel, name="d20_panel"),
    path(_TEST + "reroll/", views_d20.d20_reroll, name="d20_reroll"),
    path(_TEST + "spend/", views_d20.d20_spend, name="d20_spend"),
    path(_TEST + "spends/<int:index>/refund/", views_d20.d20_refund, name="d20_refund"),
    path(_TEST + "spends/<int:index>/veto/", views_d20.d20_veto, name="d20_veto"),
    path(_TEST + "permit/", views_d20.d20_permit, name="d20_permit"),
    path(_TEST + "resolve/", views_d20.d20_resolve, name="d20_resolve"),
    # GM panel
    path("campaigns/<int:pk>/gm/", views_gm.gm_panel, name="gm_panel"),
    path("campaigns/<int:pk>/gm/threat/", views_gm.gm_threat, name="gm_threat"),
    path(
        "campaigns/<int:pk>/gm/threat/visible/",
        views_gm.gm_threat_visible,
        name="gm_threat_visible",
    ),
    path("campaigns/<int:pk>/gm/pools/", views_gm.gm_pool, name="gm_pool"),
    path("campaigns/<int:pk>/gm/session/", views_gm.gm_session_start, name="gm_session_start"),
    path("campaigns/<int:pk>/gm/scene/end/", views_gm.gm_scene_end, name="gm_scene_end"),
    path("campaigns/<int:pk>/gm/contests/", views_gm.gm_contest, name="gm_contest"),
    path(
        "campaigns/<int:pk>/gm/contests/<int:cid>/cancel/",
        views_gm.gm_contest_cancel,
        name="gm_contest_cancel",
    ),
    path("campaigns/<int:pk>/gm/tests/<int:tid>/reveal/", views_gm.gm_reveal, name="gm_reveal"),
    path("campaigns/<int:pk>/gm/spends/", views_gm.gm_spend_save, name="gm_spend_save"),
    path(
        "campaigns/<int:pk>/gm/spends/<int:sid>/delete/",
        views_gm.gm_spend_delete,
        name="gm_spend_delete",
    ),
]
