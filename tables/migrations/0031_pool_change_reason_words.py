from django.db import migrations, models


class Migration(migrations.Migration):
    """A pool change's reason as a sentence worded per reader (issue 35); older rows keep
    their English reason, which they show as it is."""

    dependencies = [
        ("tables", "0030_rule_marks_and_words"),
    ]

    operations = [
        migrations.AddField(
            model_name="poolchange",
            name="reason_words",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
    ]
