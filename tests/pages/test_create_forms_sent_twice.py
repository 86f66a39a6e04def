"""The new-match and new-draft forms sent twice (a double click, a browser resending after a lost
answer) make one match, one draft, one invitation: each form shown carries its own event_id, which
the create is idempotent by, as the new-tournament form's already was."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from league.drafts.models import Draft
from matches.forms import EVENT_ID_REUSED
from matches.invitations.models import Invitation
from matches.models import Match

from ..matches.helpers import at_once

BOT_MATCH = {"game": "dueling-wizards", "opponent": "", "bot": "", "mode": "server", "clock": ""}
DRAFT = {"opponent": "bob", "first": "me", "format": "basic", "clock_seconds": "60"}


def signed_in(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def form_ids(html: str, testid: str | None = None) -> dict:
    """The hidden fields of the page's form (the one with ``data-testid`` if given), csrf aside."""
    if testid:
        html = re.search(rf'<form[^>]*data-testid="{testid}"[^>]*>(.*?)</form>', html, re.S).group(1)
    hidden = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', html)
    return {name: value for name, value in hidden if name != "csrfmiddlewaretoken"}


@pytest.mark.django_db
def test_the_new_match_page_sent_twice_against_the_bot_makes_one_match_and_shows_it_both_times(alice):
    browser = signed_in(alice)
    form = {**form_ids(browser.get("/matches/new/").content.decode()), **BOT_MATCH}
    assert form["event_id"]
    first, again = browser.post("/matches/new/", form), browser.post("/matches/new/", form)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"] == f"/matches/{Match.objects.get().id}/"


@pytest.mark.django_db
def test_the_home_pages_match_form_sent_twice_makes_one_match(alice):
    browser = signed_in(alice)
    form = {**form_ids(browser.get("/").content.decode(), "new-match"), **BOT_MATCH}
    assert form["event_id"]
    browser.post("/matches/new/", form)
    browser.post("/matches/new/", form)
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_the_new_match_page_sent_twice_with_an_opponent_sends_one_invitation(alice, bob):
    browser = signed_in(alice)
    form = {**form_ids(browser.get("/matches/new/").content.decode()), **BOT_MATCH, "opponent": "bob"}
    first, again = browser.post("/matches/new/", form), browser.post("/matches/new/", form)
    assert first["Location"] == again["Location"] == f"/invitations/{Invitation.objects.get().id}/"


@pytest.mark.django_db
def test_the_new_draft_form_sent_twice_sends_one_invitation(alice, bob):
    browser = signed_in(alice)
    form = {**form_ids(browser.get("/drafts/").content.decode(), "new-draft"), **DRAFT}
    assert form["event_id"]
    first, again = browser.post("/drafts/", form), browser.post("/drafts/", form)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"] == f"/invitations/{Invitation.objects.get().id}/"
    assert not Draft.objects.exists()  # opened only once bob accepts


@pytest.mark.django_db
def test_each_form_shown_is_a_new_create(alice):
    browser = signed_in(alice)
    for _ in range(2):
        form = {**form_ids(browser.get("/matches/new/").content.decode()), **BOT_MATCH}
        assert browser.post("/matches/new/", form).status_code == 302
    assert Match.objects.count() == 2


@pytest.mark.django_db
def test_a_sent_form_changed_and_sent_again_is_told_so_in_words_and_can_then_be_sent(alice, bob):
    # Back to a form already sent, another opponent chosen: the id made the first invitation.
    browser = signed_in(alice)
    form = {**form_ids(browser.get("/matches/new/").content.decode()), **BOT_MATCH}
    browser.post("/matches/new/", form)
    changed = browser.post("/matches/new/", {**form, "opponent": "bob"})
    assert changed.status_code == 200 and EVENT_ID_REUSED in changed.content.decode()
    assert "event_id was already used" not in changed.content.decode()  # the API's sentence, for scripts
    renewed = form_ids(changed.content.decode())["event_id"]
    assert renewed != form["event_id"]
    sent = browser.post("/matches/new/", {**form, "opponent": "bob", "event_id": renewed})
    assert sent["Location"] == f"/invitations/{Invitation.objects.get().id}/"
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_a_sent_draft_form_changed_and_sent_again_is_told_so_and_renewed(alice, bob, carol):
    browser = signed_in(alice)
    form = {**form_ids(browser.get("/drafts/").content.decode(), "new-draft"), **DRAFT}
    browser.post("/drafts/", form)
    changed = browser.post("/drafts/", {**form, "opponent": "carol"})
    page = changed.content.decode()
    assert changed.status_code == 200 and EVENT_ID_REUSED in page
    renewed = form_ids(page, "new-draft")["event_id"]
    assert browser.post("/drafts/", {**form, "opponent": "carol", "event_id": renewed}).status_code == 302
    assert sorted(i.invitees.get().user.username for i in Invitation.objects.all()) == ["bob", "carol"]


@pytest.mark.django_db(transaction=True)
def test_the_new_match_form_sent_four_times_at_once_makes_one_match(alice):
    browsers = [signed_in(alice) for _ in range(4)]
    form = {**form_ids(browsers[0].get("/matches/new/").content.decode()), **BOT_MATCH}
    answers = at_once(4, lambda i: browsers[i].post("/matches/new/", form)["Location"])
    assert Match.objects.count() == 1
    assert answers == [f"/matches/{Match.objects.get().id}/"] * 4, answers
