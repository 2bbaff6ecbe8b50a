"""A refused request logs one line, never a traceback (a prober must not flood the log)."""

import logging

import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_a_403_is_logged_as_one_line_without_a_traceback(
    client_for, d20_campaign, caplog, settings
):
    settings.DEBUG = False
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client_for("player").post(
            reverse("gm_threat", args=[d20_campaign.pk]), {"action": "add", "amount": 1}
        )
    assert response.status_code == 403
    refusals = [r for r in caplog.records if getattr(r, "status_code", None) == 403]
    assert refusals, "the refusal is still logged"
    assert all(r.exc_info is None for r in refusals)
    assert "Traceback" not in caplog.text
