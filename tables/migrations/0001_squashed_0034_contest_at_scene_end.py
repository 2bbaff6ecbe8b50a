"""0001-0034 in one: the schema they build, made from the models as they stand.

A new database runs this alone, in about a second; 0033 alone (its verbose names,
252 AlterFields, each re-rendering the models) took 6.6 of migrate's 9 seconds,
for every test database, the demo's and `manage.py host`'s first start. A database
that has 0001-0034 applied takes this as applied too (Django's `replaces`); one part
of the way there runs the rest of the originals, which stay until every site has
passed 0034. Their two data migrations (0003, 0006) mend rows that existed before
them and are elided: a new database has none.
"""

import django.core.validators
import django.db.models.deletion
import tables.events
import tables.models.core
import tables.models.locale
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    replaces = [
        ("tables", "0001_initial"),
        ("tables", "0002_play_records"),
        ("tables", "0003_seed_roll_templates"),
        ("tables", "0004_tableevent_kind_choices"),
        ("tables", "0005_campaign_invite_limits"),
        ("tables", "0006_assist_consent_declared_edges"),
        ("tables", "0007_login_failures"),
        ("tables", "0008_campaign_discord"),
        ("tables", "0009_voided_events"),
        ("tables", "0010_person_settings"),
        ("tables", "0011_table_talk"),
        ("tables", "0012_called_tests"),
        ("tables", "0013_game_lines"),
        ("tables", "0014_tableevent_kind_talk_calls_lines"),
        ("tables", "0015_tableevent_kind_choices_callable"),
        ("tables", "0016_campaign_discord_hooks"),
        ("tables", "0017_login_failure_address"),
        ("tables", "0018_scene_board"),
        ("tables", "0019_tableevent_idempotency_key"),
        ("tables", "0020_conflicts"),
        ("tables", "0021_harm_and_extended_tasks"),
        ("tables", "0022_person_show_stage"),
        ("tables", "0023_language_and_time_zone"),
        ("tables", "0024_campaign_double_harm"),
        ("tables", "0025_called_test_edges"),
        ("tables", "0026_turn_order_per_line"),
        ("tables", "0027_line_starts"),
        ("tables", "0028_whisper"),
        ("tables", "0029_drop_login_failures"),
        ("tables", "0030_rule_marks_and_words"),
        ("tables", "0031_pool_change_reason_words"),
        ("tables", "0032_threat_visible_label"),
        ("tables", "0033_verbose_names"),
        ("tables", "0034_contest_at_scene_end"),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Campaign",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=100, verbose_name="Name")),
                (
                    "preset",
                    models.CharField(
                        choices=[
                            ("momenta", "Momenta (d6 pools, personal Momentum)"),
                            ("2d20", "2d20 (skill tests, group Momentum and Threat)"),
                        ],
                        default="momenta",
                        max_length=10,
                        verbose_name="Preset",
                    ),
                ),
                (
                    "dice_system",
                    models.CharField(
                        choices=[("d6", "d6 pools"), ("d20", "d20 skill tests")],
                        default="d6",
                        max_length=5,
                        verbose_name="Dice system",
                    ),
                ),
                (
                    "economy",
                    models.CharField(
                        choices=[
                            ("personal", "Personal Momentum per character"),
                            ("group", "Group Momentum pool and Threat"),
                        ],
                        default="personal",
                        max_length=10,
                        verbose_name="Economy",
                    ),
                ),
                (
                    "game_line",
                    models.CharField(
                        choices=[
                            ("seeds", "2d20 (core rules)"),
                            ("sta1", "Star Trek Adventures, 1st edition"),
                            ("sta2", "Star Trek Adventures, 2nd edition"),
                            ("conan", "Robert E. Howard's Conan"),
                            ("fallout", "Fallout"),
                            ("dune", "Dune: Adventures in the Imperium"),
                            ("achtung", "Achtung! Cthulhu"),
                        ],
                        default="seeds",
                        help_text="Names the pools and sets the group pool's cap and what Determination does.",
                        max_length=12,
                        verbose_name="2d20 game line",
                    ),
                ),
                (
                    "invite_token",
                    models.CharField(
                        default=tables.models.core.new_invite_token,
                        max_length=64,
                        unique=True,
                        verbose_name="Invite token",
                    ),
                ),
                (
                    "invite_expires_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="Invite expires at"),
                ),
                (
                    "invite_uses_left",
                    models.PositiveIntegerField(
                        blank=True, null=True, verbose_name="Invite uses left"
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="Created at")),
                (
                    "group_momentum",
                    models.PositiveSmallIntegerField(default=0, verbose_name="Group Momentum"),
                ),
                ("threat", models.PositiveIntegerField(default=0, verbose_name="Threat")),
                (
                    "threat_visible",
                    models.BooleanField(
                        default=False,
                        help_text="Show Threat to players (by default only the GM sees it).",
                        verbose_name="Threat visible",
                    ),
                ),
                (
                    "last_seq",
                    models.PositiveBigIntegerField(
                        default=0, verbose_name="Last number in the log"
                    ),
                ),
                (
                    "extra_success_stacks",
                    models.BooleanField(
                        default=True,
                        verbose_name="PAT-R1: repeated Extra Success upgrades one step each",
                    ),
                ),
                (
                    "band_label_0",
                    models.CharField(
                        default="Setback", max_length=40, verbose_name="PAT-R2: band 0 label"
                    ),
                ),
                (
                    "band_label_1",
                    models.CharField(
                        default="Success at a Cost",
                        max_length=40,
                        verbose_name="PAT-R2: band 1 label",
                    ),
                ),
                (
                    "band_label_2",
                    models.CharField(
                        default="Success", max_length=40, verbose_name="PAT-R2: band 2 label"
                    ),
                ),
                (
                    "band_label_3",
                    models.CharField(
                        default="Success with a Bonus",
                        max_length=40,
                        verbose_name="PAT-R2: band 3+ label",
                    ),
                ),
                (
                    "advantage_dice",
                    models.PositiveSmallIntegerField(
                        default=1, verbose_name="PM-R1: dice added by Advantage"
                    ),
                ),
                (
                    "disadvantage_dice",
                    models.PositiveSmallIntegerField(
                        default=1, verbose_name="PM-R1: dice removed by Disadvantage"
                    ),
                ),
                (
                    "complication_range",
                    models.PositiveSmallIntegerField(
                        default=1, verbose_name="T-R1: complication range (1 = only 20s)"
                    ),
                ),
                (
                    "scene_complication_range",
                    models.PositiveSmallIntegerField(
                        blank=True, null=True, verbose_name="Scene complication range"
                    ),
                ),
                (
                    "assistance_needs_leader_success",
                    models.BooleanField(
                        default=True,
                        verbose_name="T-03: assistance counts only if the leader scores",
                    ),
                ),
                (
                    "gm_momentum_to_threat",
                    models.BooleanField(
                        default=True,
                        verbose_name="CT-R1: a GM character's unspent Momentum goes to Threat",
                    ),
                ),
                (
                    "players_declare_edges",
                    models.BooleanField(
                        default=False,
                        help_text="Off: only the GM calls them (the GM rolls or records it for the character).",
                        verbose_name="Players may declare a GM-called edge, Disadvantage and trauma themselves",
                    ),
                ),
                (
                    "players_note_traits",
                    models.BooleanField(
                        default=False,
                        help_text="Off: only the GM (and Create a Trait spends) put traits on the board.",
                        verbose_name="Players may note scene traits and Threads on the board",
                    ),
                ),
                (
                    "double_harm",
                    models.BooleanField(
                        db_default=True,
                        default=True,
                        verbose_name="A hit of 5+ that also fills the track inflicts two harms",
                    ),
                ),
                (
                    "keep_initiative_cost",
                    models.PositiveSmallIntegerField(
                        blank=True,
                        help_text="Empty: the game line's price, 2 Momentum or 2 Threat.",
                        null=True,
                        validators=[django.core.validators.MaxValueValidator(6)],
                        verbose_name="What Keeping the Initiative costs",
                    ),
                ),
                (
                    "keep_once_in_a_row",
                    models.BooleanField(
                        db_default=True,
                        default=True,
                        help_text="Off: a side may keep it turn after turn while it pays.",
                        verbose_name="A side may keep the initiative only once in a row",
                    ),
                ),
                (
                    "players_open_each_round",
                    models.BooleanField(
                        db_default=False,
                        default=False,
                        help_text="Off: the side that did not take the round's last turn opens the next one.",
                        verbose_name="The players open every round",
                    ),
                ),
                (
                    "session_start_from_fortune",
                    models.BooleanField(
                        db_default=True,
                        default=True,
                        help_text="Off: Momentum and Doom carry over from the last session.",
                        verbose_name="Conan: a session starts with no Momentum, and Doom at the player characters' Fortune",
                    ),
                ),
                (
                    "mission_sets_threat",
                    models.BooleanField(
                        db_default=True,
                        default=True,
                        help_text="Off: Threat carries over from the last mission.",
                        verbose_name="Star Trek Adventures: a new mission sets Threat to 2 per player character",
                    ),
                ),
                (
                    "borrowed_extended_tasks",
                    models.BooleanField(
                        db_default=True,
                        default=True,
                        help_text="Conan and Achtung! Cthulhu use Star Trek Adventures 1st edition's Work and Breakthroughs; the core 2d20 rules use Dune's points. Off: these lines offer no extended tasks.",
                        verbose_name="Conan, Achtung! Cthulhu, the core 2d20 rules: extended tasks follow a sibling line's rules",
                    ),
                ),
                (
                    "contest_at_scene_end",
                    models.CharField(
                        choices=[
                            ("call_off", "It is called off"),
                            ("opposer_wins", "The opposer wins it"),
                        ],
                        db_default="call_off",
                        default="call_off",
                        help_text="A contest whose second character has rolled ends with that test either way.",
                        max_length=12,
                        verbose_name="A contest still waiting for its second roll when the scene ends",
                    ),
                ),
                (
                    "mute_pool_chatter",
                    models.BooleanField(
                        default=False,
                        help_text="On: a hand adjustment of a pool, or Threat added or spent, by one point makes no card in the log. Pools still update live and each pool's history keeps it.",
                        verbose_name="Mute one-point pool changes in the log",
                    ),
                ),
                (
                    "gm_reads_whispers",
                    models.BooleanField(
                        db_default=True,
                        default=True,
                        help_text="Off: a whisper from one player to another is for the two of them alone. Whispers already sent keep who may read them.",
                        verbose_name="GMs read the whispers players send each other",
                    ),
                ),
                (
                    "language",
                    models.CharField(
                        choices=[
                            ("en", "English"),
                            ("de", "Deutsch"),
                            ("fr", "Français"),
                            ("es", "Español"),
                        ],
                        db_default="en",
                        default="en",
                        help_text="Discord posts and exports are written in it; each person reads the table in their own language.",
                        max_length=10,
                        verbose_name="Campaign language",
                    ),
                ),
                (
                    "time_zone",
                    models.CharField(
                        db_default="UTC",
                        default="UTC",
                        help_text="The log's times for anyone who has not chosen a time zone of their own.",
                        max_length=64,
                        validators=[tables.models.locale.validate_time_zone],
                        verbose_name="Campaign time zone",
                    ),
                ),
                (
                    "discord_webhook_url",
                    models.CharField(
                        blank=True,
                        default="",
                        max_length=300,
                        verbose_name="Discord webhook for the table's channel",
                    ),
                ),
                (
                    "discord_gm_webhook_url",
                    models.CharField(
                        blank=True,
                        default="",
                        max_length=300,
                        verbose_name="Discord webhook for the GM (secret rolls)",
                    ),
                ),
                (
                    "discord_webhook_failures",
                    models.PositiveIntegerField(default=0, verbose_name="Discord webhook failures"),
                ),
                (
                    "discord_gm_webhook_failures",
                    models.PositiveIntegerField(
                        default=0, verbose_name="GM's Discord webhook failures"
                    ),
                ),
                (
                    "discord_webhook_parked_at",
                    models.DateTimeField(
                        blank=True, null=True, verbose_name="Discord webhook parked at"
                    ),
                ),
                (
                    "discord_gm_webhook_parked_at",
                    models.DateTimeField(
                        blank=True, null=True, verbose_name="GM's Discord webhook parked at"
                    ),
                ),
                (
                    "discord_last_error",
                    models.CharField(
                        blank=True, default="", max_length=300, verbose_name="Discord's last error"
                    ),
                ),
                (
                    "discord_last_error_at",
                    models.DateTimeField(
                        blank=True, null=True, verbose_name="Discord's last error at"
                    ),
                ),
                (
                    "discord_gm_webhook_set_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="GM's Discord webhook set by",
                    ),
                ),
                (
                    "discord_webhook_set_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="Discord webhook set by",
                    ),
                ),
                (
                    "owner",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="owned_campaigns",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="Owner",
                    ),
                ),
            ],
            options={
                "verbose_name": "campaign",
                "verbose_name_plural": "campaigns",
                "ordering": ["name"],
            },
        ),
        migrations.CreateModel(
            name="Character",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=80, verbose_name="Name")),
                ("is_npc", models.BooleanField(default=False, verbose_name="NPC")),
                ("notes", models.TextField(blank=True, verbose_name="Notes")),
                (
                    "in_creation",
                    models.BooleanField(
                        default=False,
                        help_text="Character creation mode: no Momentum spent or gained (PM-12).",
                        verbose_name="Being created",
                    ),
                ),
                (
                    "minor_foe",
                    models.BooleanField(
                        db_default=False,
                        default=False,
                        verbose_name="Minor foe: one successful attack defeats it",
                    ),
                ),
                ("momentum", models.PositiveSmallIntegerField(default=3, verbose_name="Momentum")),
                ("resolve", models.PositiveSmallIntegerField(default=0, verbose_name="Resolve")),
                (
                    "resolve_max",
                    models.PositiveSmallIntegerField(default=0, verbose_name="Resolve maximum"),
                ),
                (
                    "determination",
                    models.PositiveSmallIntegerField(default=0, verbose_name="Determination"),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="characters",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "owner",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="characters",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="Owner",
                    ),
                ),
            ],
            options={
                "verbose_name": "character",
                "verbose_name_plural": "characters",
                "ordering": ["is_npc", "name"],
            },
        ),
        migrations.CreateModel(
            name="Attribute",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=40, verbose_name="Name")),
                ("value", models.PositiveSmallIntegerField(verbose_name="Value")),
                (
                    "character",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="attributes",
                        to="tables.character",
                        verbose_name="Character",
                    ),
                ),
            ],
            options={
                "verbose_name": "attribute",
                "verbose_name_plural": "attributes",
                "ordering": ["name"],
            },
        ),
        migrations.CreateModel(
            name="AssistRequest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("requested", "Requested"),
                            ("accepted", "Accepted"),
                            ("declined", "Declined"),
                            ("used", "Used"),
                            ("failed", "Failed (the helper's test failed)"),
                        ],
                        default="requested",
                        max_length=10,
                        verbose_name="State",
                    ),
                ),
                ("structured", models.BooleanField(default=False, verbose_name="Structured")),
                ("helper_agreed", models.BooleanField(default=False, verbose_name="Helper agreed")),
                ("uncertain", models.BooleanField(default=False, verbose_name="Uncertain")),
                (
                    "test_passed",
                    models.BooleanField(blank=True, null=True, verbose_name="Test passed"),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="Created at")),
                (
                    "requested_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="Requested by",
                    ),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="assist_requests",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "helper",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="assists_given",
                        to="tables.character",
                        verbose_name="Helper",
                    ),
                ),
                (
                    "roller",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="assists_asked",
                        to="tables.character",
                        verbose_name="Roller",
                    ),
                ),
            ],
            options={
                "verbose_name": "assist request",
                "verbose_name_plural": "assist requests",
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="Asset",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=80, verbose_name="Name")),
                ("quality", models.PositiveSmallIntegerField(default=0, verbose_name="Quality")),
                ("permanent", models.BooleanField(default=False, verbose_name="Permanent")),
                ("lasting", models.BooleanField(default=False, verbose_name="Lasting")),
                (
                    "character",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="assets",
                        to="tables.character",
                        verbose_name="Character",
                    ),
                ),
            ],
            options={
                "verbose_name": "asset",
                "verbose_name_plural": "assets",
                "ordering": ["name"],
            },
        ),
        migrations.CreateModel(
            name="Conflict",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "mode",
                    models.CharField(
                        choices=[
                            ("sides", "Sides alternate"),
                            ("ordered", "The GM's order"),
                            ("first", "Players first"),
                            ("init", "By Initiative"),
                        ],
                        max_length=8,
                        verbose_name="Mode",
                    ),
                ),
                ("round", models.PositiveIntegerField(default=1, verbose_name="Round")),
                (
                    "last_side",
                    models.CharField(
                        blank=True,
                        choices=[("players", "The players' side"), ("gm", "The GM's side")],
                        max_length=8,
                        verbose_name="Last side",
                    ),
                ),
                ("last_kept", models.BooleanField(default=False, verbose_name="Last turn kept")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="Created at")),
                ("ended_at", models.DateTimeField(blank=True, null=True, verbose_name="Ended at")),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="conflicts",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
            ],
            options={
                "verbose_name": "conflict",
                "verbose_name_plural": "conflicts",
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="Contest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "hindrances",
                    models.PositiveSmallIntegerField(default=0, verbose_name="Hindrances"),
                ),
                (
                    "difficulty",
                    models.PositiveSmallIntegerField(default=0, verbose_name="Difficulty"),
                ),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("awaiting", "Waiting for the active character's roll"),
                            ("rolled", "Active character has rolled"),
                            ("resolved", "Resolved"),
                            ("cancelled", "Called off"),
                        ],
                        default="awaiting",
                        max_length=10,
                        verbose_name="State",
                    ),
                ),
                (
                    "active_won",
                    models.BooleanField(blank=True, null=True, verbose_name="Active side won"),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="Created at")),
                (
                    "active",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="contests_active",
                        to="tables.character",
                        verbose_name="Active",
                    ),
                ),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="Actor",
                    ),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="contests",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "opposer",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="contests_opposed",
                        to="tables.character",
                        verbose_name="Opposer",
                    ),
                ),
            ],
            options={
                "verbose_name": "contest",
                "verbose_name_plural": "contests",
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="CustomPattern",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=60, verbose_name="Name")),
                ("data", models.JSONField(default=dict, verbose_name="Data")),
                ("active", models.BooleanField(default=True, verbose_name="Active")),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="custom_patterns",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
            ],
            options={
                "verbose_name": "custom pattern",
                "verbose_name_plural": "custom patterns",
                "ordering": ["name"],
            },
        ),
        migrations.CreateModel(
            name="CustomSpend",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=60, verbose_name="Name")),
                ("cost", models.PositiveSmallIntegerField(default=1, verbose_name="Cost")),
                (
                    "repeatable",
                    models.BooleanField(
                        default=False,
                        help_text="May be used more than once a test.",
                        verbose_name="Repeatable",
                    ),
                ),
                (
                    "description",
                    models.CharField(blank=True, max_length=200, verbose_name="Description"),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="custom_spends",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
            ],
            options={
                "verbose_name": "custom spend",
                "verbose_name_plural": "custom spends",
                "ordering": ["name"],
            },
        ),
        migrations.CreateModel(
            name="D20Test",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("secret", models.BooleanField(default=False, verbose_name="Secret")),
                ("revealed", models.BooleanField(default=False, verbose_name="Revealed")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="Created at")),
                (
                    "role",
                    models.CharField(
                        choices=[
                            ("test", "Skill test"),
                            ("opposer", "Contest: opposer's roll"),
                            ("active", "Contest: active character's roll"),
                        ],
                        default="test",
                        max_length=10,
                        verbose_name="Role",
                    ),
                ),
                ("spec", models.JSONField(default=dict, verbose_name="Specification")),
                ("result", models.JSONField(default=dict, verbose_name="Result")),
                ("ledger", models.JSONField(blank=True, default=dict, verbose_name="Ledger")),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("rolled", "Rolled"),
                            ("spending", "Spending Momentum"),
                            ("resolved", "Resolved"),
                        ],
                        default="rolled",
                        max_length=10,
                        verbose_name="State",
                    ),
                ),
                (
                    "determination_permitted",
                    models.BooleanField(default=False, verbose_name="Determination allowed"),
                ),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="Actor",
                    ),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="d20_tests",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "character",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="d20_tests",
                        to="tables.character",
                        verbose_name="Character",
                    ),
                ),
                (
                    "contest",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tests",
                        to="tables.contest",
                        verbose_name="Contest",
                    ),
                ),
            ],
            options={
                "verbose_name": "2d20 test",
                "verbose_name_plural": "2d20 tests",
            },
        ),
        migrations.CreateModel(
            name="HarmTrack",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("track", models.CharField(max_length=20, verbose_name="Track")),
                ("taken", models.PositiveSmallIntegerField(default=0, verbose_name="Taken")),
                ("maximum", models.PositiveSmallIntegerField(verbose_name="Maximum")),
                ("hidden", models.BooleanField(default=False, verbose_name="Hidden")),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="harm_tracks",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "character",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="harm_tracks",
                        to="tables.character",
                        verbose_name="Character",
                    ),
                ),
            ],
            options={
                "verbose_name": "harm track",
                "verbose_name_plural": "harm tracks",
                "ordering": ["character_id", "id"],
            },
        ),
        migrations.CreateModel(
            name="Membership",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        choices=[("gm", "GM"), ("player", "Player"), ("observer", "Observer")],
                        default="player",
                        max_length=10,
                        verbose_name="Role",
                    ),
                ),
                ("joined_at", models.DateTimeField(auto_now_add=True, verbose_name="Joined at")),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memberships",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memberships",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="User",
                    ),
                ),
            ],
            options={
                "verbose_name": "membership",
                "verbose_name_plural": "memberships",
            },
        ),
        migrations.CreateModel(
            name="Participant",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "side",
                    models.CharField(
                        choices=[("players", "The players' side"), ("gm", "The GM's side")],
                        max_length=8,
                        verbose_name="Side",
                    ),
                ),
                ("position", models.PositiveIntegerField(verbose_name="Position")),
                ("acting", models.BooleanField(default=False, verbose_name="Acting")),
                ("acted", models.BooleanField(default=False, verbose_name="Acted")),
                (
                    "initiative",
                    models.PositiveSmallIntegerField(
                        blank=True, null=True, verbose_name="Initiative"
                    ),
                ),
                (
                    "character",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tables.character",
                        verbose_name="Character",
                    ),
                ),
                (
                    "conflict",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="participants",
                        to="tables.conflict",
                        verbose_name="Conflict",
                    ),
                ),
            ],
            options={
                "verbose_name": "participant",
                "verbose_name_plural": "participants",
                "ordering": ["position", "id"],
            },
        ),
        migrations.CreateModel(
            name="PersonSettings",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "animate_dice",
                    models.BooleanField(
                        default=False,
                        help_text="A short tumble of the newest roll's dice. Never when your system asks for reduced motion.",
                        verbose_name="Animate new dice",
                    ),
                ),
                (
                    "show_stage",
                    models.BooleanField(
                        db_default=True,
                        default=True,
                        help_text="Who rolled, the dice and the outcome, large for a moment, then in the log. Off: rolls go straight to the log.",
                        verbose_name="Show each roll large as it lands",
                    ),
                ),
                (
                    "language",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("", "The browser's language"),
                            ("en", "English"),
                            ("de", "Deutsch"),
                            ("fr", "Français"),
                            ("es", "Español"),
                        ],
                        db_default="",
                        default="",
                        max_length=10,
                        verbose_name="Language",
                    ),
                ),
                (
                    "time_zone",
                    models.CharField(
                        blank=True,
                        db_default="",
                        default="",
                        help_text="The log's times are shown in it. Blank: the campaign's time zone.",
                        max_length=64,
                        validators=[tables.models.locale.validate_time_zone],
                        verbose_name="Time zone",
                    ),
                ),
                (
                    "rule_marks",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("", "On the campaigns I run, not where I play"),
                            ("on", "Everywhere"),
                            ("off", "Nowhere"),
                        ],
                        db_default="",
                        default="",
                        help_text="A small § after a rule's effect names the rule; it opens the rules at it.",
                        max_length=3,
                        verbose_name="Rule marks (§)",
                    ),
                ),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="table_settings",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="User",
                    ),
                ),
            ],
            options={
                "verbose_name": "personal settings",
                "verbose_name_plural": "personal settings",
            },
        ),
        migrations.CreateModel(
            name="PlaySession",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveIntegerField(verbose_name="Number")),
                ("started_at", models.DateTimeField(auto_now_add=True, verbose_name="Started at")),
                ("ended_at", models.DateTimeField(blank=True, null=True, verbose_name="Ended at")),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="play_sessions",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
            ],
            options={
                "verbose_name": "play session",
                "verbose_name_plural": "play sessions",
                "ordering": ["-number"],
            },
        ),
        migrations.CreateModel(
            name="RollTemplate",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=60, verbose_name="Name")),
                ("data", models.JSONField(default=dict, verbose_name="Data")),
                (
                    "campaign_labels",
                    models.BooleanField(
                        default=False, verbose_name="Use the campaign's band labels (PAT-R2)"
                    ),
                ),
                ("position", models.PositiveSmallIntegerField(default=0, verbose_name="Position")),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="roll_templates",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
            ],
            options={
                "verbose_name": "roll template",
                "verbose_name_plural": "roll templates",
                "ordering": ["position", "name"],
            },
        ),
        migrations.CreateModel(
            name="Scene",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveIntegerField(verbose_name="Number")),
                ("title", models.CharField(blank=True, max_length=100, verbose_name="Title")),
                ("started_at", models.DateTimeField(auto_now_add=True, verbose_name="Started at")),
                ("ended_at", models.DateTimeField(blank=True, null=True, verbose_name="Ended at")),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="scenes",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "play_session",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="scenes",
                        to="tables.playsession",
                        verbose_name="Session",
                    ),
                ),
            ],
            options={
                "verbose_name": "scene",
                "verbose_name_plural": "scenes",
                "ordering": ["-number"],
            },
        ),
        migrations.CreateModel(
            name="ExtendedTask",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=100, verbose_name="name")),
                ("rule", models.CharField(max_length=10, verbose_name="Rule")),
                ("work", models.PositiveSmallIntegerField(verbose_name="Work")),
                (
                    "magnitude",
                    models.PositiveSmallIntegerField(default=0, verbose_name="Magnitude"),
                ),
                (
                    "resistance",
                    models.PositiveSmallIntegerField(default=0, verbose_name="Resistance"),
                ),
                (
                    "difficulty",
                    models.PositiveSmallIntegerField(default=0, verbose_name="Difficulty"),
                ),
                (
                    "breakthrough_at",
                    models.JSONField(blank=True, default=list, verbose_name="Breakthrough every"),
                ),
                ("progress", models.PositiveSmallIntegerField(default=0, verbose_name="Progress")),
                (
                    "breakthroughs",
                    models.PositiveSmallIntegerField(default=0, verbose_name="Breakthroughs"),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="Created at")),
                (
                    "closed_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="Closed at"),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="extended_tasks",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="Created by",
                    ),
                ),
                (
                    "scene",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="extended_tasks",
                        to="tables.scene",
                        verbose_name="Scene",
                    ),
                ),
            ],
            options={
                "verbose_name": "extended task",
                "verbose_name_plural": "extended tasks",
                "ordering": ["created_at", "id"],
            },
        ),
        migrations.AddField(
            model_name="conflict",
            name="scene",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="conflicts",
                to="tables.scene",
                verbose_name="Scene",
            ),
        ),
        migrations.CreateModel(
            name="SceneTrait",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("trait", "Trait"),
                            ("complication", "Complication"),
                            ("thread", "Thread"),
                        ],
                        default="trait",
                        max_length=12,
                        verbose_name="Kind",
                    ),
                ),
                ("text", models.CharField(max_length=200, verbose_name="Text")),
                ("origin", models.CharField(blank=True, max_length=200, verbose_name="Origin")),
                (
                    "spend_index",
                    models.PositiveSmallIntegerField(
                        blank=True, null=True, verbose_name="Spend number"
                    ),
                ),
                ("hidden", models.BooleanField(default=False, verbose_name="Hidden")),
                ("lasting", models.BooleanField(default=False, verbose_name="Lasting")),
                ("refused", models.BooleanField(default=False, verbose_name="Refused")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="Created at")),
                (
                    "removed_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="Removed at"),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="scene_traits",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "character",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tables.character",
                        verbose_name="Character",
                    ),
                ),
                (
                    "made_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="Made by",
                    ),
                ),
                (
                    "scene",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="traits",
                        to="tables.scene",
                        verbose_name="Scene",
                    ),
                ),
                (
                    "test",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tables.d20test",
                        verbose_name="Test",
                    ),
                ),
            ],
            options={
                "verbose_name": "scene trait",
                "verbose_name_plural": "scene traits",
                "ordering": ["created_at", "id"],
            },
        ),
        migrations.CreateModel(
            name="Skill",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=40, verbose_name="Name")),
                ("value", models.PositiveSmallIntegerField(verbose_name="Value")),
                (
                    "character",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="skills",
                        to="tables.character",
                        verbose_name="Character",
                    ),
                ),
            ],
            options={
                "verbose_name": "skill",
                "verbose_name_plural": "skills",
                "ordering": ["name"],
            },
        ),
        migrations.CreateModel(
            name="TableEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seq", models.PositiveBigIntegerField(verbose_name="Number in the log")),
                (
                    "kind",
                    models.CharField(
                        choices=tables.events.choices, max_length=40, verbose_name="Kind"
                    ),
                ),
                ("payload", models.JSONField(blank=True, default=dict, verbose_name="Payload")),
                (
                    "audience",
                    models.CharField(
                        choices=[
                            ("all", "Everyone at the table"),
                            ("gm", "GM only"),
                            ("named", "Only those it names"),
                        ],
                        default="all",
                        max_length=5,
                        verbose_name="Audience",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="Created at")),
                (
                    "idempotency_key",
                    models.UUIDField(
                        blank=True, editable=False, null=True, verbose_name="Request key"
                    ),
                ),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="Actor",
                    ),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="events",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "voided_by",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="voids",
                        to="tables.tableevent",
                        verbose_name="Voided by",
                    ),
                ),
            ],
            options={
                "verbose_name": "table event",
                "verbose_name_plural": "table events",
                "ordering": ["campaign", "seq"],
            },
        ),
        migrations.CreateModel(
            name="PoolChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "pool",
                    models.CharField(
                        choices=[
                            ("group_momentum", "Group Momentum"),
                            ("threat", "Threat"),
                            ("momentum", "Momentum"),
                            ("resolve", "Resolve"),
                            ("determination", "Determination"),
                        ],
                        max_length=20,
                        verbose_name="Pool",
                    ),
                ),
                ("delta", models.IntegerField(verbose_name="Delta")),
                ("after", models.IntegerField(verbose_name="After")),
                ("lost", models.PositiveIntegerField(default=0, verbose_name="Lost")),
                ("reason", models.CharField(max_length=200, verbose_name="Reason")),
                (
                    "reason_words",
                    models.JSONField(
                        blank=True, editable=False, null=True, verbose_name="Reason (worded)"
                    ),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="pool_changes",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "character",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="pool_changes",
                        to="tables.character",
                        verbose_name="Character",
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="changes",
                        to="tables.tableevent",
                        verbose_name="Event",
                    ),
                ),
            ],
            options={
                "verbose_name": "pool change",
                "verbose_name_plural": "pool changes",
                "ordering": ["-event__seq", "-id"],
            },
        ),
        migrations.CreateModel(
            name="MomentaRoll",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("secret", models.BooleanField(default=False, verbose_name="Secret")),
                ("revealed", models.BooleanField(default=False, verbose_name="Revealed")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="Created at")),
                ("spec", models.JSONField(verbose_name="Specification")),
                ("result", models.JSONField(verbose_name="Result")),
                ("applied", models.JSONField(blank=True, null=True, verbose_name="Applied")),
                ("card", models.JSONField(default=dict, verbose_name="Card")),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("awaiting_allocation", "Awaiting the pattern allocation"),
                            ("resolved", "Resolved"),
                        ],
                        default="awaiting_allocation",
                        max_length=20,
                        verbose_name="State",
                    ),
                ),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="Actor",
                    ),
                ),
                (
                    "assist",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="rolls",
                        to="tables.assistrequest",
                        verbose_name="Assist",
                    ),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="momenta_rolls",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "character",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="momenta_rolls",
                        to="tables.character",
                        verbose_name="Character",
                    ),
                ),
                (
                    "event",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="momenta_roll",
                        to="tables.tableevent",
                        verbose_name="Event",
                    ),
                ),
                (
                    "patterns_event",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tables.tableevent",
                        verbose_name="Patterns' event",
                    ),
                ),
                (
                    "reveal_event",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tables.tableevent",
                        verbose_name="Reveal event",
                    ),
                ),
            ],
            options={
                "verbose_name": "Momenta roll",
                "verbose_name_plural": "Momenta rolls",
            },
        ),
        migrations.CreateModel(
            name="HarmEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("delta", models.SmallIntegerField(verbose_name="Delta")),
                ("after", models.PositiveSmallIntegerField(verbose_name="After")),
                ("lost", models.PositiveSmallIntegerField(default=0, verbose_name="Lost")),
                ("reason", models.CharField(max_length=200, verbose_name="Reason")),
                ("hit", models.BooleanField(default=False, verbose_name="Hit")),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="harm_entries",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "d20_test",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tables.d20test",
                        verbose_name="2d20 test",
                    ),
                ),
                (
                    "track",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entries",
                        to="tables.harmtrack",
                        verbose_name="Track",
                    ),
                ),
                (
                    "momenta_roll",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tables.momentaroll",
                        verbose_name="Momenta roll",
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="harm_entries",
                        to="tables.tableevent",
                        verbose_name="Event",
                    ),
                ),
            ],
            options={
                "verbose_name": "harm entry",
                "verbose_name_plural": "harm entries",
                "ordering": ["-event__seq", "-id"],
            },
        ),
        migrations.CreateModel(
            name="ExtendedTaskRoll",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("value", models.PositiveSmallIntegerField(verbose_name="Value")),
                ("amount", models.PositiveSmallIntegerField(verbose_name="Amount")),
                ("breakthroughs", models.PositiveSmallIntegerField(verbose_name="Breakthroughs")),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "task",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rolls",
                        to="tables.extendedtask",
                        verbose_name="Task",
                    ),
                ),
                (
                    "test",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="extended_task",
                        to="tables.d20test",
                        verbose_name="Test",
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tables.tableevent",
                        verbose_name="Event",
                    ),
                ),
            ],
            options={
                "verbose_name": "extended task roll",
                "verbose_name_plural": "extended task rolls",
            },
        ),
        migrations.AddField(
            model_name="d20test",
            name="event",
            field=models.ForeignKey(
                blank=True,
                help_text="The event that announced the roll.",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="tables.tableevent",
                verbose_name="Event",
            ),
        ),
        migrations.CreateModel(
            name="CalledTest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "system",
                    models.CharField(
                        choices=[("d20", "2d20 skill test"), ("momenta", "Momenta roll")],
                        max_length=8,
                        verbose_name="System",
                    ),
                ),
                ("attribute", models.CharField(max_length=40, verbose_name="Attribute")),
                ("skill", models.CharField(blank=True, max_length=40, verbose_name="Skill")),
                ("focus", models.CharField(blank=True, max_length=120, verbose_name="Focus")),
                (
                    "difficulty",
                    models.PositiveSmallIntegerField(
                        blank=True, null=True, verbose_name="Difficulty"
                    ),
                ),
                (
                    "complication_range",
                    models.PositiveSmallIntegerField(
                        blank=True, null=True, verbose_name="Complication range"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        blank=True,
                        choices=[("action", "Action roll"), ("luck", "Luck roll")],
                        max_length=8,
                        verbose_name="Kind",
                    ),
                ),
                (
                    "opposition_pool",
                    models.PositiveSmallIntegerField(
                        blank=True, null=True, verbose_name="Opposition pool"
                    ),
                ),
                (
                    "disadvantage",
                    models.BooleanField(
                        db_default=False, default=False, verbose_name="Disadvantage"
                    ),
                ),
                ("edge", models.BooleanField(db_default=False, default=False, verbose_name="Edge")),
                ("hidden", models.BooleanField(default=False, verbose_name="Hidden")),
                ("note", models.CharField(blank=True, max_length=120, verbose_name="Note")),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("open", "Waiting for the roll"),
                            ("answered", "Rolled"),
                            ("cancelled", "Called off"),
                        ],
                        default="open",
                        max_length=10,
                        verbose_name="State",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="Created at")),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="Actor",
                    ),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="called_tests",
                        to="tables.campaign",
                        verbose_name="Campaign",
                    ),
                ),
                (
                    "answered_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tables.character",
                        verbose_name="Answered by",
                    ),
                ),
                (
                    "character",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="called_tests",
                        to="tables.character",
                        verbose_name="Character",
                    ),
                ),
                (
                    "d20_test",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tables.d20test",
                        verbose_name="2d20 test",
                    ),
                ),
                (
                    "momenta_roll",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tables.momentaroll",
                        verbose_name="Momenta roll",
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        blank=True,
                        help_text="The event that made the call.",
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tables.tableevent",
                        verbose_name="Event",
                    ),
                ),
            ],
            options={
                "verbose_name": "called test",
                "verbose_name_plural": "called tests",
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="Trait",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[("thread", "Thread"), ("focus", "Focus"), ("trait", "Trait")],
                        max_length=10,
                        verbose_name="Kind",
                    ),
                ),
                ("text", models.CharField(max_length=120, verbose_name="Text")),
                (
                    "character",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="traits",
                        to="tables.character",
                        verbose_name="Character",
                    ),
                ),
            ],
            options={
                "verbose_name": "trait",
                "verbose_name_plural": "traits",
                "ordering": ["kind", "text"],
            },
        ),
        migrations.AddConstraint(
            model_name="campaign",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("group_momentum__gte", 0),
                    (
                        "game_line__in",
                        ("seeds", "sta1", "sta2", "conan", "fallout", "dune", "achtung"),
                    ),
                    ("group_momentum__lte", 6),
                ),
                name="campaign_group_momentum_within_line_cap",
            ),
        ),
        migrations.AddConstraint(
            model_name="campaign",
            constraint=models.CheckConstraint(
                condition=models.Q(("threat__gte", 0)), name="campaign_threat_nonneg"
            ),
        ),
        migrations.AddConstraint(
            model_name="campaign",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("scene_complication_range__isnull", True),
                    models.Q(
                        ("scene_complication_range__gte", 1), ("scene_complication_range__lte", 20)
                    ),
                    _connector="OR",
                ),
                name="campaign_scene_complication_range_1_20",
            ),
        ),
        migrations.AddConstraint(
            model_name="character",
            constraint=models.UniqueConstraint(
                fields=("campaign", "name"), name="unique_character_name"
            ),
        ),
        migrations.AddConstraint(
            model_name="character",
            constraint=models.CheckConstraint(
                condition=models.Q(("momentum__gte", 0), ("momentum__lte", 6)),
                name="character_momentum_0_6",
            ),
        ),
        migrations.AddConstraint(
            model_name="character",
            constraint=models.CheckConstraint(
                condition=models.Q(("resolve__gte", 0), ("resolve__lte", models.F("resolve_max"))),
                name="character_resolve_0_max",
            ),
        ),
        migrations.AddConstraint(
            model_name="character",
            constraint=models.CheckConstraint(
                condition=models.Q(("determination__gte", 0)), name="character_determination_nonneg"
            ),
        ),
        migrations.AddConstraint(
            model_name="attribute",
            constraint=models.UniqueConstraint(
                fields=("character", "name"), name="unique_attribute_name"
            ),
        ),
        migrations.AddConstraint(
            model_name="attribute",
            constraint=models.CheckConstraint(
                condition=models.Q(("value__gte", 0)), name="attribute_value_nonneg"
            ),
        ),
        migrations.AddConstraint(
            model_name="assistrequest",
            constraint=models.CheckConstraint(
                condition=models.Q(("helper", models.F("roller")), _negated=True),
                name="assist_helper_not_roller",
            ),
        ),
        migrations.AddConstraint(
            model_name="contest",
            constraint=models.CheckConstraint(
                condition=models.Q(("opposer", models.F("active")), _negated=True),
                name="contest_two_characters",
            ),
        ),
        migrations.AddConstraint(
            model_name="custompattern",
            constraint=models.UniqueConstraint(
                fields=("campaign", "name"), name="unique_custom_pattern_name"
            ),
        ),
        migrations.AddConstraint(
            model_name="customspend",
            constraint=models.UniqueConstraint(
                fields=("campaign", "name"), name="unique_custom_spend_name"
            ),
        ),
        migrations.AddConstraint(
            model_name="customspend",
            constraint=models.CheckConstraint(
                condition=models.Q(("cost__gte", 1)), name="custom_spend_cost_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="harmtrack",
            constraint=models.UniqueConstraint(
                fields=("character", "track"), name="unique_harm_track"
            ),
        ),
        migrations.AddConstraint(
            model_name="harmtrack",
            constraint=models.CheckConstraint(
                condition=models.Q(("taken__lte", models.F("maximum"))), name="harm_within_track"
            ),
        ),
        migrations.AddConstraint(
            model_name="membership",
            constraint=models.UniqueConstraint(
                fields=("campaign", "user"), name="one_membership_per_user"
            ),
        ),
        migrations.AddConstraint(
            model_name="participant",
            constraint=models.UniqueConstraint(
                fields=("conflict", "character"), name="one_place_per_character"
            ),
        ),
        migrations.AddConstraint(
            model_name="participant",
            constraint=models.UniqueConstraint(
                condition=models.Q(("acting", True)),
                fields=("conflict",),
                name="one_acting_per_conflict",
            ),
        ),
        migrations.AddConstraint(
            model_name="playsession",
            constraint=models.UniqueConstraint(
                fields=("campaign", "number"), name="unique_session_number"
            ),
        ),
        migrations.AddConstraint(
            model_name="rolltemplate",
            constraint=models.UniqueConstraint(
                fields=("campaign", "name"), name="unique_roll_template_name"
            ),
        ),
        migrations.AddConstraint(
            model_name="scene",
            constraint=models.UniqueConstraint(
                fields=("campaign", "number"), name="unique_scene_number"
            ),
        ),
        migrations.AddConstraint(
            model_name="extendedtask",
            constraint=models.CheckConstraint(
                condition=models.Q(("progress__lte", models.F("work"))),
                name="task_progress_within_work",
            ),
        ),
        migrations.AddConstraint(
            model_name="conflict",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ended_at__isnull", True)),
                fields=("campaign",),
                name="one_running_conflict",
            ),
        ),
        migrations.AddConstraint(
            model_name="scenetrait",
            constraint=models.CheckConstraint(
                condition=models.Q(("text", ""), _negated=True), name="scene_trait_text_not_empty"
            ),
        ),
        migrations.AddConstraint(
            model_name="skill",
            constraint=models.UniqueConstraint(
                fields=("character", "name"), name="unique_skill_name"
            ),
        ),
        migrations.AddConstraint(
            model_name="tableevent",
            constraint=models.UniqueConstraint(fields=("campaign", "seq"), name="unique_event_seq"),
        ),
        migrations.AddConstraint(
            model_name="tableevent",
            constraint=models.UniqueConstraint(
                condition=models.Q(("idempotency_key__isnull", False)),
                fields=("campaign", "idempotency_key"),
                name="unique_event_idempotency_key",
            ),
        ),
        migrations.AddConstraint(
            model_name="harmentry",
            constraint=models.UniqueConstraint(
                condition=models.Q(("hit", True)),
                fields=("momenta_roll",),
                name="one_hit_per_momenta_roll",
            ),
        ),
        migrations.AddConstraint(
            model_name="harmentry",
            constraint=models.UniqueConstraint(
                condition=models.Q(("hit", True)), fields=("d20_test",), name="one_hit_per_d20_test"
            ),
        ),
        migrations.AddConstraint(
            model_name="calledtest",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("difficulty__isnull", True), ("difficulty__lte", 5), _connector="OR"
                ),
                name="called_test_difficulty_0_5",
            ),
        ),
    ]
