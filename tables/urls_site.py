from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("join/<str:token>/", views.join, name="join"),
    path("campaigns/new/", views.campaign_new, name="campaign_new"),
    path("campaigns/<int:pk>/", views.campaign_detail, name="campaign_detail"),
    path("campaigns/<int:pk>/settings/", views.campaign_settings, name="campaign_settings"),
    path("campaigns/<int:pk>/invite/", views.invite_regenerate, name="invite_regenerate"),
    path(
        "campaigns/<int:pk>/members/<int:member_pk>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path(
        "campaigns/<int:pk>/members/<int:member_pk>/promote/",
        views.member_promote,
        name="member_promote",
    ),
    path("campaigns/<int:pk>/sessions/start/", views.session_start, name="session_start"),
    path("campaigns/<int:pk>/scenes/start/", views.scene_start, name="scene_start"),
    path("campaigns/<int:pk>/scenes/end/", views.scene_end, name="scene_end"),
    path("campaigns/<int:pk>/pools/", views.pool_adjust, name="pool_adjust"),
    path("campaigns/<int:pk>/characters/new/", views.character_new, name="character_new"),
    path(
        "campaigns/<int:pk>/characters/<int:cpk>/edit/",
        views.character_edit,
        name="character_edit",
    ),
]
