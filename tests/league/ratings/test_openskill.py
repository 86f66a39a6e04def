"""OpenSkill (Plackett-Luce) for three to five players and teams, ties included."""

import pytest
from openskill.models import PlackettLuce

from league.ratings.multi import MultiRating, rate_match


def test_a_four_player_finish_moves_first_up_and_last_down():
    new = rate_match({}, [["ann"], ["bob"], ["cy"], ["dee"]])
    assert new["ann"].mu > new["bob"].mu > new["cy"].mu > new["dee"].mu
    assert new["ann"].mu > 25 > new["dee"].mu


def test_players_tied_for_a_place_with_equal_ratings_get_equal_new_ratings():
    new = rate_match({}, [["ann"], ["bob", "cy"], ["dee"]])
    assert new["bob"] == new["cy"]
    assert new["ann"].mu > new["bob"].mu > new["dee"].mu


def test_a_match_everyone_draws_leaves_equal_players_means_unchanged():
    new = rate_match({}, [["ann", "bob", "cy"]])
    assert all(r.mu == pytest.approx(25.0) for r in new.values())


def test_teams_of_equal_players_move_together():
    new = rate_match({}, [[("ann", "bob")], [("cy", "dee")], [("eve", "fay")]])
    assert new["ann"] == new["bob"] and new["cy"] == new["dee"] and new["eve"] == new["fay"]
    assert new["ann"].mu > new["cy"].mu > new["eve"].mu


def test_the_numbers_are_the_openskill_packages_plackett_luce_ones():
    ratings = {"ann": MultiRating(30, 5), "bob": MultiRating(22, 7), "cy": MultiRating(25, 8)}
    new = rate_match(ratings, [["bob"], ["ann", "cy"]])
    model = PlackettLuce()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in (ratings["bob"], ratings["ann"], ratings["cy"])]
    expected = model.rate(teams, ranks=[0, 1, 1])
    assert (new["bob"].mu, new["bob"].sigma) == (expected[0][0].mu, expected[0][0].sigma)
    assert (new["cy"].mu, new["cy"].sigma) == (expected[2][0].mu, expected[2][0].sigma)


def test_only_the_players_of_the_match_are_returned_and_the_input_is_untouched():
    ratings = {"zed": MultiRating(40, 2)}
    new = rate_match(ratings, [["ann"], ["bob"], ["cy"]])
    assert set(new) == {"ann", "bob", "cy"} and ratings == {"zed": MultiRating(40, 2)}


def test_a_player_in_two_places_or_a_one_sided_match_is_refused():
    with pytest.raises(ValueError):
        rate_match({}, [["ann"], ["ann"]])
    with pytest.raises(ValueError):
        rate_match({}, [["ann"]])
