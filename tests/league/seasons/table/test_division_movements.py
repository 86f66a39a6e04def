"""Promotion, relegation and play-off places between divisions."""

import pytest

from league.seasons.table import division_movements

from .helpers import ranked_table

PREMIER = [f"P{i}" for i in range(1, 7)]
SECOND = [f"S{i}" for i in range(1, 7)]
THIRD = [f"T{i}" for i in range(1, 7)]


def tables():
    # ranked_table makes each table finish exactly in list order (P1 first, P6 last).
    return {"Premier": ranked_table(PREMIER), "Second": ranked_table(SECOND), "Third": ranked_table(THIRD)}


def test_the_top_of_each_lower_division_goes_up_and_the_bottom_of_each_upper_goes_down():
    top, bottom = division_movements(tables(), promote=2, relegate=2)
    assert (top.upper, top.lower) == ("Premier", "Second")
    assert top.promoted == ("S1", "S2") and top.relegated == ("P5", "P6") and top.playoff == ()
    assert (bottom.upper, bottom.lower) == ("Second", "Third")
    assert bottom.promoted == ("T1", "T2") and bottom.relegated == ("S5", "S6")


def test_play_off_places_follow_the_automatic_ones_on_both_sides():
    # Second's 3rd, just after the two automatic places, and Premier's 4th, just above
    # the two relegation places, meet in the play-off.
    top, bottom = division_movements(tables(), promote=2, relegate=2, playoff_spots=1, relegation_playoff_spots=1)
    assert top.playoff == ("P4", "S3")
    assert bottom.playoff == ("S4", "T3")
    # Second's six clubs: S1-S2 up, S3 in the play-off up, S4 in the play-off down,
    # S5-S6 down. Nobody is in two places.
    assert set(top.promoted + top.playoff) & set(bottom.relegated + bottom.playoff) == set()


def test_places_that_would_overlap_in_a_middle_division_are_refused():
    # Second would need 2 + 2 places going up and 2 + 1 going down: seven of six clubs.
    with pytest.raises(ValueError):
        division_movements(tables(), promote=2, relegate=2, playoff_spots=2, relegation_playoff_spots=1)


def test_tables_can_come_as_a_list_of_pairs_with_rows_in_any_order():
    premier = list(reversed(ranked_table(PREMIER)))
    (boundary,) = division_movements([("Premier", premier), ("Second", ranked_table(SECOND))], promote=1, relegate=1)
    assert boundary.promoted == ("S1",) and boundary.relegated == ("P6",)
