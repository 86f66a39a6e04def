"""Glicko-2 against Glickman's worked example."""

import pytest

from league.ratings.glicko2 import Glicko2Rating, rate_game, rate_period


def test_glickmans_worked_example_gives_1464_06_rd_151_52_and_volatility_0_05999():
    # Mark Glickman, "Example of the Glicko-2 system" (2013), section "Example
    # calculation": a 1500 player with RD 200 and volatility 0.06, tau = 0.5, beats a
    # 1400/30 player and loses to 1550/100 and 1700/300 in one rating period. The paper's
    # results: mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999 on the Glicko-2 scale, that
    # is rating 1464.06, RD 151.52, volatility 0.05999. The paper converts the rounded
    # mu' (173.7178 x -0.2069 + 1500 = 1464.058); unrounded, mu' = -0.206941 gives
    # 1464.0507, so the rating is checked to the paper's precision, 0.01.
    player = Glicko2Rating(1500, 200, 0.06)
    games = [(Glicko2Rating(1400, 30), 1), (Glicko2Rating(1550, 100), 0), (Glicko2Rating(1700, 300), 0)]
    new = rate_period(player, games, tau=0.5)
    assert round((new.rating - 1500) / 173.7178, 4) == -0.2069
    assert round(new.rd / 173.7178, 4) == 0.8722
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.005)
    # The paper prints 0.05999 for 0.0599960 (cut, not rounded, at five decimals).
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)
    assert new.volatility < 0.06


def test_a_period_without_games_only_widens_the_deviation():
    # Step 6 alone: phi* = sqrt(phi^2 + sigma^2), on the Glicko-2 scale (RD / 173.7178).
    new = rate_period(Glicko2Rating(1500, 200, 0.06), [])
    assert new.rating == 1500 and new.volatility == 0.06
    assert new.rd == pytest.approx(173.7178 * ((200 / 173.7178) ** 2 + 0.06**2) ** 0.5)


def test_between_equals_the_winner_gains_exactly_what_the_loser_gives_up():
    winner, loser = rate_game(Glicko2Rating(), Glicko2Rating(), 1)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rd == loser.rd < 350


def test_a_draw_between_equals_leaves_ratings_where_they_were():
    a, b = rate_game(Glicko2Rating(), Glicko2Rating(), 0.5)
    assert a.rating == pytest.approx(1500) and b.rating == pytest.approx(1500)


def test_tau_is_configurable_and_constrains_how_far_volatility_moves():
    # An upset (a weak, settled player beating a strong one) pushes volatility up; a
    # smaller tau holds it closer to where it was.
    weak, strong = Glicko2Rating(1300, 50, 0.06), Glicko2Rating(1900, 50, 0.06)
    loose = rate_period(weak, [(strong, 1)], tau=1.2)
    tight = rate_period(weak, [(strong, 1)], tau=0.3)
    assert loose.volatility > tight.volatility > 0.06


def test_a_score_other_than_win_draw_or_loss_is_refused():
    with pytest.raises(ValueError):
        rate_period(Glicko2Rating(), [(Glicko2Rating(), 0.7)])
