"""2d20 game lines (issue 15): the campaign's line, the group cap from it, the running
scene's complication range.

The old constraint capped group Momentum at 6 for every campaign; the new one
holds each campaign to its line's cap (rules.game_lines.caps(), all 6 today), so
every row that satisfied the old one satisfies the new one once game_line has its
default. The field is added before the constraint that reads it.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tables", "0012_called_tests")]

    operations = [
        migrations.AddField(
            model_name="campaign",
            name="game_line",
            field=models.CharField(
                choices=[
                    ("seeds", "2d20 (the seeds' rules)"),
                    ("sta1", "Star Trek Adventures, 1st edition"),
                    ("sta2", "Star Trek Adventures, 2nd edition"),
                    ("conan", "Robert E. Howard's Conan"),
                    ("fallout", "Fallout"),
                    ("dune", "Dune: Adventures in the Imperium"),
                    ("achtung", "Achtung! Cthulhu"),
                ],
                default="seeds",
                help_text=(
                    "Names the pools and sets the group pool's cap and what Determination does."
                ),
                max_length=12,
                verbose_name="2d20 game line",
            ),
        ),
        migrations.RemoveConstraint(
            model_name="campaign",
            name="campaign_group_momentum_0_6",
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
        migrations.AddField(
            model_name="campaign",
            name="scene_complication_range",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name="campaign",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("scene_complication_range__isnull", True),
                    models.Q(
                        ("scene_complication_range__gte", 1),
                        ("scene_complication_range__lte", 20),
                    ),
                    _connector="OR",
                ),
                name="campaign_scene_complication_range_1_20",
            ),
        ),
    ]
