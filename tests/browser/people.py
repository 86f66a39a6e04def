"""Helpers the browser tests share: the people they sign in as, and the match head a page shows."""

from __future__ import annotations

from django.contrib.auth import get_user_model


def users(*names):
    """Accounts named ``names``, each with the password ``pw-<name>`` that ``page_as`` signs in with."""
    User = get_user_model()
    return [User.objects.create_user(n, password=f"pw-{n}") for n in names]


def head_seq(page):
    return page.locator("#match").get_attribute("data-head-seq")
