"""Glicko-2, written from Mark Glickman, "Example of the Glicko-2 system" (Boston
University, 2013 revision), steps 1-8. Pure Python.

Rating period. Glicko-2 updates a player once per rating period from all the games of
that period. ``rate_period`` is that general step. The league ledger uses one rating period
per verified result (``rate_game``): results reach the platform one at a time from the
event store, and a rating chart needs a point after every match. Both players are updated
from their ratings before the match, as the paper requires within a period. Between
results there is no time-based RD inflation (a player who sits out keeps their RD): a
rebuild must not depend on wall-clock time, only on the results and their order.

Numbers: floats in a fixed order of operations (opponents are summed in the order given),
so the same inputs give bit-identical outputs on every run.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glickman's conversion factor between the Glicko and Glicko-2 scales (400 / ln 10).
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5
#: Convergence tolerance for the volatility iteration (the paper's epsilon).
EPSILON = 0.000001


@dataclass(frozen=True)
class Glicko2Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def deviation(self) -> float:
        return self.rd

    @property
    def conservative(self) -> float:
        """rating - 2 RD: the leaderboard's sort key (about 95% sure the player is better)."""
        return self.rating - 2 * self.rd


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the Illinois algorithm (regula falsi with halving) on f(x) = 0."""
    a = math.log(sigma * sigma)
    delta2, phi2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate_period(
    player: Glicko2Rating,
    games: Sequence[tuple[Glicko2Rating, float]],
    *,
    tau: float = DEFAULT_TAU,
) -> Glicko2Rating:
    """One rating period for ``player`` from (opponent's rating before the period, score)
    pairs, score 1 for a win, 0.5 for a draw, 0 for a loss. No games: only RD grows."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Glicko2Rating(float(player.rating), phi_star * SCALE, sigma)
    # Steps 3 and 4: estimated variance v and improvement delta.
    v_inv = 0.0
    total = 0.0
    for opponent, score in games:
        if score not in (0, 0.5, 1):
            raise ValueError(f"A score is 0, 0.5 or 1, not {score!r}")
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.rd / SCALE
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    # Steps 5-7.
    sigma_new = _new_volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    # Step 8: back to the Glicko scale.
    return Glicko2Rating(SCALE * mu_new + DEFAULT_RATING, SCALE * phi_new, sigma_new)


def rate_game(
    a: Glicko2Rating, b: Glicko2Rating, score_a: float, *, tau: float = DEFAULT_TAU
) -> tuple[Glicko2Rating, Glicko2Rating]:
    """One game as its own rating period: both players updated from the pre-game ratings."""
    return rate_period(a, [(b, score_a)], tau=tau), rate_period(b, [(a, 1 - score_a)], tau=tau)
