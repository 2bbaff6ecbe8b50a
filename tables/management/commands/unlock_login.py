"""manage.py unlock_login [USERNAME…] [--address ADDRESS…]: lift login lockouts now
(tables/lockout.py, over django-axes' reset), rather than at the end of
LOGIN_LOCKOUT_SECONDS. Works without the admin, e.g. for an operator locked out of
/admin/ itself."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tables import lockout


class Command(BaseCommand):
    help = gettext_lazy(
        "Forget the failed logins that lock out these usernames or client addresses, so "
        "they may log in again at once."
    )

    def add_arguments(self, parser):
        parser.add_argument("usernames", nargs="*", help=_("Usernames, as typed at login."))
        parser.add_argument(
            "--address",
            action="append",
            default=[],
            help=_("A client address (an IPv6 one stands for its /64). Repeatable."),
        )

    def handle(self, *args, usernames, address, **options):
        if not any(lockout.login_name(name) for name in usernames) and not address:
            raise CommandError(_("Name a username or an --address to unlock."))
        bad = [a for a in address if lockout.address_key(a) is None]
        if bad:
            raise CommandError(_("Not an IP address: %(bad)s") % {"bad": ", ".join(bad)})
        cleared = [(name, lockout.unlock_username(name)) for name in usernames]
        cleared += [(one, lockout.unlock_address(one)) for one in address]
        for name, n in cleared:
            words = ngettext(
                "%(name)s: %(n)d failed login forgotten.",
                "%(name)s: %(n)d failed logins forgotten.",
                n,
            )
            self.stdout.write(words % {"name": name, "n": n})
