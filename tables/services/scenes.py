"""The running play session and scene of a campaign: found, or opened when play needs one.

Kept apart from sessions.py (which starts and ends them) so that the scene board and the
2d20 services can find the running scene without importing the session commands.
"""

from __future__ import annotations

from django.db.models import Max

from tables.models import Campaign, PlaySession, Scene, SceneTrait
from tables.policy.play import current_scene


def current_session(campaign: Campaign) -> PlaySession | None:
    return campaign.play_sessions.filter(ended_at__isnull=True).order_by("-number").first()


def new_scene(campaign: Campaign, title: str = "") -> Scene:
    last = Scene.objects.filter(campaign=campaign).aggregate(n=Max("number"))["n"]
    scene = Scene.objects.create(
        campaign=campaign,
        play_session=current_session(campaign),
        number=(last or 0) + 1,
        title=title.strip(),
    )
    # MO-09b: the new scene's board starts from what the GM kept at the last one's end.
    SceneTrait.objects.filter(campaign=campaign, removed_at__isnull=True).update(scene=scene)
    return scene


def scene_for_play(campaign: Campaign) -> Scene:
    """The running scene, opened now if none is (scenes need not be started by hand)."""
    return current_scene(campaign) or new_scene(campaign)
