"""Django's makemessages, without msgmerge's guesses (issue 28).

msgmerge fills a new string from a similar old one and marks it fuzzy ("Campaign
created" from "Campaign language"); a translator in a hurry keeps the wrong words.
A new string arrives empty instead (Django's documented way to change the options:
override the command).
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]
