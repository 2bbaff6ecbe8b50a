"""Issue 27 in a real browser: a failed command is never silent, and its retry lands once.

alice's roll is answered with a 500 before it reaches the server, then with a 502
after it did (a proxy losing the answer): the page says what happened next to the
composer, keeps what she typed, and its retry (same Idempotency-Key) lands the roll
once. Going offline pauses the commands until the socket is back.
"""

from __future__ import annotations

import pytest

from .test_live_table import READY_COMPOSER, log_in, redraw

pytestmark = pytest.mark.e2e

ROLL = "**/momenta/roll/"


@pytest.fixture
def alice(browser, app_server):
    errors: list = []
    path = f"/campaigns/{app_server.campaign}/table/"
    context, page = log_in(browser, app_server.base, "alice", path, errors)
    yield context, page
    context.close()
    assert errors == []


def compose(page, character: dict, modifier: str):
    """alice's roll of WITS with `modifier` typed in, ready to click."""
    from playwright.sync_api import expect

    expect(page.locator(READY_COMPOSER)).to_have_count(1)
    form = page.locator("#momenta-roll")
    chosen = form.locator("select[name=character]")
    if chosen.input_value() != str(character["id"]):
        redraw(page, lambda: chosen.select_option(str(character["id"])))
    if form.locator("select[name=attribute]").input_value() != "WITS":
        redraw(page, lambda: form.locator("select[name=attribute]").select_option("WITS"))
    form.locator("input[name=kind][value=action]").check()
    form.locator("input[name=play][value=narrative]").check()
    more = form.locator("details.composer-more")
    if not more.evaluate("d => d.open"):
        more.locator("summary").click()
    form.locator("input[name=modifiers]").fill(modifier)
    return form


def rolls_logged(page) -> int:
    return page.locator("#roll-log > .log-entry[data-kind=momenta_roll]").count()


def test_a_roll_answered_with_a_500_says_so_and_its_retry_lands_once(alice, app_server):
    from playwright.sync_api import expect

    _, page = alice
    before = rolls_logged(page)
    keys = []
    page.on(
        "request",
        lambda r: (
            r.method == "POST"
            and r.url.endswith("/momenta/roll/")
            and keys.append(r.headers.get("idempotency-key"))
        ),
    )
    page.route(ROLL, lambda route: route.fulfill(status=500, body="Server Error"))
    form = compose(page, app_server.characters["alice"], "+1")
    form.locator("button.mc-roll").click()

    failure = page.locator("#momenta-roll + .command-failure[role=alert]")
    expect(failure).to_contain_text("It did not go through: nothing was done.")
    expect(form.locator("input[name=modifiers]")).to_have_value("+1")  # what she typed

    page.unroute(ROLL)
    with page.expect_response(lambda r: r.url.endswith("/momenta/roll/")) as answer:
        failure.locator("button.command-retry").click()
    assert answer.value.ok
    expect(page.locator(".command-failure")).to_have_count(0)
    expect(page.locator("#roll-log > .log-entry[data-kind=momenta_roll]")).to_have_count(before + 1)
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1]  # the retry is the same submission
    page.reload()
    expect(page.locator("#roll-log > .log-entry[data-kind=momenta_roll]")).to_have_count(before + 1)


def test_a_roll_whose_answer_a_proxy_lost_is_found_in_the_log_not_offered_again(alice, app_server):
    from playwright.sync_api import expect

    _, page = alice
    before = rolls_logged(page)

    def lose_the_answer(route):
        route.fetch()  # the server rolls; the proxy answers 502 instead
        route.fulfill(status=502, body="Bad Gateway")

    page.route(ROLL, lose_the_answer)
    form = compose(page, app_server.characters["alice"], "")
    form.locator("button.mc-roll").click()

    failure = page.locator("#momenta-roll + .command-failure")
    expect(failure).to_contain_text("It went through after all: entry #")
    expect(failure.locator("button")).to_have_count(0)
    page.unroute(ROLL)
    page.reload()
    expect(page.locator("#roll-log > .log-entry[data-kind=momenta_roll]")).to_have_count(before + 1)


def test_offline_pauses_the_commands_until_the_socket_is_back(alice):
    from playwright.sync_api import expect

    context, page = alice
    roll_button = page.locator("#momenta-roll button.mc-roll")
    expect(roll_button).to_be_enabled()
    context.set_offline(True)
    expect(page.locator("#command-offline")).to_be_visible()
    expect(page.locator("#command-offline")).to_contain_text("You are offline")
    expect(roll_button).to_be_disabled()
    context.set_offline(False)
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    expect(roll_button).to_be_enabled()
    expect(page.locator("#command-offline")).to_be_hidden()


def test_a_roll_with_no_answer_while_the_server_is_unreachable_may_be_retried_safely(
    alice, app_server
):
    """The proxy is down: neither the roll nor the question whether it landed gets an
    answer. The page says it cannot tell; the retry, once the server is back, lands once."""
    from playwright.sync_api import expect

    _, page = alice
    before = rolls_logged(page)
    landed = "**/table/landed/**"
    page.route(ROLL, lambda route: route.abort("connectionrefused"))
    page.route(landed, lambda route: route.abort("connectionrefused"))
    form = compose(page, app_server.characters["alice"], "-1")
    form.locator("button.mc-roll").click()

    failure = page.locator("#momenta-roll + .command-failure")
    expect(failure).to_contain_text("this may or may not have gone through")
    expect(form.locator("input[name=modifiers]")).to_have_value("-1")
    page.unroute(ROLL)
    page.unroute(landed)
    with page.expect_response(lambda r: r.url.endswith("/momenta/roll/")) as answer:
        failure.locator("button.command-retry").click()
    assert answer.value.ok
    expect(page.locator("#roll-log > .log-entry[data-kind=momenta_roll]")).to_have_count(before + 1)
