"""The new-tournament form offers the seat rule of a Swiss and the pod size, and a pod
larger than the game seats comes back as the service's sentence on the form."""

from __future__ import annotations

import pytest
from django.test import Client

from league.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def form_client(user):
    client = Client()
    client.force_login(user)
    return client


def test_a_swiss_created_from_the_form_can_ask_for_strict_seats(alice):
    r = form_client(alice).post(
        "/tournaments/",
        {
            "name": "Strict Open",
            "game": "dueling-wizards",
            "format": "swiss",
            "bye_score": "1",
            "seeding": "registration",
            "seat_balance": "strict",
        },
    )
    assert r.status_code == 302
    assert Tournament.objects.get(name="Strict Open").state["options"]["seat_balance"] == "strict"


def test_a_pod_larger_than_the_game_is_refused_on_the_form(alice):
    client = form_client(alice)
    r = client.post(
        "/tournaments/",
        {
            "name": "Big pods",
            "game": "dueling-wizards",
            "format": "pods",
            "bye_score": "1",
            "seeding": "registration",
            "pod_size": 4,
        },
    )
    assert r.status_code == 200 and not Tournament.objects.filter(name="Big pods").exists()
    assert "seats at most 3 players" in r.content.decode()
    r = client.post(
        "/tournaments/",
        {
            "name": "Pods of three",
            "game": "dueling-wizards",
            "format": "pods",
            "bye_score": "1",
            "seeding": "registration",
            "pod_size": 3,
        },
    )
    assert r.status_code == 302
    assert Tournament.objects.get(name="Pods of three").state["options"]["pod_size"] == 3
