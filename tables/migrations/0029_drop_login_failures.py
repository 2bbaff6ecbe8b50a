"""The login lockout's failures moved to django-axes (axes.AccessAttempt, its own
migrations): the old table goes. Failures recorded before are forgotten, so a
lockout under way ends at the upgrade."""

from django.db import migrations


class Migration(migrations.Migration):
    # Reviewed for momenta_site/migration_safety.py: during the restart, the previous
    # release's login form still reads this table, so its logins fail until its
    # instance restarts (seconds; every other page works). Kept a release longer, the
    # table would be a second count nobody reads.
    rolling_upgrade = "failed logins now counted in axes.AccessAttempt; only logins suffer"

    dependencies = [
        ("tables", "0028_whisper"),
    ]

    operations = [
        migrations.DeleteModel(name="LoginFailure"),
    ]
