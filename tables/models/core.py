"""Data and small invariants. Game decisions live in rules/, changes in services.py."""

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

# The caps are the rules' (MO-06, PM-04); the constraints below only echo them.
from rules import game_lines
from rules.pools import PERSONAL_MOMENTUM_MAX
from tables.models.locale import validate_time_zone
from tables.words.line_names import worded_line

KEEP_COST_MAX = 6  # SC-05: more than a full group pool could never be paid


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


# Campaign fields the GM may change on the settings page: the choices behind the
# preset and every ruling (RULES.md clauses ending in R…, and T-03). The settings
# form shows these; services.campaigns.update_campaign_settings accepts only these.
SETTINGS_FIELDS = (
    "name",
    "dice_system",
    "economy",
    "threat_visible",
    "extra_success_stacks",
    "band_label_0",
    "band_label_1",
    "band_label_2",
    "band_label_3",
    "advantage_dice",
    "disadvantage_dice",
    "complication_range",
    "assistance_needs_leader_success",
    "gm_momentum_to_threat",
    "players_declare_edges",
    "mute_pool_chatter",
    "game_line",
    "players_note_traits",
    "language",
    "time_zone",
    "double_harm",
    "keep_initiative_cost",
    "keep_once_in_a_row",
    "players_open_each_round",
    "session_start_from_fortune",
    "mission_sets_threat",
    "borrowed_extended_tasks",
    "contest_at_scene_end",
    "gm_reads_whispers",
)


def _group_momentum_within_line_cap() -> Q:
    """0 ≤ group Momentum ≤ the cap of the campaign's game line (MO-06, GL-01), one clause
    per cap in rules.game_lines: the rules decide, the database only echoes them."""
    within = Q()
    for cap, keys in game_lines.caps().items():
        within |= Q(game_line__in=keys, group_momentum__lte=cap)
    return Q(group_momentum__gte=0) & within


class Campaign(models.Model):
    class Preset(models.TextChoices):
        MOMENTA = "momenta", gettext_lazy("Momenta (d6 pools, personal Momentum)")
        D20 = "2d20", gettext_lazy("2d20 (skill tests, group Momentum and Threat)")

    class DiceSystem(models.TextChoices):
        D6 = "d6", gettext_lazy("d6 pools")
        D20 = "d20", gettext_lazy("d20 skill tests")

    class Economy(models.TextChoices):
        PERSONAL = "personal", gettext_lazy("Personal Momentum per character")
        GROUP = "group", gettext_lazy("Group Momentum pool and Threat")

    class ContestAtSceneEnd(models.TextChoices):
        """CT-R2: what becomes of a contest its active character has not answered when
        the scene ends."""

        CALL_OFF = "call_off", gettext_lazy("It is called off")
        OPPOSER_WINS = "opposer_wins", gettext_lazy("The opposer wins it")

    name = models.CharField(max_length=100, verbose_name=gettext_lazy("Name"))
    preset = models.CharField(
        max_length=10,
        choices=Preset.choices,
        default=Preset.MOMENTA,
        verbose_name=gettext_lazy("Preset"),
    )
    dice_system = models.CharField(
        max_length=5,
        choices=DiceSystem.choices,
        default=DiceSystem.D6,
        verbose_name=gettext_lazy("Dice system"),
    )
    economy = models.CharField(
        max_length=10,
        choices=Economy.choices,
        default=Economy.PERSONAL,
        verbose_name=gettext_lazy("Economy"),
    )
    # The 2d20 line played (rules.game_lines, GL-01): pool names, group cap, Determination.
    game_line = models.CharField(
        gettext_lazy("2d20 game line"),
        max_length=12,
        choices=game_lines.choices(),
        default=game_lines.DEFAULT,
        help_text=gettext_lazy(
            "Names the pools and sets the group pool's cap and what Determination does."
        ),
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="owned_campaigns",
        verbose_name=gettext_lazy("Owner"),
    )
    invite_token = models.CharField(
        max_length=64,
        unique=True,
        default=new_invite_token,
        verbose_name=gettext_lazy("Invite token"),
    )
    # Limits the GM may put on the invite link; empty means no limit.
    invite_expires_at = models.DateTimeField(
        null=True, blank=True, verbose_name=gettext_lazy("Invite expires at")
    )
    invite_uses_left = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=gettext_lazy("Invite uses left")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("Created at"))

    # Pools of the group economy (MO-06, MO-13).
    group_momentum = models.PositiveSmallIntegerField(
        default=0, verbose_name=gettext_lazy("Group Momentum")
    )
    threat = models.PositiveIntegerField(default=0, verbose_name=gettext_lazy("Threat"))
    threat_visible = models.BooleanField(
        gettext_lazy("Threat visible"),
        default=False,
        help_text=gettext_lazy("Show Threat to players (by default only the GM sees it)."),
    )

    # Sequence number of the last TableEvent; bumped under the row lock so
    # event numbers are unique and gap-free per campaign.
    last_seq = models.PositiveBigIntegerField(
        default=0, verbose_name=gettext_lazy("Last number in the log")
    )

    # Rulings (RULES.md clauses ending in R…), each a setting with its default.
    extra_success_stacks = models.BooleanField(
        gettext_lazy("PAT-R1: repeated Extra Success upgrades one step each"), default=True
    )
    band_label_0 = models.CharField(
        gettext_lazy("PAT-R2: band 0 label"), max_length=40, default="Setback"
    )
    band_label_1 = models.CharField(
        gettext_lazy("PAT-R2: band 1 label"), max_length=40, default="Success at a Cost"
    )
    band_label_2 = models.CharField(
        gettext_lazy("PAT-R2: band 2 label"), max_length=40, default="Success"
    )
    band_label_3 = models.CharField(
        gettext_lazy("PAT-R2: band 3+ label"), max_length=40, default="Success with a Bonus"
    )
    advantage_dice = models.PositiveSmallIntegerField(
        gettext_lazy("PM-R1: dice added by Advantage"), default=1
    )
    disadvantage_dice = models.PositiveSmallIntegerField(
        gettext_lazy("PM-R1: dice removed by Disadvantage"), default=1
    )
    complication_range = models.PositiveSmallIntegerField(
        gettext_lazy("T-R1: complication range (1 = only 20s)"), default=1
    )
    # GL-05: the GM's range for the running scene, over complication_range; None: that one.
    # Kept on this row (which every roll reads anyway), cleared when the scene ends.
    scene_complication_range = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=gettext_lazy("Scene complication range")
    )
    assistance_needs_leader_success = models.BooleanField(
        gettext_lazy("T-03: assistance counts only if the leader scores"), default=True
    )
    gm_momentum_to_threat = models.BooleanField(
        gettext_lazy("CT-R1: a GM character's unspent Momentum goes to Threat"), default=True
    )
    # What a player may declare for their own character: each earns or saves Momentum
    # (PM-02, PM-03, PM-05), so by default the GM calls it (rolls it or records it).
    players_declare_edges = models.BooleanField(
        gettext_lazy("Players may declare a GM-called edge, Disadvantage and trauma themselves"),
        default=False,
        help_text=gettext_lazy(
            "Off: only the GM calls them (the GM rolls or records it for the character)."
        ),
    )
    # The scene board (issue 23): who may put a trait or a Thread on it besides the GM.
    players_note_traits = models.BooleanField(
        _("Players may note scene traits and Threads on the board"),
        default=False,
        help_text=_("Off: only the GM (and Create a Trait spends) put traits on the board."),
    )
    # SC-R1 (issue 24): a 2d20 hit of 5+ that also fills the track inflicts two harms (two
    # Breakthroughs for an extended task); off, one. Books read both ways, groups differ.
    double_harm = models.BooleanField(
        _("A hit of 5+ that also fills the track inflicts two harms"),
        default=True,
        db_default=True,  # old code's INSERTs during a rolling upgrade (migration_safety)
    )
    # SC-05 (issue 36): what Keeping the Initiative costs; empty: the game line's (2).
    keep_initiative_cost = models.PositiveSmallIntegerField(
        gettext_lazy("What Keeping the Initiative costs"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(KEEP_COST_MAX)],
        help_text=gettext_lazy("Empty: the game line's price, 2 Momentum or 2 Threat."),
    )
    # SC-01a (issue 24 ruling, issue 36 setting): a side keeps at most once in a row.
    keep_once_in_a_row = models.BooleanField(
        gettext_lazy("A side may keep the initiative only once in a row"),
        default=True,
        db_default=True,
        help_text=gettext_lazy("Off: a side may keep it turn after turn while it pays."),
    )
    # SC-01b (issue 24 ruling, issue 36 setting): who opens the next round.
    players_open_each_round = models.BooleanField(
        gettext_lazy("The players open every round"),
        default=False,
        db_default=False,
        help_text=gettext_lazy(
            "Off: the side that did not take the round's last turn opens the next one."
        ),
    )
    # GL-07 (issue 36): Conan's session start, a Modiphius forum answer on the rules.
    session_start_from_fortune = models.BooleanField(
        _("Conan: a session starts with no Momentum, and Doom at the player characters' Fortune"),
        default=True,
        db_default=True,
        help_text=_("Off: Momentum and Doom carry over from the last session."),
    )
    # GL-07 (issue 36, ruling GL-R2): STA's adventure start, at the GM's "New mission".
    mission_sets_threat = models.BooleanField(
        _("Star Trek Adventures: a new mission sets Threat to 2 per player character"),
        default=True,
        db_default=True,
        help_text=_("Off: Threat carries over from the last mission."),
    )
    # SC-03 (issue 36, rulings SC-R7, SC-R16, SC-R17): lines with no extended-task rule of
    # their own borrow a sibling line's.
    borrowed_extended_tasks = models.BooleanField(
        _(
            "Conan, Achtung! Cthulhu, the core 2d20 rules: extended tasks follow a sibling "
            "line's rules"
        ),
        default=True,
        db_default=True,
        help_text=_(
            "Conan and Achtung! Cthulhu use Star Trek Adventures 1st edition's Work and "
            "Breakthroughs; the core 2d20 rules use Dune's points. Off: these lines offer no "
            "extended tasks."
        ),
    )
    # CT-R2 (issue 36): the core rules tie a contest to the moment it is played, not to
    # a scene's end; calling it off undoes nothing, so it is the default.
    contest_at_scene_end = models.CharField(
        gettext_lazy("A contest still waiting for its second roll when the scene ends"),
        max_length=12,
        choices=ContestAtSceneEnd.choices,
        default=ContestAtSceneEnd.CALL_OFF,
        db_default=ContestAtSceneEnd.CALL_OFF,
        help_text=gettext_lazy(
            "A contest whose second character has rolled ends with that test either way."
        ),
    )
    # Table talk (issue 15): which cards count as chatter is tables/live/muting.py's.
    mute_pool_chatter = models.BooleanField(
        gettext_lazy("Mute one-point pool changes in the log"),
        default=False,
        help_text=gettext_lazy(
            "On: a hand adjustment of a pool, or Threat added or spent, by one point "
            "makes no card in the log. Pools still update live and each pool's history keeps it."
        ),
    )

    # Issue 37: whispers between two players reach the GMs too, unless the GM says not;
    # read when a whisper is sent (the sender knows who will read it, for good).
    gm_reads_whispers = models.BooleanField(
        gettext_lazy("GMs read the whispers players send each other"),
        default=True,
        db_default=True,  # old code's INSERTs during a rolling upgrade (migration_safety)
        help_text=gettext_lazy(
            "Off: a whisper from one player to another is for the two of them alone. "
            "Whispers already sent keep who may read them."
        ),
    )

    # What everyone shares is worded in it (issue 28): Discord posts, exports' words.
    # Each person's own pages follow their own language (PersonSettings.language).
    language = models.CharField(
        _("Campaign language"),
        max_length=10,
        choices=settings.LANGUAGES,
        default="en",
        db_default="en",
        help_text=_(
            "Discord posts and exports are written in it; each person reads the "
            "table in their own language."
        ),
    )
    time_zone = models.CharField(
        _("Campaign time zone"),
        max_length=64,
        default="UTC",
        db_default="UTC",
        validators=[validate_time_zone],
        help_text=_("The log's times for anyone who has not chosen a time zone of their own."),
    )

    # Discord (tables/discord/): where public and GM-only rolls are posted. The URLs are
    # secrets (anyone holding one can post to the channel): never logged, pushed or exported.
    discord_webhook_url = models.CharField(
        gettext_lazy("Discord webhook for the table's channel"),
        max_length=300,
        blank=True,
        default="",
    )
    discord_gm_webhook_url = models.CharField(
        gettext_lazy("Discord webhook for the GM (secret rolls)"),
        max_length=300,
        blank=True,
        default="",
    )
    # Who set each webhook: removing that co-GM offers to clear it (they hold the URL).
    discord_webhook_set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=gettext_lazy("Discord webhook set by"),
    )
    discord_gm_webhook_set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=gettext_lazy("GM's Discord webhook set by"),
    )
    # Failed deliveries in a row, each webhook; at DISCORD_PARK_AFTER it is parked (no
    # posts) until a GM resumes or replaces it (services/discord.py).
    discord_webhook_failures = models.PositiveIntegerField(
        default=0, verbose_name=gettext_lazy("Discord webhook failures")
    )
    discord_gm_webhook_failures = models.PositiveIntegerField(
        default=0, verbose_name=gettext_lazy("GM's Discord webhook failures")
    )
    discord_webhook_parked_at = models.DateTimeField(
        null=True, blank=True, verbose_name=gettext_lazy("Discord webhook parked at")
    )
    discord_gm_webhook_parked_at = models.DateTimeField(
        null=True, blank=True, verbose_name=gettext_lazy("GM's Discord webhook parked at")
    )
    # The last failed delivery, for the GM's settings page; cleared by the next success.
    discord_last_error = models.CharField(
        max_length=300, blank=True, default="", verbose_name=gettext_lazy("Discord's last error")
    )
    discord_last_error_at = models.DateTimeField(
        null=True, blank=True, verbose_name=gettext_lazy("Discord's last error at")
    )

    class Meta:
        verbose_name = gettext_lazy("campaign")
        verbose_name_plural = gettext_lazy("campaigns")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=_group_momentum_within_line_cap(),
                name="campaign_group_momentum_within_line_cap",
            ),
            models.CheckConstraint(condition=Q(threat__gte=0), name="campaign_threat_nonneg"),
            models.CheckConstraint(
                condition=Q(scene_complication_range__isnull=True)
                | Q(scene_complication_range__gte=1, scene_complication_range__lte=20),
                name="campaign_scene_complication_range_1_20",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def uses_d6(self) -> bool:
        return self.dice_system == self.DiceSystem.D6

    @property
    def uses_group_economy(self) -> bool:
        return self.economy == self.Economy.GROUP

    @property
    def line(self) -> game_lines.GameLine:
        """The 2d20 game line's names (in the reader's language) and behaviour (GL-01)."""
        return worded_line(game_lines.line_of(self.game_line))

    @property
    def book_line(self) -> game_lines.GameLine:
        """The line with its books' (English) names: what a stored sentence names, to be
        worded for each reader when drawn (tables/words/said.py)."""
        return game_lines.line_of(self.game_line)

    @property
    def group_cap(self) -> int | None:
        """The line's cap for rules.pools (`own_cap`); None: the default (MO-06)."""
        return self.line.group_cap

    def band_labels(self) -> tuple[str, str, str, str]:
        return (self.band_label_0, self.band_label_1, self.band_label_2, self.band_label_3)


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", gettext_lazy("GM")
        PLAYER = "player", gettext_lazy("Player")
        OBSERVER = "observer", gettext_lazy("Observer")

    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=gettext_lazy("Campaign"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=gettext_lazy("User"),
    )
    role = models.CharField(
        max_length=10, choices=Role.choices, default=Role.PLAYER, verbose_name=gettext_lazy("Role")
    )
    joined_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("Joined at"))

    class Meta:
        verbose_name = gettext_lazy("membership")
        verbose_name_plural = gettext_lazy("memberships")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign} ({self.role})"

    @property
    def is_gm(self) -> bool:
        return self.role == self.Role.GM


class Character(models.Model):
    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="characters",
        verbose_name=gettext_lazy("Campaign"),
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="characters",
        verbose_name=gettext_lazy("Owner"),
    )
    name = models.CharField(max_length=80, verbose_name=gettext_lazy("Name"))
    is_npc = models.BooleanField(default=False, verbose_name=gettext_lazy("NPC"))
    notes = models.TextField(blank=True, verbose_name=gettext_lazy("Notes"))
    in_creation = models.BooleanField(
        default=False,
        help_text=gettext_lazy("Character creation mode: no Momentum spent or gained (PM-12)."),
        verbose_name=gettext_lazy("Being created"),
    )
    # SC-06 (Dune core rulebook, Conflict chapter): one successful attack defeats it.
    minor_foe = models.BooleanField(
        gettext_lazy("Minor foe: one successful attack defeats it"),
        default=False,
        db_default=False,
    )

    # Momenta pools (RS-01, PM).
    momentum = models.PositiveSmallIntegerField(default=3, verbose_name=gettext_lazy("Momentum"))
    resolve = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("Resolve"))
    resolve_max = models.PositiveSmallIntegerField(
        default=0, verbose_name=gettext_lazy("Resolve maximum")
    )
    # 2d20 pool.
    determination = models.PositiveSmallIntegerField(
        default=0, verbose_name=gettext_lazy("Determination")
    )

    class Meta:
        verbose_name = gettext_lazy("character")
        verbose_name_plural = gettext_lazy("characters")
        ordering = ["is_npc", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="unique_character_name"),
            models.CheckConstraint(
                condition=Q(momentum__gte=0) & Q(momentum__lte=PERSONAL_MOMENTUM_MAX),
                name="character_momentum_0_6",
            ),
            models.CheckConstraint(
                condition=Q(resolve__gte=0) & Q(resolve__lte=F("resolve_max")),
                name="character_resolve_0_max",
            ),
            models.CheckConstraint(
                condition=Q(determination__gte=0), name="character_determination_nonneg"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Attribute(models.Model):
    """Momenta: dice count (LUCK among them). 2d20: attribute score."""

    character = models.ForeignKey(
        Character,
        on_delete=models.CASCADE,
        related_name="attributes",
        verbose_name=gettext_lazy("Character"),
    )
    name = models.CharField(max_length=40, verbose_name=gettext_lazy("Name"))
    value = models.PositiveSmallIntegerField(verbose_name=gettext_lazy("Value"))

    class Meta:
        verbose_name = gettext_lazy("attribute")
        verbose_name_plural = gettext_lazy("attributes")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["character", "name"], name="unique_attribute_name"),
            models.CheckConstraint(condition=Q(value__gte=0), name="attribute_value_nonneg"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.value}"

    @property
    def is_luck(self) -> bool:
        return self.name.strip().upper() == "LUCK"


class Skill(models.Model):
    """2d20: a skill; target number = attribute + skill (T-R1)."""

    character = models.ForeignKey(
        Character,
        on_delete=models.CASCADE,
        related_name="skills",
        verbose_name=gettext_lazy("Character"),
    )
    name = models.CharField(max_length=40, verbose_name=gettext_lazy("Name"))
    value = models.PositiveSmallIntegerField(verbose_name=gettext_lazy("Value"))

    class Meta:
        verbose_name = gettext_lazy("skill")
        verbose_name_plural = gettext_lazy("skills")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["character", "name"], name="unique_skill_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.value}"


class Trait(models.Model):
    """Free-text facts about a character: Threads (Momenta), focuses and traits (2d20)."""

    class Kind(models.TextChoices):
        THREAD = "thread", gettext_lazy("Thread")
        FOCUS = "focus", gettext_lazy("Focus")
        TRAIT = "trait", gettext_lazy("Trait")

    character = models.ForeignKey(
        Character,
        on_delete=models.CASCADE,
        related_name="traits",
        verbose_name=gettext_lazy("Character"),
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, verbose_name=gettext_lazy("Kind"))
    text = models.CharField(max_length=120, verbose_name=gettext_lazy("Text"))

    class Meta:
        verbose_name = gettext_lazy("trait")
        verbose_name_plural = gettext_lazy("traits")
        ordering = ["kind", "text"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.text}"


class Asset(models.Model):
    """2d20 asset (MO-10): temporary ones expire when the scene ends."""

    character = models.ForeignKey(
        Character,
        on_delete=models.CASCADE,
        related_name="assets",
        verbose_name=gettext_lazy("Character"),
    )
    name = models.CharField(max_length=80, verbose_name=gettext_lazy("Name"))
    quality = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("Quality"))
    permanent = models.BooleanField(default=False, verbose_name=gettext_lazy("Permanent"))
    # A temporary asset the GM keeps past the scene's end (issue 23, MO-09b).
    lasting = models.BooleanField(default=False, verbose_name=gettext_lazy("Lasting"))

    class Meta:
        verbose_name = gettext_lazy("asset")
        verbose_name_plural = gettext_lazy("assets")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class PlaySession(models.Model):
    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="play_sessions",
        verbose_name=gettext_lazy("Campaign"),
    )
    number = models.PositiveIntegerField(verbose_name=gettext_lazy("Number"))
    started_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("Started at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("Ended at"))

    class Meta:
        verbose_name = gettext_lazy("play session")
        verbose_name_plural = gettext_lazy("play sessions")
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="unique_session_number")
        ]

    def __str__(self) -> str:
        return gettext("Session %(n)s") % {"n": self.number}  # in the reader's language


class Scene(models.Model):
    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="scenes",
        verbose_name=gettext_lazy("Campaign"),
    )
    play_session = models.ForeignKey(
        PlaySession,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="scenes",
        verbose_name=gettext_lazy("Session"),
    )
    number = models.PositiveIntegerField(verbose_name=gettext_lazy("Number"))
    title = models.CharField(max_length=100, blank=True, verbose_name=gettext_lazy("Title"))
    started_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("Started at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("Ended at"))

    class Meta:
        verbose_name = gettext_lazy("scene")
        verbose_name_plural = gettext_lazy("scenes")
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="unique_scene_number")
        ]

    def __str__(self) -> str:
        return self.title or gettext("Scene %(n)s") % {"n": self.number}
