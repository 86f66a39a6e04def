"""The account pages sent twice at once (a double click, two tabs): a sign-up for one name in two
cases makes one account, a token rotation leaves one token, and every request gets a page, never
a 500 from a unique index that a check-then-insert left the last word to."""

from __future__ import annotations

import base64
import json
import os

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token

from matches.views import SignupForm
from tests.league.test_demo_on_sqlite import _manage

from .helpers import at_once

PASSWORD = "violet-harbour-71"


def sign_up_at_once(name: str) -> list:
    """Six sign-ups released together: half ask for ``name``, half for ``Name`` (one name to the form)."""

    def sign_up(i):
        username = name if i % 2 else name.capitalize()
        response = Client(raise_request_exception=False).post(
            "/accounts/signup/", {"username": username, "password1": PASSWORD, "password2": PASSWORD}
        )
        return response.status_code, SignupForm.UNAVAILABLE in response.content.decode()

    return at_once(6, sign_up)


@pytest.mark.django_db(transaction=True)
def test_six_sign_ups_at_once_for_one_name_in_two_cases_make_one_account_and_tell_the_rest_it_is_taken():
    for attempt in range(4):
        name = f"newcomer{attempt}"
        answers = sign_up_at_once(name)
        # One account; every other request gets the form again with the neutral sentence (never a
        # 500, and never Django's "already exists", which the form keeps from answering).
        assert sorted(answers) == [(200, True)] * 5 + [(302, False)], answers
        assert get_user_model().objects.filter(username__iexact=name).count() == 1


@pytest.mark.django_db
def test_a_sign_up_that_loses_the_race_after_the_forms_check_gets_the_forms_sentence(monkeypatch):
    # The check passes (as it does for a request that looked before the other one saved), then the
    # database's index on the name in any case refuses the insert.
    get_user_model().objects.create_user("gwen", password=PASSWORD)
    monkeypatch.setattr(SignupForm, "clean_username", lambda form: form.cleaned_data["username"])
    response = Client().post("/accounts/signup/", {"username": "Gwen", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 200
    assert SignupForm.UNAVAILABLE in response.content.decode()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["gwen"]


@pytest.mark.django_db(transaction=True)
def test_rotating_the_api_token_six_times_at_once_leaves_one_new_token(make_user):
    user = make_user("racer")
    old = Token.objects.create(user=user).key
    browsers = [Client(raise_request_exception=False) for _ in range(6)]
    for browser in browsers:
        browser.force_login(user)
    for _ in range(4):
        answers = at_once(6, lambda i: browsers[i].post("/accounts/").status_code)
        assert answers == [302] * 6, answers
        assert Token.objects.filter(user=user).count() == 1
    assert Token.objects.get(user=user).key != old


SQLITE = """
import json
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import IntegrityError

call_command("migrate", verbosity=0)
call_command("migrate", "matches", "0012", verbosity=0)  # the index's migration undone
User(username="Gwen").save()
User(username="gwen").save()
try:
    call_command("migrate", verbosity=0)
    refused = None
except RuntimeError as exc:
    refused = str(exc)
# Renamed as the sentence asks, the migration goes through and the index holds from then on.
User.objects.filter(username="gwen").update(username="gwen2")
call_command("migrate", verbosity=0)
try:
    User(username="GWEN").save()
    again = "saved"
except IntegrityError:
    again = "refused"
print(json.dumps({"refused": refused, "again": again}))
"""


def test_on_sqlite_too_a_name_in_another_case_is_refused_and_the_migration_names_existing_clashes(tmp_path):
    (tmp_path / "checkpoint.key").write_text(base64.b64encode(os.urandom(32)).decode())
    report = json.loads(_manage(tmp_path, "shell", "-c", SQLITE).stdout.strip().splitlines()[-1])
    assert "differ only in case exist (Gwen, gwen)" in (report["refused"] or ""), report
    assert report["again"] == "refused"
