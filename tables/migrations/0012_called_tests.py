# The GM's called tests (issue 15): tables/models/calls.py.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0011_table_talk"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
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
                    ),
                ),
                ("attribute", models.CharField(max_length=40)),
                ("skill", models.CharField(blank=True, max_length=40)),
                ("focus", models.CharField(blank=True, max_length=120)),
                ("difficulty", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("complication_range", models.PositiveSmallIntegerField(blank=True, null=True)),
                (
                    "kind",
                    models.CharField(
                        blank=True,
                        choices=[("action", "Action roll"), ("luck", "Luck roll")],
                        max_length=8,
                    ),
                ),
                ("opposition_pool", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("hidden", models.BooleanField(default=False)),
                ("note", models.CharField(blank=True, max_length=120)),
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
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
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
                    ),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="called_tests",
                        to="tables.campaign",
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
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("difficulty__isnull", True), ("difficulty__lte", 5), _connector="OR"
                        ),
                        name="called_test_difficulty_0_5",
                    )
                ],
            },
        ),
    ]
