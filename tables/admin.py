"""Admin for operators. Edits here bypass services.py (no ledger lines, no live push):
use it to inspect and repair, not to play."""

from django.contrib import admin

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
    PlaySession,
    PoolChange,
    RollTemplate,
    Scene,
    Skill,
    TableEvent,
    Trait,
)


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
    readonly_fields = ["last_seq", "created_at"]
    inlines = [MembershipInline]


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
    inlines = [AttributeInline, SkillInline, TraitInline, AssetInline]


@admin.register(Attribute)
class AttributeAdmin(admin.ModelAdmin):
    list_display = ["name", "value", "character"]
    list_filter = ["character__campaign"]
    search_fields = ["name", "character__name"]


@admin.register(Skill)
class SkillAdmin(admin.ModelAdmin):
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
class TableEventAdmin(admin.ModelAdmin):
    list_display = ["seq", "campaign", "kind", "actor", "audience", "created_at"]
    list_filter = ["kind", "audience", "campaign"]
    search_fields = ["kind", "campaign__name", "actor__username"]
    readonly_fields = ["created_at"]
    inlines = [PoolChangeInline]


@admin.register(PoolChange)
class PoolChangeAdmin(admin.ModelAdmin):
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
