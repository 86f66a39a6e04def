"""Small builders shared by the standings tests."""

from league.seasons.table import Result, standings


def win(winner, loser, left, *, home=True, round=0):
    """A Wizard Dodgeball win: the winner has ``left`` wizards on court, the loser none."""
    if home:
        return Result(winner, loser, left, 0, round=round)
    return Result(loser, winner, 0, left, round=round)


def order(rows):
    return [r.club for r in rows]


def labels(rows):
    return {r.club: r.tiebreak for r in rows}


def ranked_table(clubs, **kwargs):
    """A table in exactly the order of ``clubs``: each club beats every club listed after it."""
    results = [win(a, b, 1) for i, a in enumerate(clubs) for b in clubs[i + 1 :]]
    return standings(clubs, results, **kwargs)
