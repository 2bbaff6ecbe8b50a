"""Every URL of the app, one section per area of the views package."""

from django.contrib.auth import views as auth_views
from django.urls import path

from tables.views import (
    calls,
    conflicts,
    d20,
    discord,
    exports,
    gm,
    harm,
    log,
    momenta,
    passwords,
    recap,
    regions,
    scene_board,
    site,
    table,
    talk,
)
from tables.views import game_lines as line_views
from tables.views.person import person_email, person_settings
from tables.views.rulebook import rules_page
from tables.views.submissions import landed as submission_landed

M = "campaigns/<int:pk>/momenta/"
T = "campaigns/<int:pk>/d20/tests/<int:tid>/"

site_patterns = [
    path("", site.home, name="home"),
    path("signup/", site.signup, name="signup"),
    path("login/", site.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/reset/", passwords.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        passwords.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("rules/", rules_page, name="rules"),
    path("account/settings/", person_settings, name="person_settings"),
    path("account/email/", person_email, name="person_email"),
    path("join/<str:token>/", site.join, name="join"),
    path("campaigns/new/", site.campaign_new, name="campaign_new"),
    path("campaigns/<int:pk>/", site.campaign_detail, name="campaign_detail"),
    path("campaigns/<int:pk>/settings/", site.campaign_settings, name="campaign_settings"),
    path("campaigns/<int:pk>/settings/discord/", discord.campaign_discord, name="campaign_discord"),
    path("campaigns/<int:pk>/invite/", site.invite_regenerate, name="invite_regenerate"),
    path("campaigns/<int:pk>/export/", exports.campaign_export, name="campaign_export"),
    path(
        "campaigns/<int:pk>/members/<int:member_pk>/remove/",
        site.member_remove,
        name="member_remove",
    ),
    path(
        "campaigns/<int:pk>/members/<int:member_pk>/promote/",
        site.member_promote,
        name="member_promote",
    ),
    path("campaigns/<int:pk>/sessions/start/", site.session_start, name="session_start"),
    path("campaigns/<int:pk>/scenes/start/", site.scene_start, name="scene_start"),
    path("campaigns/<int:pk>/scenes/end/", site.scene_end, name="scene_end"),
    path("campaigns/<int:pk>/pools/", site.pool_adjust, name="pool_adjust"),
    path("campaigns/<int:pk>/characters/new/", site.character_new, name="character_new"),
    path(
        "campaigns/<int:pk>/characters/<int:cpk>/edit/",
        site.character_edit,
        name="character_edit",
    ),
]

table_patterns = [
    path("campaigns/<int:pk>/table/", table.table, name="table"),
    path("campaigns/<int:pk>/table/note/", table.table_note, name="table_note"),
    path("campaigns/<int:pk>/table/board/", scene_board.board_command, name="board_command"),
    path("campaigns/<int:pk>/table/turns/", conflicts.turn_command, name="turn_command"),
    path("campaigns/<int:pk>/table/harm/", harm.harm_command, name="harm_command"),
    path("campaigns/<int:pk>/table/tasks/", harm.task_command, name="task_command"),
    path(
        "campaigns/<int:pk>/table/reference/", scene_board.scene_reference, name="scene_reference"
    ),
    path("campaigns/<int:pk>/table/talk/", talk.table_talk, name="table_talk"),
    path("campaigns/<int:pk>/table/ledger/", table.pool_ledger, name="pool_ledger"),
    path("campaigns/<int:pk>/recap/", recap.recap, name="recap"),
    path("campaigns/<int:pk>/recap.md", recap.recap_markdown, name="recap_markdown"),
    path("campaigns/<int:pk>/table/log/", log.table_log, name="table_log"),
    path("campaigns/<int:pk>/table/landed/", submission_landed, name="table_landed"),
]

momenta_patterns = [
    path(M + "composer/", momenta.composer, name="momenta_composer"),
    path(M + "odds/", momenta.odds, name="momenta_odds"),
    path(M + "roll/", momenta.roll, name="momenta_roll"),
    path(M + "rolls/<int:roll_pk>/allocate/", momenta.allocate, name="momenta_allocate"),
    path(M + "rolls/<int:roll_pk>/chooser/", momenta.chooser, name="momenta_chooser"),
    path(M + "rolls/<int:roll_pk>/reveal/", momenta.reveal, name="momenta_reveal"),
    path(M + "assists/", momenta.assist_request, name="momenta_assist_request"),
    path(M + "assists/mine/", regions.momenta_assists, name="momenta_assists"),
    path(M + "assists/choice/", regions.momenta_assist_choice, name="momenta_assist_choice"),
    path(
        M + "assists/<int:assist_pk>/answer/", momenta.assist_answer, name="momenta_assist_answer"
    ),
    path(M + "trauma/", momenta.trauma, name="momenta_trauma"),
    path(M + "gm-tools/", momenta.gm_tools, name="momenta_gm_tools"),
    path(M + "templates/", momenta.template_save, name="momenta_template_save"),
    path(
        M + "templates/<int:template_pk>/delete/",
        momenta.template_delete,
        name="momenta_template_delete",
    ),
    path(M + "patterns/", momenta.pattern_save, name="momenta_pattern_save"),
]

d20_patterns = [
    path("campaigns/<int:pk>/d20/composer/", d20.d20_composer, name="d20_composer"),
    path("campaigns/<int:pk>/d20/odds/", d20.d20_odds, name="d20_odds"),
    path("campaigns/<int:pk>/d20/roll/", d20.d20_roll, name="d20_roll"),
    path(T, d20.d20_panel, name="d20_panel"),
    path("campaigns/<int:pk>/d20/panel/", regions.d20_panel_current, name="d20_panel_current"),
    path("campaigns/<int:pk>/d20/open-tests/", regions.d20_open_tests, name="d20_open_tests"),
    path(T + "reroll/", d20.d20_reroll, name="d20_reroll"),
    path(T + "spend/", d20.d20_spend, name="d20_spend"),
    path(T + "spends/<int:index>/refund/", d20.d20_refund, name="d20_refund"),
    path(T + "spends/<int:index>/veto/", d20.d20_veto, name="d20_veto"),
    path(T + "permit/", d20.d20_permit, name="d20_permit"),
    path(T + "resolve/", d20.d20_resolve, name="d20_resolve"),
]

gm_patterns = [
    path("campaigns/<int:pk>/gm/", gm.gm_panel, name="gm_panel"),
    path("campaigns/<int:pk>/gm/threat/", gm.gm_threat, name="gm_threat"),
    path(
        "campaigns/<int:pk>/gm/threat/visible/",
        gm.gm_threat_visible,
        name="gm_threat_visible",
    ),
    path("campaigns/<int:pk>/gm/pools/", gm.gm_pool, name="gm_pool"),
    path("campaigns/<int:pk>/gm/session/", gm.gm_session_start, name="gm_session_start"),
    path("campaigns/<int:pk>/gm/scene/end/", gm.gm_scene_end, name="gm_scene_end"),
    path("campaigns/<int:pk>/gm/contests/", gm.gm_contest, name="gm_contest"),
    path(
        "campaigns/<int:pk>/gm/contests/<int:cid>/cancel/",
        gm.gm_contest_cancel,
        name="gm_contest_cancel",
    ),
    path("campaigns/<int:pk>/gm/tests/<int:tid>/reveal/", gm.gm_reveal, name="gm_reveal"),
    path("campaigns/<int:pk>/gm/spends/", gm.gm_spend_save, name="gm_spend_save"),
    path(
        "campaigns/<int:pk>/gm/spends/<int:sid>/delete/",
        gm.gm_spend_delete,
        name="gm_spend_delete",
    ),
    path("campaigns/<int:pk>/gm/events/<int:seq>/void/", gm.gm_void, name="gm_void"),
]

C = "campaigns/<int:pk>/calls/"
call_patterns = [
    path(C, calls.called_tests, name="called_tests"),
    path(C + "new/", calls.call_test, name="call_test"),
    path(C + "odds/", calls.call_odds, name="call_odds"),
    path(C + "<int:cid>/cancel/", calls.call_cancel, name="call_cancel"),
    path(C + "<int:cid>/composer/", calls.call_composer, name="call_composer"),
    path(C + "<int:cid>/d20/", calls.answer_d20, name="call_answer_d20"),
    path(C + "<int:cid>/momenta/", calls.answer_momenta, name="call_answer_momenta"),
]

urlpatterns = site_patterns + table_patterns + momenta_patterns + d20_patterns + gm_patterns
urlpatterns += call_patterns
# 2d20 game lines (GL-04, GL-05): Challenge dice, the scene's complication range.
urlpatterns += [
    path("campaigns/<int:pk>/d20/challenge/", line_views.challenge_roll, name="challenge_roll"),
    path(
        "campaigns/<int:pk>/gm/scene/complications/",
        line_views.scene_complication,
        name="scene_complication",
    ),
    # GL-02: the personal pool back to its start at a new mission (adventure, quest).
    path("campaigns/<int:pk>/gm/new-adventure/", line_views.new_adventure, name="new_adventure"),
    path("campaigns/<int:pk>/d20/narrative/", line_views.narrative_spend, name="narrative_spend"),
]
