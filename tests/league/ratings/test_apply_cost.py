"""One verdict's rating update costs the same few queries whatever the history (issue 17, P4a).

The usual verdict, the newest result of a game already rated, is one read of everything the
rating step needs and one write; a second update that gets in between the two leaves the first
to the locked path, which still ends exactly where a rebuild does."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.ratings import projection
from league.ratings.projection import ratings_apply, ratings_rebuild
from matches.models import Match

from .test_incremental import finished, snapshot, verdict


def played(users, count: int, game: str = "wizard-dodgeball") -> None:
    """``count`` verified duels among ``users``, rated by a rebuild (the history to grow)."""
    for n in range(count):
        a, b = users[n % len(users)], users[(n + 1 + n // len(users)) % len(users)]
        if a == b:
            b = users[(n + 2) % len(users)]
        match = finished(game, [a, b], [0, 1] if n % 3 else [1, 0])
        Match.objects.filter(pk=match.pk).update(verdict=Match.Verdict.VERIFIED)
    ratings_rebuild(game=game)


def queries_of_one_verdict(users, game: str, seats, places) -> int:
    match = finished(game, seats, places)
    Match.objects.filter(pk=match.pk).update(verdict=Match.Verdict.VERIFIED)
    with CaptureQueriesContext(connection) as queries:
        assert ratings_apply(match_id=match.pk) is True
    return len(queries)


@pytest.fixture
def wizards(make_user):
    return [make_user(name) for name in ("ann", "ben", "cyd", "dee", "eve", "fay")]


def test_a_verdicts_update_takes_two_queries_after_ten_results_and_after_a_hundred(wizards):
    a, b, c, d, e, f = wizards
    played(wizards, 10)
    short = queries_of_one_verdict(wizards, "wizard-dodgeball", [a, b], [0, 1])
    played(wizards, 90)
    long = queries_of_one_verdict(wizards, "wizard-dodgeball", [c, f], [1, 0])
    # A first-time player is an insert in the same upsert: no extra query either.
    newcomer = queries_of_one_verdict(wizards, "wizard-dodgeball", [e, wizards[0]], [0, 0])
    assert (short, long, newcomer) == (2, 2, 2)
    incremental = snapshot("wizard-dodgeball")
    ratings_rebuild(game="wizard-dodgeball")
    assert snapshot("wizard-dodgeball") == incremental


def test_a_four_player_verdict_also_takes_two_queries_and_matches_a_rebuild(wizards):
    played_four = [
        (wizards[0:3], [0, 1, 2]),
        (wizards[2:5], [2, 0, 0]),
        (wizards[3:6], [1, 2, 0]),
    ]
    for seats, places in played_four:
        verdict(finished("dueling-wizards", seats, places))
    counts = [queries_of_one_verdict(wizards, "dueling-wizards", wizards[1:4], [0, 1, 1]) for _ in range(3)]
    assert counts == [2, 2, 2]
    incremental = snapshot("dueling-wizards")
    ratings_rebuild(game="dueling-wizards")
    assert snapshot("dueling-wizards") == incremental


@pytest.mark.django_db(transaction=True)
def test_an_update_that_gets_in_between_the_read_and_the_write_sends_the_verdict_the_locked_way(make_user, monkeypatch):
    # Each statement commits on its own here, as in a worker: the second verdict's update lands
    # after the first one read the ratings and before it writes them.
    ann, ben, cyd, dee = (make_user(n) for n in ("ann", "ben", "cyd", "dee"))
    verdict(finished("wizard-dodgeball", [ann, ben], [0, 1]))
    first = finished("wizard-dodgeball", [ben, cyd], [0, 1])
    second = finished("wizard-dodgeball", [cyd, dee], [1, 0])  # Cyd again: a stale read would show
    Match.objects.filter(pk__in=[first.pk, second.pk]).update(verdict=Match.Verdict.VERIFIED)

    real = projection.rate_one
    steps = []

    def second_gets_in_first(ratings, result, system, **kw):
        steps.append(result.match_id)
        if len(steps) == 1:
            assert ratings_apply(match_id=second.pk) is True
        return real(ratings, result, system, **kw)

    monkeypatch.setattr(projection, "rate_one", second_gets_in_first)
    assert ratings_apply(match_id=first.pk) is True
    # The first verdict's two-statement write found the checkpoint moved and wrote nothing; the
    # locked path then rewound the second result and rated both in commit order.
    assert [str(m) for m in steps] == [str(first.pk), str(second.pk), str(first.pk), str(second.pk)]
    incremental = snapshot("wizard-dodgeball")
    ratings_rebuild(game="wizard-dodgeball")
    assert snapshot("wizard-dodgeball") == incremental
