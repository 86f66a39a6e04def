"""``next=`` on the sign-in and sign-out forms goes only to this site's own pages: a link that
signs someone in and then sends them to another site (a look-alike asking for the password
again) lands them on the home page instead."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ELSEWHERE = [
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example/",
    "https:evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
]


@pytest.mark.parametrize("target", ELSEWHERE)
def test_sign_in_and_sign_out_never_send_anyone_to_another_site(alice, target):
    client = Client()
    signed_in = client.post(
        f"/accounts/login/?next={target}", {"username": "alice", "password": "pw-alice", "next": target}
    )
    assert signed_in.status_code == 302 and signed_in["Location"] == "/"
    signed_out = client.post("/accounts/logout/", {"next": target})
    assert signed_out.status_code == 302 and signed_out["Location"] == "/"


def test_a_page_of_this_site_is_where_sign_in_and_sign_out_go(alice):
    client = Client()
    signed_in = client.post("/accounts/login/", {"username": "alice", "password": "pw-alice", "next": "/tournaments/"})
    assert signed_in["Location"] == "/tournaments/"
    assert client.post("/accounts/logout/", {"next": "/drafts/"})["Location"] == "/drafts/"


def test_the_sign_in_form_does_not_carry_a_foreign_next_along():
    page = Client().get("/accounts/login/", {"next": "https://evil.example/"}).content.decode()
    assert "evil.example" not in page


def test_signing_out_is_a_post_a_link_or_image_cannot_make():
    assert Client().get("/accounts/logout/").status_code == 405


def test_sign_up_goes_home_whatever_next_says():
    response = Client().post(
        "/accounts/signup/?next=https://evil.example/",
        {"username": "newcomer", "password1": "a-long-pass-phrase-9", "password2": "a-long-pass-phrase-9"},
    )
    assert response.status_code == 302 and response["Location"] == "/"
