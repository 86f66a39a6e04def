"""Throttles, lockout and accounts (issue 15, "Why": no throttling anywhere, /events/ returned
everything, 30 wrong passwords then the right one logged in, signup accepted `password` and
`12345678`, usernames could be probed through registration errors. "Deliver" items 4 and 5)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import set_script_prefix
from rest_framework.authtoken.models import Token

from matches.api import views
from matches.autoplay import autoplay_match
from tests.matches.helpers import new_duel

pytestmark = pytest.mark.django_db


def test_past_states_are_throttled_per_caller_with_a_429_json(alice, bob, client_for, monkeypatch):
    monkeypatch.setattr(views.ExpensiveReadThrottle, "rate", "3/minute", raising=False)
    match = new_duel(alice, bob)
    anonymous = client_for()
    answers = [anonymous.get(f"/api/matches/{match.id}/state/", {"at": 1}) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[-1].json()["code"] == "throttled" and int(answers[-1]["Retry-After"]) > 0
    # The current view is one row read: not counted against the expensive rate.
    assert anonymous.get(f"/api/matches/{match.id}/state/").status_code == 200
    # Another caller has a budget of its own.
    assert client_for(alice).get(f"/api/matches/{match.id}/state/", {"at": 1}).status_code == 200


def test_event_feeds_share_the_expensive_rate(alice, bob, client_for, monkeypatch):
    monkeypatch.setattr(views.ExpensiveReadThrottle, "rate", "2/minute", raising=False)
    match = new_duel(alice, bob)
    client = client_for(alice)
    codes = [client.get(f"/api/matches/{match.id}/events/").status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_audit_bundles_share_the_expensive_rate(alice, bob, client_for, monkeypatch):
    # A bundle is a whole stream, unpaged: at the general rate one address could ask for far more
    # than the paged feed allows.
    monkeypatch.setattr(views.ExpensiveReadThrottle, "rate", "2/minute", raising=False)
    match = autoplay_match(game="dueling-wizards", seats=2)
    anonymous = client_for()
    codes = [anonymous.get(f"/api/bundles/{match.id}/").status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_anonymous_callers_are_throttled_by_address(client_for, monkeypatch):
    from rest_framework.throttling import AnonRateThrottle

    monkeypatch.setattr(AnonRateThrottle, "rate", "5/minute", raising=False)
    codes = [client_for().get("/api/engines/").status_code for _ in range(6)]
    assert codes == [200] * 5 + [429]


def test_signed_in_callers_are_throttled_per_account(alice, bob, client_for, monkeypatch):
    from rest_framework.throttling import UserRateThrottle

    monkeypatch.setattr(UserRateThrottle, "rate", "3/minute", raising=False)
    codes = [client_for(alice).get("/api/engines/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert client_for(bob).get("/api/engines/").status_code == 200


def test_events_are_paged_by_default_and_next_after_walks_the_rest(alice, bob, client_for, monkeypatch):
    monkeypatch.setattr(views, "EVENTS_PAGE", 2)
    match = new_duel(alice, bob)
    client = client_for(alice)
    seen, after = [], 0
    while after is not None:
        page = client.get(f"/api/matches/{match.id}/events/", {"after": after}).json()
        assert len(page["events"]) <= 2
        seen += [e["seq"] for e in page["events"]]
        after = page["next_after"]
    match.refresh_from_db()
    assert match.state_seq > 2 and seen == list(range(1, match.state_seq + 1))
    too_many = client.get(f"/api/matches/{match.id}/events/", {"limit": views.EVENTS_PAGE_MAX + 1})
    assert too_many.status_code == 400


def login(client: Client, username: str, password: str):
    return client.post("/accounts/login/", {"username": username, "password": password})


def test_repeated_wrong_passwords_lock_the_login_even_against_the_right_one(make_user, settings):
    make_user("dora")  # password pw-dora
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(client, "dora", "wrong-guess").status_code == 200  # the form again, with an error
    assert login(client, "dora", "wrong-guess").status_code == 429  # the last failure allowed locks
    locked = login(client, "dora", "pw-dora")
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_right_password_before_the_limit_still_signs_in(make_user, settings):
    make_user("eve")
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        login(client, "eve", "wrong")
    assert login(client, "eve", "pw-eve").status_code == 302
    assert client.session["_auth_user_id"]


def test_a_locked_unknown_username_looks_the_same_as_a_locked_real_one(make_user, settings):
    make_user("fay")
    answers = {}
    for name in ("fay", "nobody-by-this-name"):
        client = Client()
        codes = [login(client, name, "wrong").status_code for _ in range(settings.AXES_FAILURE_LIMIT + 1)]
        answers[name] = (codes, login(client, name, "pw-fay").content)
    assert answers["fay"] == answers["nobody-by-this-name"]
    assert answers["fay"][0] == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429, 429]


def test_sign_in_attempts_from_one_address_are_throttled(make_user, settings):
    settings.THROTTLE_AUTH = "3/minute"
    client = Client()
    codes = [login(client, f"user{i}", "wrong").status_code for i in range(4)]
    assert codes == [200, 200, 200, 429]


def test_sign_in_attempts_across_a_clock_minutes_turn_count_together(make_user, settings, monkeypatch):
    # Windows cut at the clock's minutes let a burst through twice over at the turn of a minute
    # (and made the test above fail when its four attempts straddled one). A clock that turns
    # between the second and the third attempt must change nothing.
    settings.THROTTLE_AUTH = "3/minute"
    readings = iter([1_800_000_059.5, 1_800_000_059.6] + [1_800_000_060.5] * 20)
    monkeypatch.setattr("config.middleware.time", SimpleNamespace(time=lambda: next(readings)), raising=False)
    client = Client()
    codes = [login(client, f"user{i}", "wrong").status_code for i in range(4)]
    assert codes == [200, 200, 200, 429]


@pytest.mark.parametrize("password", ["password", "12345678", "1234567890", "short1", "newcomer-1"])
def test_signup_refuses_weak_passwords(db, password):
    r = Client().post("/accounts/signup/", {"username": "newcomer", "password1": password, "password2": password})
    assert r.status_code == 200  # the form again, with the validator's reason
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_signup_with_a_strong_password_creates_the_account(db):
    r = Client().post(
        "/accounts/signup/",
        {"username": "newcomer", "password1": "violet-harbour-71", "password2": "violet-harbour-71"},
    )
    assert r.status_code == 302
    assert get_user_model().objects.filter(username="newcomer").exists()


def test_signup_does_not_say_that_a_username_exists(make_user):
    make_user("gwen")
    r = Client().post(
        "/accounts/signup/", {"username": "Gwen", "password1": "violet-harbour-71", "password2": "violet-harbour-71"}
    )
    text = r.content.decode()
    assert "not available" in text
    assert "already exists" not in text and "exists" not in text.lower()


def test_the_account_page_rotates_the_token_and_the_old_one_stops_working(alice, client_for):
    old = Token.objects.create(user=alice).key
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/")
    assert old in page.content.decode()
    assert "no-store" in page["Cache-Control"]
    rotated = client.post("/accounts/")
    assert rotated.status_code == 302
    new = Token.objects.get(user=alice).key
    assert new != old
    api = Client()
    assert api.get("/api/matches/", HTTP_AUTHORIZATION=f"Token {old}").status_code == 401
    created = api.post(
        "/api/tournaments/",
        {"name": "Open", "game": "dueling-wizards", "format": "swiss"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {new}",
    )
    assert created.status_code == 201
    assert new in client.get("/accounts/").content.decode()


def test_a_token_older_than_its_lifetime_is_refused_until_rotated(alice, settings):
    from datetime import timedelta

    from django.utils import timezone

    token = Token.objects.create(user=alice)
    Token.objects.filter(pk=token.pk).update(created=timezone.now() - timedelta(days=settings.TOKEN_MAX_AGE_DAYS + 1))
    api = Client()
    body = api.get("/api/tournaments/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert body.status_code == 401 and body.json()["code"] == "token_expired"
    page = Client()
    page.force_login(alice)
    page.post("/accounts/")
    fresh = Token.objects.get(user=alice)
    assert api.get("/api/tournaments/", HTTP_AUTHORIZATION=f"Token {fresh.key}").status_code == 200
    assert "It works until" in page.get("/accounts/").content.decode()


def test_a_made_up_token_and_the_token_of_a_switched_off_account_are_refused(alice):
    token = Token.objects.create(user=alice)
    api = Client()
    made_up = api.get("/api/matches/", HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert made_up.status_code == 401 and made_up.json()["detail"] == "Invalid token."
    assert api.get("/api/tournaments/", HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 200
    alice.is_active = False
    alice.save()
    off = api.get("/api/matches/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert off.status_code == 401 and off.json()["detail"] == "User inactive or deleted."


def test_behind_a_proxy_each_client_address_has_its_own_sign_in_budget(settings):
    settings.THROTTLE_AUTH = "2/minute"
    settings.PROXY_COUNT = 1
    first, second = Client(), Client()
    codes = [login(first, f"u{i}", "x").status_code for i in range(3)]
    # A proxy's own address is shared by everyone behind it: the header names the client.
    other = second.post("/accounts/login/", {"username": "v", "password": "x"}, HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert codes == [200, 200, 429] and other.status_code == 200
    spoofed = first.post(
        "/accounts/login/", {"username": "w", "password": "x"}, HTTP_X_FORWARDED_FOR="198.51.100.1, 127.0.0.1"
    )
    assert spoofed.status_code == 429  # only the hop the trusted proxy added counts


def test_behind_a_proxy_wrong_guesses_lock_a_username_only_from_the_guessing_address(make_user, settings):
    # Everyone behind a proxy reaches Django from the proxy's address. The lock keyed on that
    # address let anyone lock a player out from every address with five wrong guesses.
    settings.PROXY_COUNT = 1
    make_user("dora")  # password pw-dora
    attacker, player = Client(), Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attacker.post(
            "/accounts/login/", {"username": "dora", "password": "guess"}, HTTP_X_FORWARDED_FOR="198.51.100.1"
        )
    still_locked = attacker.post(
        "/accounts/login/", {"username": "dora", "password": "pw-dora"}, HTTP_X_FORWARDED_FOR="198.51.100.1"
    )
    assert still_locked.status_code == 429
    # Naming her address in front of the proxy's hop does not move the attacker's lock onto it.
    spoofed = attacker.post(
        "/accounts/login/",
        {"username": "dora", "password": "pw-dora"},
        HTTP_X_FORWARDED_FOR="203.0.113.9, 198.51.100.1",
    )
    assert spoofed.status_code == 429
    signed_in = player.post(
        "/accounts/login/", {"username": "dora", "password": "pw-dora"}, HTTP_X_FORWARDED_FOR="203.0.113.9"
    )
    assert signed_in.status_code == 302 and player.session["_auth_user_id"]


def test_the_admin_sign_in_shares_the_per_address_sign_in_budget(make_user, settings):
    # The admin's form checks any account's password, staff or not: unthrottled, it let one address
    # try a password against any number of usernames.
    settings.THROTTLE_AUTH = "3/minute"
    client = Client()
    codes = [client.post("/admin/login/", {"username": f"user{i}", "password": "x"}).status_code for i in range(2)]
    codes += [login(client, "user2", "x").status_code]
    codes += [client.post("/admin/login/", {"username": "user3", "password": "x"}).status_code]
    assert codes == [200, 200, 200, 429]


def test_a_throttled_sign_in_gets_a_page_that_says_when_to_come_back(make_user, settings):
    settings.THROTTLE_AUTH = "1/minute"
    client = Client()
    login(client, "someone", "wrong")
    refused = login(client, "someone", "wrong")
    assert refused.status_code == 429 and refused["Content-Type"].startswith("text/html")
    assert refused["Retry-After"] == "60"
    page = refused.content.decode()
    assert 'data-testid="throttled"' in page and "Too many sign-in attempts" in page and "60 seconds" in page


def test_sign_in_attempts_under_a_script_prefix_are_throttled_too(make_user, settings):
    # Served under a prefix (FORCE_SCRIPT_NAME, or a proxy's SCRIPT_NAME), the request's path_info
    # drops the prefix while reverse() keeps it: compared with each other, no attempt was counted.
    # Django's WSGI handler sets the prefix from SCRIPT_NAME; its test client does not, so we do.
    settings.THROTTLE_AUTH = "3/minute"
    client = Client()
    set_script_prefix("/games/")
    try:
        codes = [
            client.post(
                "/accounts/login/", {"username": f"user{i}", "password": "wrong"}, SCRIPT_NAME="/games"
            ).status_code
            for i in range(4)
        ]
    finally:
        set_script_prefix("/")
    assert codes == [200, 200, 200, 429]
