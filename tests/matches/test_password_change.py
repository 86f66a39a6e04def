"""A signed-in player changes their password on a page of their own, and every password change
(that page, the admin, code, ``manage.py changepassword``) revokes the account's API token and
ends its other sessions: a leaked token or session dies with the old password."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management import call_command
from django.test import Client
from django.utils.module_loading import import_string
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db

NEW = "violet-harbour-71"


def signed_in(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password="pw-" + user.username)
    return client


def token_works(key: str) -> bool:
    return Client().get("/api/tournaments/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200


def change(client: Client, old: str, new: str = NEW, **extra):
    return client.post(
        "/accounts/password/", {"old_password": old, "new_password1": new, "new_password2": new}, **extra
    )


def test_the_account_page_links_to_the_password_page_which_asks_for_the_old_password(alice):
    client = signed_in(alice)
    assert 'href="/accounts/password/"' in client.get("/accounts/").content.decode()
    page = client.get("/accounts/password/").content.decode()
    assert 'name="old_password"' in page and 'name="new_password1"' in page


def test_the_password_page_sends_a_visitor_to_sign_in(db):
    response = Client().get("/accounts/password/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_player_changes_their_password_and_stays_signed_in_here_only(alice):
    here, elsewhere = signed_in(alice), signed_in(alice)
    response = change(here, "pw-alice")
    assert response.status_code == 302 and response["Location"] == "/accounts/"
    assert "Your password is changed" in here.get("/accounts/").content.decode()
    assert here.get("/accounts/").status_code == 200  # this session goes on
    assert elsewhere.get("/accounts/").status_code == 302  # the other one is signed out
    assert Client().login(username="alice", password=NEW)
    assert not Client().login(username="alice", password="pw-alice")


def test_a_wrong_old_password_or_a_weak_new_one_changes_nothing(alice):
    client = signed_in(alice)
    token = Token.objects.create(user=alice).key
    wrong = change(client, "not-my-password")
    assert wrong.status_code == 200 and "Your old password was entered incorrectly" in wrong.content.decode()
    weak = change(client, "pw-alice", new="password")
    assert weak.status_code == 200 and "too common" in weak.content.decode()
    assert Client().login(username="alice", password="pw-alice")
    assert token_works(token)


def test_changing_the_password_on_the_page_revokes_the_api_token(alice):
    client = signed_in(alice)
    old = Token.objects.create(user=alice).key
    change(client, "pw-alice")
    assert not token_works(old)
    # The account page makes a new one, which works.
    assert client.get("/accounts/").status_code == 200
    new = Token.objects.get(user=alice).key
    assert new != old and token_works(new)


def test_a_password_set_by_an_admin_revokes_the_api_token(alice, make_user):
    admin = get_user_model().objects.create_superuser("root", password="pw-root")
    token = Token.objects.create(user=alice).key
    response = signed_in(admin).post(
        f"/admin/auth/user/{alice.pk}/password/",
        {"password1": NEW, "password2": NEW, "usable_password": "true"},
    )
    assert response.status_code == 302
    assert Client().login(username="alice", password=NEW)
    assert not token_works(token)


def test_an_admin_switching_off_password_sign_in_revokes_the_api_token(alice):
    token = Token.objects.create(user=alice).key
    alice.set_unusable_password()
    alice.save()
    assert not token_works(token)


def test_a_password_set_in_code_revokes_the_api_token(alice):
    token = Token.objects.create(user=alice).key
    alice.set_password(NEW)
    alice.save()
    assert not token_works(token)


def test_manage_py_changepassword_revokes_the_api_token(alice, monkeypatch):
    token = Token.objects.create(user=alice).key
    monkeypatch.setattr("django.contrib.auth.management.commands.changepassword.getpass.getpass", lambda prompt="": NEW)
    call_command("changepassword", "alice")
    assert Client().login(username="alice", password=NEW)
    assert not token_works(token)


def test_saving_anything_else_or_rehashing_the_same_password_keeps_the_api_token(alice, settings):
    token = Token.objects.create(user=alice).key
    alice.email = "alice@example.org"
    alice.save()
    # A password stored under a hasher the site no longer prefers is stored again under the
    # preferred one when it is next checked (here, on signing in): the same password, no change.
    older = import_string(settings.PASSWORD_HASHERS[1])()
    get_user_model().objects.filter(pk=alice.pk).update(password=make_password("pw-alice", hasher=older))
    before = get_user_model().objects.get(pk=alice.pk).password
    assert Client().login(username="alice", password="pw-alice")
    assert get_user_model().objects.get(pk=alice.pk).password != before  # it was rehashed
    assert token_works(token)


def test_wrong_old_passwords_on_the_page_lock_it_as_sign_in_does(alice, settings):
    client = signed_in(alice)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert change(client, "guess").status_code == 200
    assert change(client, "guess").status_code == 429
    assert change(client, "pw-alice").status_code == 429  # even the right one, while locked
    assert Client().login(username="alice", password="pw-alice")  # unchanged


def test_the_password_page_shares_the_per_address_sign_in_budget(alice, settings):
    settings.THROTTLE_AUTH = "3/minute"
    client = signed_in(alice)
    codes = [change(client, f"guess{i}").status_code for i in range(2)]
    codes += [client.post("/accounts/login/", {"username": "x", "password": "y"}).status_code]
    codes += [change(client, "pw-alice").status_code]
    assert codes == [200, 200, 200, 429]
