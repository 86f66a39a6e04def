"""Issue 16: the Swiss TRF export read back by a small, independent TRF-16 reader written
here from FIDE's column layout (C.04 Annex 2): start numbers are the rating order the
pairing uses, XXR is the number of rounds planned, only TRF's own result codes appear,
and every game reads the same from both sides."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.selectors import trf_report
from league.tournaments.standings import round_standings
from matches.commands import AT_HEAD

from .helpers import field, open_tournament, pid, settle, state

pytestmark = pytest.mark.django_db

# TRF-16 result codes: forfeits, unrated and rated games, byes, absence.
KNOWN_CODES = {
    "+": 1,
    "-": 0,
    "W": 1,
    "D": Fraction(1, 2),
    "L": 0,
    "1": 1,
    "=": Fraction(1, 2),
    "0": 0,
    "H": Fraction(1, 2),
    "F": 1,
    "U": 1,
    "Z": 0,
    " ": 0,
}


def read_trf(text):
    """Parse a TRF-16 file by its fixed columns (1-based, inclusive, as the spec gives them)."""
    col = lambda line, a, b: line[a - 1 : b]  # noqa: E731
    header, players = {}, {}
    for line in text.splitlines():
        code = line[:3]
        if code != "001":
            header[code] = line[4:].strip()
            continue
        number = int(col(line, 5, 8))
        rounds = []
        k = 0
        while len(line) >= 92 + 10 * k:
            start = 92 + 10 * k
            cell = col(line, start, start + 7).ljust(8)
            rounds.append((int(cell[0:4]), cell[5], cell[7]))
            k += 1
        players[number] = {
            "name": col(line, 15, 47).strip(),
            "rating": int(col(line, 49, 52) or 0),
            "points": Fraction(col(line, 81, 84).strip()),
            "rank": int(col(line, 86, 89)),
            "rounds": rounds,
        }
    return header, players


def test_the_trf_export_reads_back_with_an_independent_reader(alice):
    players = field(7)
    ratings = [1500, 1900, 1700, 2100, 1600, 1800, 1400]
    t = services.tournament_create(
        created_by=alice, name="Club Swiss", game="dueling-wizards", format="swiss", options={"rounds": 4}
    )
    for user, rating in zip(players, ratings):
        services.tournament_register(tournament=t, user=user, by=alice, rating=rating, expected_seq=AT_HEAD)
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    # Round one: the first seat wins on odd boards, draws elsewhere; round two higher id.
    settle(t, lambda r: r["players"][0] if r["board"] % 2 else None)
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    settle(t, lambda r: max(r["players"], key=int))
    s = state(t)
    standing = {r["player"]: r for r in round_standings(s)}
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)  # round three paired, not played
    header, rows = read_trf(trf_report(tournament=t))

    assert header["012"] == "Club Swiss"
    assert header["XXR"] == "4"  # the rounds planned, not the rounds paired so far
    # Start numbers: highest rating first, as the pairing ranks an empty score sheet.
    assert [rows[n]["rating"] for n in sorted(rows)] == sorted(ratings, reverse=True)
    number_of = {rows[n]["name"]: n for n in rows}
    for user in players:
        row = rows[number_of[user.username]]
        # Only rounds that have results are written (round three has none yet).
        assert len(row["rounds"]) == 2
        assert all(code in KNOWN_CODES for _, _, code in row["rounds"])
        assert all(colour in "wb-" for _, colour, _ in row["rounds"])
        assert row["points"] == sum((KNOWN_CODES[c] for _, _, c in row["rounds"]), Fraction(0))
        assert row["points"] == standing[pid(user)]["score"]
        # Points and ranks are those after round two: the round-three bye is not in the file yet.
        assert row["rank"] == standing[pid(user)]["rank"]
        for rnd, (opponent, colour, code) in enumerate(row["rounds"]):
            if opponent == 0:
                assert code == "U" and colour == "-"  # the pairing-allocated bye
                continue
            back = rows[opponent]["rounds"][rnd]
            assert back[0] == number_of[user.username]
            assert {colour, back[1]} == {"w", "b"}
            assert (code, back[2]) in {("1", "0"), ("0", "1"), ("=", "=")}
    # Each round's pairing as the file tells it is the pairing the tournament made.
    for rnd in range(2):
        told = {frozenset((n, rows[n]["rounds"][rnd][0])) for n in rows if rows[n]["rounds"][rnd][0]}
        made = {
            frozenset(number_of[s["players"][p]["name"]] for p in s["pairings"][key]["players"])
            for key in s["rounds"][rnd]["pairings"]
            if len(s["pairings"][key]["players"]) == 2
        }
        assert told == made


def test_a_bye_worth_half_a_point_is_declared_for_pairing_programs(alice):
    t = open_tournament(alice, "swiss", field(3), start=True, rounds=2, bye_score="1/2")
    settle(t, lambda r: r["players"][0])
    header, rows = read_trf(trf_report(tournament=t))
    assert header["XXS"] == "PAB=0.5"
    bye = next(r for r in rows.values() if r["rounds"][0][0] == 0)
    assert bye["rounds"][0][2] == "U" and bye["points"] == Fraction(1, 2)


def test_start_numbers_of_equal_ratings_follow_the_entry_order_not_the_ids_as_text(alice):
    # User ids 99 and 100 as text sort "100" first; the start numbers keep who entered first.
    User = get_user_model()
    players = [User.objects.create_user(f"seed{pk}", password="pw", pk=pk) for pk in (98, 99, 100, 101)]
    t = open_tournament(alice, "swiss", players, start=True, rounds=2)
    settle(t, lambda r: min(r["players"], key=int))
    _, rows = read_trf(trf_report(tournament=t))
    assert [rows[n]["name"] for n in sorted(rows)] == ["seed98", "seed99", "seed100", "seed101"]


def refusal(call):
    from matches.errors import Refusal

    with pytest.raises(Refusal) as refused:
        call()
    return refused.value


def test_points_past_trfs_four_columns_are_refused_not_spilled_into_the_rank(alice, client_for):
    # A win worth 40: the winner of three rounds has 120.0, five characters where TRF-16 has
    # four (columns 81-84); written anyway, it would move the rank and every round's cell.
    t = open_tournament(
        alice, "swiss", field(4), start=True, rounds=3, match_points={"win": 40, "draw": 20, "loss": 0, "bye": 40}
    )
    for _ in range(2):
        settle(t, lambda r: min(r["players"], key=int))
        services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    settle(t, lambda r: min(r["players"], key=int))
    assert max(r["score"] for r in round_standings(state(t))) == 120

    refused = refusal(lambda: trf_report(tournament=t))
    assert refused.code == "trf_unrepresentable" and "120" in refused.message
    answer = client_for(alice).get(f"/api/tournaments/{t.pk}/trf.txt")
    assert (answer.status_code, answer.json()["code"]) == (409, "trf_unrepresentable"), answer.content


def test_a_total_with_a_quarter_point_is_refused_not_rounded(alice):
    # A bye asked for at a quarter of a one-point win: the player's total ends in .25, which
    # one decimal would write as .2, and a reader would take as the sum of the results.
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2, requested_bye_points="1/4")
    services.tournament_bye_request(tournament=t, user=players[0], round=2, expected_seq=AT_HEAD)
    settle(t, lambda r: min(r["players"], key=int))
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    settle(t, lambda r: min(r["players"], key=int))
    assert any(r["score"].denominator == 4 for r in round_standings(state(t)))
    assert refusal(lambda: trf_report(tournament=t)).code == "trf_unrepresentable"


def test_a_pairing_bye_worth_a_third_is_refused_in_the_header(alice):
    t = open_tournament(alice, "swiss", field(3), start=True, rounds=2, bye_score="1/3")
    settle(t, lambda r: r["players"][0])
    refused = refusal(lambda: trf_report(tournament=t))
    assert refused.code == "trf_unrepresentable" and "bye" in refused.message
