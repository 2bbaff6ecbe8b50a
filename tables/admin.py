"""Admin for operators. Edits here bypass services.py (no ledger lines, no live push):
use it to inspect and repair, not to play."""

from django.contrib import admin

from .models import (
    Asset,
    Attribute,
    Campaign,
    Character,
    Membership,
    PlaySession,
    PoolChange,
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
