"""Admin for operators: inspect and repair, not play.

The event log and its ledger lines are read-only here, and so are the pools they
account for: a pool correction goes through the service (CampaignAdmin.correct_pool),
so it gets a ledger line, an event and a live push like any other change. Other
edits (sheets, settings, memberships) bypass the services: no log, no push.
"""

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path

from momenta_site import release
from tables.forms.login import ThrottledAdminAuthenticationForm
from tables.forms.site import PoolAdjustForm
from tables.models import (
    Asset,
    AssistRequest,
    Attribute,
    Campaign,
    Character,
    Contest,
    CustomPattern,
    CustomSpend,
    D20Test,
    Membership,
    MomentaRoll,
    PersonSettings,
    PlaySession,
    PoolChange,
    RollTemplate,
    Scene,
    Skill,
    TableEvent,
    Trait,
)
from tables.policy.play import pools_for
from tables.services import sessions
from tables.services.core import ServiceError

# The admin's login door has the site's lockout (issue 26).
admin.site.login_form = ThrottledAdminAuthenticationForm
# Which release answers, for the operator checking an upgrade or a rollback: the
# commit too, as the version is the same for every commit between releases.
admin.site.site_header = f"Momenta Table {release.label()}"


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewable, never added, edited or deleted here: the log only grows, by services."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "owner",
        "preset",
        "dice_system",
        "economy",
        "group_momentum",
        "threat",
        "last_seq",
        "created_at",
    ]
    list_filter = ["preset", "dice_system", "economy", "threat_visible"]
    search_fields = ["name", "owner__username"]
    # The pools change only through services (the correction form); last_seq only
    # by appending an event, or replay would skip or repeat events.
    readonly_fields = ["group_momentum", "threat", "last_seq", "created_at"]
    inlines = [MembershipInline]

    def get_deleted_objects(self, objs, request):
        # A campaign goes with its whole log: not a hole in it, so the log's
        # refusal to delete single events does not block this.
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        perms_needed -= {TableEvent._meta.verbose_name, PoolChange._meta.verbose_name}
        return deleted, counts, perms_needed, protected

    def get_urls(self):
        correct = self.admin_site.admin_view(self.correct_pool)
        return [
            path("<path:object_id>/pools/", correct, name="tables_campaign_pools"),
            *super().get_urls(),
        ]

    def correct_pool(self, request, object_id):
        """Correct a pool through sessions.adjust_pool: caps apply, and the change gets a
        ledger line, an event and a live push. The operator must be a GM of the
        campaign (the service's rule), so the log names a person who may do it."""
        campaign = self.get_object(request, unquote(object_id))
        if campaign is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if not self.has_change_permission(request, campaign):
            raise PermissionDenied
        pools = pools_for(campaign)
        if request.method == "POST":
            form = PoolAdjustForm(request.POST, campaign=campaign, pools=pools)
            if form.is_valid():
                try:
                    event = sessions.adjust_pool(campaign.pk, request.user, **form.service_kwargs())
                except PermissionDenied:
                    self.message_user(request, _not_gm(campaign), messages.ERROR)
                except ServiceError as error:
                    self.message_user(request, str(error), messages.ERROR)
                else:
                    self.message_user(request, _corrected(event), messages.SUCCESS)
                    return redirect(request.path)
        else:
            form = PoolAdjustForm(
                initial={"character": request.GET.get("character")},
                campaign=campaign,
                pools=pools,
            )
        context = {
            **self.admin_site.each_context(request),
            "title": f"Correct a pool of {campaign}",
            "opts": self.opts,
            "original": campaign,
            "form": form,
            "pools": _pool_values(campaign, pools),
            "is_gm": campaign.memberships.filter(
                user=request.user, role=Membership.Role.GM
            ).exists(),
            "not_gm": _not_gm(campaign),
            "ledger": PoolChange.objects.filter(campaign=campaign)
            .select_related("event__actor", "character")
            .order_by("-event__seq", "-pk")[:10],
        }
        return TemplateResponse(request, "admin/tables/campaign/pool_correction.html", context)


def _not_gm(campaign: Campaign) -> str:
    return (
        f"Only a GM of {campaign} can correct its pools, so the log names who did it. "
        "Add yourself as a GM under the campaign's memberships, then try again."
    )


def _corrected(event: TableEvent) -> str:
    change = event.changes.get()
    whose = f"{change.character.name}'s " if change.character else ""
    lost = f" ({change.lost} lost to the cap)" if change.lost else ""
    return (
        f"#{event.seq}: {whose}{change.get_pool_display()} {change.delta:+d} → {change.after}"
        f"{lost}, logged and pushed to the table."
    )


def _pool_values(campaign: Campaign, pools: dict) -> list[tuple[str, int]]:
    """The pools as they are now, for the operator to read before correcting one."""
    labels = dict(PoolChange.Pool.choices)
    values = [(labels[p], getattr(campaign, p)) for p in pools["campaign"]]
    for character in campaign.characters.order_by("name"):
        values += [
            (f"{character.name}: {labels[p]}", getattr(character, p)) for p in pools["character"]
        ]
    return values


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "campaign", "role", "joined_at"]
    list_filter = ["role", "campaign"]
    search_fields = ["user__username", "campaign__name"]


class AttributeInline(admin.TabularInline):
    model = Attribute
    extra = 0


class SkillInline(admin.TabularInline):
    model = Skill
    extra = 0


class TraitInline(admin.TabularInline):
    model = Trait
    extra = 0


class AssetInline(admin.TabularInline):
    model = Asset
    extra = 0


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "campaign",
        "owner",
        "is_npc",
        "momentum",
        "resolve",
        "resolve_max",
        "determination",
    ]
    list_filter = ["campaign", "is_npc", "in_creation"]
    search_fields = ["name", "owner__username", "campaign__name"]
    readonly_fields = ["momentum", "resolve", "determination"]
    inlines = [AttributeInline, SkillInline, TraitInline, AssetInline]


# A sheet's attributes and skills are the same shape: a name and a value.
@admin.register(Attribute, Skill)
class SheetValueAdmin(admin.ModelAdmin):
    list_display = ["name", "value", "character"]
    list_filter = ["character__campaign"]
    search_fields = ["name", "character__name"]


@admin.register(Trait)
class TraitAdmin(admin.ModelAdmin):
    list_display = ["text", "kind", "character"]
    list_filter = ["kind", "character__campaign"]
    search_fields = ["text", "character__name"]


@admin.register(Asset)
class AssetAdmin(admin.ModelAdmin):
    list_display = ["name", "quality", "permanent", "character"]
    list_filter = ["permanent", "character__campaign"]
    search_fields = ["name", "character__name"]


@admin.register(PlaySession)
class PlaySessionAdmin(admin.ModelAdmin):
    list_display = ["number", "campaign", "started_at", "ended_at"]
    list_filter = ["campaign"]
    search_fields = ["campaign__name"]


@admin.register(Scene)
class SceneAdmin(admin.ModelAdmin):
    list_display = ["number", "title", "campaign", "play_session", "started_at", "ended_at"]
    list_filter = ["campaign"]
    search_fields = ["title", "campaign__name"]


class PoolChangeInline(admin.TabularInline):
    model = PoolChange
    extra = 0
    fields = ["character", "pool", "delta", "after", "lost", "reason"]
    readonly_fields = fields
    can_delete = False


@admin.register(TableEvent)
class TableEventAdmin(ReadOnlyAdmin):
    list_display = ["seq", "campaign", "kind", "actor", "audience", "created_at"]
    list_filter = ["kind", "audience", "campaign"]
    search_fields = ["kind", "campaign__name", "actor__username"]
    inlines = [PoolChangeInline]


@admin.register(PoolChange)
class PoolChangeAdmin(ReadOnlyAdmin):
    list_display = ["event", "campaign", "character", "pool", "delta", "after", "lost", "reason"]
    list_filter = ["pool", "campaign"]
    search_fields = ["reason", "character__name", "campaign__name"]


# --- Play records: Momenta (models_momenta.py) -----------------------------------


@admin.register(RollTemplate)
class RollTemplateAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "campaign_labels", "position"]
    list_filter = ["campaign_labels", "campaign"]
    search_fields = ["name", "campaign__name"]


@admin.register(CustomPattern)
class CustomPatternAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "active"]
    list_filter = ["active", "campaign"]
    search_fields = ["name", "campaign__name"]


@admin.register(AssistRequest)
class AssistRequestAdmin(admin.ModelAdmin):
    list_display = [
        "helper",
        "roller",
        "campaign",
        "state",
        "structured",
        "uncertain",
        "created_at",
    ]
    list_filter = ["state", "structured", "uncertain", "campaign"]
    search_fields = ["helper__name", "roller__name", "campaign__name"]
    list_select_related = ["helper", "roller", "campaign"]
    raw_id_fields = ["roller", "helper", "requested_by"]
    readonly_fields = ["created_at"]


@admin.register(MomentaRoll)
class MomentaRollAdmin(admin.ModelAdmin):
    list_display = ["__str__", "campaign", "character", "actor", "state", "secret", "revealed"]
    list_filter = ["state", "secret", "revealed", "campaign"]
    search_fields = ["character__name", "campaign__name", "actor__username"]
    list_select_related = ["campaign", "character", "actor"]
    raw_id_fields = ["character", "actor", "event", "patterns_event", "reveal_event", "assist"]
    readonly_fields = ["created_at"]


# --- Play records: 2d20 (models_d20.py) ---------------------------------------------


@admin.register(D20Test)
class D20TestAdmin(admin.ModelAdmin):
    list_display = ["__str__", "campaign", "character", "role", "state", "secret", "revealed"]
    list_filter = ["state", "role", "secret", "revealed", "campaign"]
    search_fields = ["character__name", "campaign__name", "actor__username"]
    list_select_related = ["campaign", "character"]
    raw_id_fields = ["character", "actor", "event", "contest"]
    readonly_fields = ["created_at"]


@admin.register(Contest)
class ContestAdmin(admin.ModelAdmin):
    list_display = ["__str__", "campaign", "difficulty", "hindrances", "state", "active_won"]
    list_filter = ["state", "campaign"]
    search_fields = ["opposer__name", "active__name", "campaign__name"]
    list_select_related = ["campaign", "opposer", "active"]
    raw_id_fields = ["opposer", "active", "actor"]
    readonly_fields = ["created_at"]


@admin.register(CustomSpend)
class CustomSpendAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "cost", "repeatable"]
    list_filter = ["repeatable", "campaign"]
    search_fields = ["name", "description", "campaign__name"]


@admin.register(PersonSettings)
class PersonSettingsAdmin(admin.ModelAdmin):
    """Each person's display preferences (issue 14); they change them at /account/settings/."""

    list_display = ["user", "animate_dice"]
    search_fields = ["user__username"]
