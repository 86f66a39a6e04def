"""The form guide: last five results, most recent last, in round order."""

from league.seasons.table import Result, standings

from .helpers import win


def form_of(club, results, clubs="ABCDEFGH"):
    return next(r.form for r in standings(list(clubs), results) if r.club == club)


def test_form_shows_the_last_five_in_round_order_even_when_results_arrive_out_of_order():
    # A's seven rounds: 1 W, 2 L, 3 D, 4 W, 5 W, 6 L, 7 W. Given shuffled (a corrected
    # result, say, arrives late); form is rounds 3-7.
    results = [
        win("A", "H", 1, round=7),
        win("A", "B", 2, round=1),
        Result("A", "D", 1, 1, round=3),
        win("C", "A", 1, home=False, round=2),
        win("G", "A", 3, round=6),
        win("A", "E", 1, round=4),
        win("A", "F", 1, home=False, round=5),  # A won away at F
    ]
    assert form_of("A", results) == "DWWLW"


def test_a_club_with_fewer_than_five_results_shows_what_it_has():
    assert form_of("B", [win("A", "B", 1, round=1), win("B", "C", 1, round=2)]) == "LW"


def test_results_within_one_round_keep_the_order_given():
    # Two matches on the same matchday (a rescheduled fixture): the order given stands.
    results = [win("A", "B", 1, round=1), win("C", "A", 1, round=1)]
    assert form_of("A", results) == "WL"
