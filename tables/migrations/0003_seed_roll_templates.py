"""Seed the default roll templates of every d6 campaign that has none (D6-04).

Rendering the composer used to seed them under a lock on first view, a state
change on a GET; campaigns are now seeded when created, and this catches up
the ones that already exist. The templates are frozen here as they were.
"""

from django.db import migrations

DEFAULT_TEMPLATES = [('Narrative action',
  True,
  {'name': 'Narrative action',
   'bands': ['Setback', 'Success at a Cost', 'Success', 'Success with a Bonus'],
   'overflow': None,
   'damage': None,
   'harm': 'damage',
   'overflow_damage': 0,
   'rounding': 'down'}),
 ('Attack (damage)',
  False,
  {'name': 'Attack (damage)',
   'bands': ['Graze', 'Hit', 'Strong hit', 'Devastating hit'],
   'overflow': '+1 damage per success above 3',
   'damage': [1, 2, 3, 4],
   'harm': 'damage',
   'overflow_damage': 1,
   'rounding': 'down'}),
 ('Attack (strain)',
  False,
  {'name': 'Attack (strain)',
   'bands': ['Graze', 'Hit', 'Strong hit', 'Devastating hit'],
   'overflow': '+1 Strain per success above 3',
   'damage': [1, 2, 3, 4],
   'harm': 'strain',
   'overflow_damage': 1,
   'rounding': 'down'})]


def seed(apps, schema_editor):
    Campaign = apps.get_model("tables", "Campaign")
    RollTemplate = apps.get_model("tables", "RollTemplate")
    for campaign in Campaign.objects.filter(dice_system="d6", roll_templates__isnull=True):
        RollTemplate.objects.bulk_create(
            RollTemplate(
                campaign=campaign, name=name, data=data, campaign_labels=labels, position=i
            )
            for i, (name, labels, data) in enumerate(DEFAULT_TEMPLATES)
        )


class Migration(migrations.Migration):
    dependencies = [("tables", "0002_play_records")]

    # elidable: it fills in rows that existed before it; a new database has none.
    operations = [migrations.RunPython(seed, migrations.RunPython.noop, elidable=True)]
