"""Pod standings split ties as their docstring says: placement points, then first places,
then average place (lower is better); players equal on all three share a rank and stand in
their entry order, not in the order of their ids as text ("10" before "9")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from league.tournaments import selectors, services
from league.tournaments.standings import pod_standings
from matches.commands import AT_HEAD

from .helpers import field, open_tournament, state

pytestmark = pytest.mark.django_db


def rule_finishes(t, finish_of):
    """The organiser rules every open pod with ``finish_of(players)``."""
    for record in state(t)["pairings"].values():
        if record["status"] == "pending":
            services.tournament_rule(
                tournament=t,
                pairing=record["id"],
                by=t.created_by,
                result={"finish": finish_of(record["players"])},
                expected_seq=AT_HEAD,
            )


@pytest.fixture
def three_pods(alice):
    """Twelve players in three pods of four, registered in the reverse of their ids' order, with
    points for the first two places only; every pod finishes in seat order."""
    players = list(reversed(field(12)))
    t = open_tournament(alice, "pods", players, start=True, game="wizard-dodgeball", placement_points=[1, 1, 0, 0])
    s = state(t)
    pods = [s["pairings"][p]["players"] for p in s["rounds"][0]["pairings"]]
    assert sorted(len(pod) for pod in pods) == [4, 4, 4]
    rule_finishes(t, lambda players: [[p] for p in players])
    return t, pods, [str(p.pk) for p in players]


def test_players_level_on_points_and_first_places_are_split_by_average_place(three_pods):
    t, pods, _ = three_pods
    rows = pod_standings(state(t))
    by_player = {r["player"]: r for r in rows}
    thirds = [pod[2] for pod in pods]
    fourths = [pod[3] for pod in pods]
    for p in thirds:
        assert by_player[p]["score"] == 0 and by_player[p]["tiebreaks"] == {"firsts": 0, "average_place": 3}
        assert by_player[p]["rank"] == 7
    for p in fourths:
        assert by_player[p]["score"] == 0 and by_player[p]["tiebreaks"] == {"firsts": 0, "average_place": 4}
        assert by_player[p]["rank"] == 10
    last_third = rows[8]
    assert last_third["player"] in thirds and last_third["separated_by"] == "average_place"
    assert last_third["decided_by"] == f"ahead of {rows[9]['name']} on average place: 3 to 4"


def test_first_places_split_players_level_on_points(three_pods):
    t, pods, _ = three_pods
    rows = pod_standings(state(t))
    assert {r["player"] for r in rows[:3]} == {pod[0] for pod in pods}
    assert {r["player"] for r in rows[3:6]} == {pod[1] for pod in pods}
    assert [r["rank"] for r in rows[:6]] == [1, 1, 1, 4, 4, 4]
    assert rows[2]["separated_by"] == "firsts"
    assert rows[2]["decided_by"] == f"ahead of {rows[3]['name']} on first places: 1 to 0"


def test_players_equal_on_everything_share_a_rank_in_their_entry_order(three_pods):
    t, pods, entry = three_pods
    rows = pod_standings(state(t))
    for start in (0, 3, 6, 9):
        tied = [r["player"] for r in rows[start : start + 3]]
        assert tied == sorted(tied, key=entry.index)
        assert len({r["rank"] for r in rows[start : start + 3]}) == 1
        assert rows[start]["decided_by"] == f"tied with {rows[start + 1]['name']}"


def test_a_shared_place_counts_as_the_middle_of_the_places_it_covers(alice):
    players = field(4)
    t = open_tournament(alice, "pods", players, start=True, game="wizard-dodgeball")
    rule_finishes(t, lambda ps: [[ps[0]], [ps[1], ps[2]], [ps[3]]])
    (pod,) = [r["players"] for r in state(t)["pairings"].values()]
    average = {r["player"]: r["tiebreaks"]["average_place"] for r in pod_standings(state(t))}
    assert average == {pod[0]: 1, pod[1]: Fraction(5, 2), pod[2]: Fraction(5, 2), pod[3]: 4}


def test_the_tournament_page_data_shows_average_place_as_a_column(alice):
    players = field(4)
    t = open_tournament(alice, "pods", players, start=True, game="wizard-dodgeball")
    rule_finishes(t, lambda ps: [[ps[0]], [ps[1], ps[2]], [ps[3]]])
    info = selectors.tournament_summary(tournament=t, user=alice)
    assert info["standings"]["columns"] == ["firsts", "average_place"]
    shown = [r["tiebreaks"]["average_place"] for r in info["standings"]["tables"][0]["rows"]]
    assert shown == ["1", "5/2", "5/2", "4"]


def test_a_player_with_no_finished_pod_yet_has_no_average_place(alice):
    players = field(4)
    t = open_tournament(alice, "pods", players, start=True, game="wizard-dodgeball")
    rows = pod_standings(state(t))
    assert [r["tiebreaks"]["average_place"] for r in rows] == [None] * 4
    assert {r["rank"] for r in rows} == {1}
