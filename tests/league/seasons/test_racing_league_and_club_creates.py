"""Creates of one league or club slug sent at once (two organisers, a script resending): one is
made and every other is told 409 slug_taken, as a create sent after it is, never a 500 from the
database's unique index. The requests really race: threads held at a barrier, on PostgreSQL."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from league.seasons import services as season_services
from league.seasons.models import Club, League

RACERS = 8


def race(client_for, user, url, body) -> list:
    barrier = threading.Barrier(RACERS)

    def send(_):
        from django.db import connection

        try:
            client = client_for(user)
            client.raise_request_exception = False
            barrier.wait()
            answer = client.post(url, body, format="json")
            return answer.status_code, answer.json().get("code")
        except Exception as exc:  # an exception escaping the view is a 500 as well
            return f"raised {type(exc).__name__}"
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=RACERS) as pool:
        return list(pool.map(send, range(RACERS)))


@pytest.mark.django_db(transaction=True)
def test_league_creates_of_one_slug_sent_at_once_make_one_league_and_refuse_the_rest_with_409(client_for, make_user):
    organiser = make_user("racer")
    for attempt in range(4):  # a few rounds: any one may happen not to overlap
        slug = f"race-{attempt}"
        answers = race(
            client_for, organiser, "/api/leagues/", {"slug": slug, "name": "Race", "game": "dueling-wizards"}
        )
        assert League.objects.filter(slug=slug).count() == 1
        assert sorted(answers, key=str) == sorted([(201, None)] + [(409, "slug_taken")] * (RACERS - 1), key=str), (
            answers
        )


@pytest.mark.django_db(transaction=True)
def test_club_creates_of_one_slug_sent_at_once_make_one_club_and_refuse_the_rest_with_409(client_for, make_user):
    organiser = make_user("racer")
    season_services.league_create(slug="duels", name="Duels", game="dueling-wizards", created_by=organiser)
    for attempt in range(4):
        slug = f"club-{attempt}"
        answers = race(client_for, organiser, "/api/leagues/duels/clubs/", {"slug": slug, "name": "Club"})
        assert Club.objects.filter(slug=slug).count() == 1
        assert sorted(answers, key=str) == sorted([(201, None)] + [(409, "slug_taken")] * (RACERS - 1), key=str), (
            answers
        )
