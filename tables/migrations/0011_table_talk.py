from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tables", "0010_person_settings")]

    operations = [
        migrations.AddField(
            model_name="campaign",
            name="mute_pool_chatter",
            field=models.BooleanField(
                default=False,
                help_text="On: a hand adjustment of a pool, or Threat added or spent, by one "
                "point makes no card in the log. Pools still update live and each pool's "
                "history keeps it.",
                verbose_name="Mute one-point pool changes in the log",
            ),
        ),
    ]
