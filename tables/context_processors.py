"""What every page's top bar needs from the settings."""

from django.conf import settings


def registration(request) -> dict:
    # The top bar's "Sign up" link, hidden while sign-up is closed (REGISTRATION_OPEN=0).
    return {"registration_open": settings.REGISTRATION_OPEN}
