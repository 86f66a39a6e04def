"""Elimination brackets, round robins and free-for-all pods as plain data. Pure Python.

Brackets are lists of matches with ids, rounds, slots and sources ("seed 3", "winner of
M3", "loser of M5"), so a page can draw them and ``resolve`` can replay any set of
reported results, including a corrected one: matches whose players changed because of a
correction come back ``void``, and the corrected winner is routed onwards.

Elimination byes: the bracket is built at the next power of two and then simplified. A
first-round match against a missing seed is removed and the seed goes straight into the
next round (top seeds get the byes, because in the standard order seed s meets seed
size+1-s, which is missing for the top ``size - n`` seeds). The same simplification removes
losers'-bracket matches left with nobody on one side.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

PlayerId = Hashable


# --------------------------------------------------------------------------------------
# Elimination brackets


@dataclass(frozen=True)
class Source:
    kind: str  # "seed", "winner" or "loser"
    ref: Any  # the seed number (from 1) or a match id

    def __str__(self) -> str:
        return f"seed {self.ref}" if self.kind == "seed" else f"{self.kind} of {self.ref}"


@dataclass(frozen=True)
class BracketMatch:
    id: str
    #: "main" (single elimination), "third_place", "winners", "losers", "grand_final", "reset"
    bracket: str
    round: int
    #: Position in the full-size round (from 1), so byes leave gaps where a drawing expects.
    slot: int
    sources: tuple[Source, Source]
    #: Where the winner and the loser go next: (match id, side 0 or 1), or None.
    winner_to: tuple[str, int] | None = None
    loser_to: tuple[str, int] | None = None
    #: The bracket reset is only played if the losers'-bracket champion wins the grand final.
    conditional: bool = False

    @property
    def seeds(self) -> tuple[int | None, int | None]:
        return tuple(s.ref if s.kind == "seed" else None for s in self.sources)  # type: ignore[return-value]


@dataclass(frozen=True)
class Bracket:
    format: str  # "single_elimination" or "double_elimination"
    entrants: int
    size: int  # the power of two the bracket is drawn at
    matches: tuple[BracketMatch, ...]
    #: Seeds that skip the first round.
    byes: tuple[int, ...]

    def match(self, match_id: str) -> BracketMatch:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise KeyError(match_id)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form for pages and the API; sources read "seed 3", "winner of M5"."""
        return {
            "format": self.format,
            "entrants": self.entrants,
            "size": self.size,
            "byes": list(self.byes),
            "matches": [
                {
                    "id": m.id,
                    "bracket": m.bracket,
                    "round": m.round,
                    "slot": m.slot,
                    "sources": [str(s) for s in m.sources],
                    "seeds": list(m.seeds),
                    "winner_to": list(m.winner_to) if m.winner_to else None,
                    "loser_to": list(m.loser_to) if m.loser_to else None,
                    "conditional": m.conditional,
                }
                for m in self.matches
            ],
        }

    def rounds(self, bracket: str) -> list[list[BracketMatch]]:
        by_round: dict[int, list[BracketMatch]] = {}
        for m in self.matches:
            if m.bracket == bracket:
                by_round.setdefault(m.round, []).append(m)
        return [sorted(by_round[r], key=lambda m: m.slot) for r in sorted(by_round)]


def seeding_order(size: int) -> list[int]:
    """Standard bracket order: 1 v size, and the top seeds as far apart as possible.

    Built by doubling: each seed s in the order so far is followed by its partner
    (2 * len + 1 - s), so at every level the strongest remaining meet the weakest.
    For 8: [1, 8, 4, 5, 2, 7, 3, 6].
    """
    if size < 1 or size & (size - 1):
        raise ValueError("Bracket size must be a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


_EMPTY = Source("empty", None)


def _bracket_size(entrants: int) -> int:
    if entrants < 2:
        raise ValueError("An elimination bracket needs at least two entrants")
    size = 1
    while size < entrants:
        size *= 2
    return size


def _winners_rounds(size: int, out: list) -> list[list[str]]:
    """Append the winners' side (as raw matches) and return its keys round by round."""
    order = seeding_order(size)
    rounds: list[list[str]] = []
    previous: list[str] = []
    r = 1
    while size >> r >= 1:
        keys = []
        for slot in range(size >> r):
            key = f"W{r}.{slot}"
            if r == 1:
                sources = (Source("seed", order[2 * slot]), Source("seed", order[2 * slot + 1]))
            else:
                sources = (Source("winner", previous[2 * slot]), Source("winner", previous[2 * slot + 1]))
            out.append((key, "winners", r, slot + 1, sources, False))
            keys.append(key)
        rounds.append(keys)
        previous = keys
        r += 1
    return rounds


def _finish(fmt: str, entrants: int, size: int, raw: list) -> Bracket:
    """Drop structurally empty matches, number the rest M1.. and link winner/loser routes."""
    substitute: dict[str, Source] = {}
    kept = []
    for key, bracket, rnd, slot, sources, conditional in raw:
        resolved = []
        for s in sources:
            if s.kind == "seed" and s.ref > entrants:
                s = _EMPTY
            elif s.kind == "winner" and s.ref in substitute:
                s = substitute[s.ref]
            elif s.kind == "loser" and s.ref in substitute:
                s = _EMPTY  # a walkover has no loser
            resolved.append(s)
        empties = [s is _EMPTY for s in resolved]
        if all(empties):
            substitute[key] = _EMPTY
        elif any(empties):
            substitute[key] = resolved[1] if empties[0] else resolved[0]
        else:
            kept.append((key, bracket, rnd, slot, tuple(resolved), conditional))

    ids = {key: f"M{n}" for n, (key, *_rest) in enumerate(kept, start=1)}
    routes: dict[str, dict[str, tuple[str, int]]] = {key: {} for key in ids}
    for key, _b, _r, _s, sources, _c in kept:
        for side, s in enumerate(sources):
            if s.kind in ("winner", "loser"):
                routes[s.ref].setdefault(s.kind, (ids[key], side))
    matches = []
    for key, bracket, rnd, slot, sources, conditional in kept:
        matches.append(
            BracketMatch(
                id=ids[key],
                bracket=bracket,
                round=rnd,
                slot=slot,
                sources=tuple(Source(s.kind, ids[s.ref]) if s.kind != "seed" else s for s in sources),
                winner_to=routes[key].get("winner"),
                loser_to=routes[key].get("loser"),
                conditional=conditional,
            )
        )
    order = seeding_order(size)
    byes = tuple(sorted(order[2 * i + j] for i in range(size // 2) for j in (0, 1) if order[2 * i + 1 - j] > entrants))
    return Bracket(fmt, entrants, size, tuple(matches), byes)


def single_elimination(entrants: int, third_place: bool = False) -> Bracket:
    """Single elimination for seeds 1..entrants (1 strongest), byes to the top seeds."""
    size = _bracket_size(entrants)
    raw: list = []
    rounds = _winners_rounds(size, raw)
    raw = [(k, "main", r, s, src, c) for k, _b, r, s, src, c in raw]
    if third_place and len(rounds) >= 2:
        semis = rounds[-2]
        raw.insert(
            len(raw) - 1,
            ("3P", "third_place", len(rounds), 1, (Source("loser", semis[0]), Source("loser", semis[1])), False),
        )
    return _finish("single_elimination", entrants, size, raw)


def dropin_order(matches: int, drop_round: int) -> list[int]:
    """Which losers'-bracket slot the loser of each winners' match drops into.

    Cycles through three placements, one per drop-in round: the whole order reversed,
    the two halves swapped, then each half reversed. Each sends the dropped players to
    the side of the losers' bracket fed by the far half of the winners' bracket, so their
    new opponents come from paths that never crossed theirs. Straight order would give a
    possible rematch in every match of the second drop-in round; with this cycle brackets
    of up to 128 have none before the last five losers' rounds (see the tests).
    """
    half = matches // 2
    if drop_round % 3 == 1 or matches < 2:
        return [matches - 1 - i for i in range(matches)]
    if drop_round % 3 == 2:
        return [(i + half) % matches for i in range(matches)]
    return [half - 1 - i if i < half else matches - 1 - (i - half) for i in range(matches)]


def double_elimination(entrants: int, bracket_reset: bool = True) -> Bracket:
    """Double elimination: winners' and losers' brackets, grand final, optional reset.

    Losers' round 1 pairs the first-round losers; then the losers' rounds alternate
    between a drop-in round (survivors meet the next winners' round's losers, placed by
    ``dropin_order``) and an internal round (survivors meet each other).
    """
    size = _bracket_size(entrants)
    raw: list = []
    w = _winners_rounds(size, raw)
    k = len(w)
    lb_round = 0
    survivors: list[Source] = []
    if k >= 2:
        lb_round = 1
        keys = []
        for slot in range(size // 4):
            key = f"L1.{slot}"
            sources = (Source("loser", w[0][2 * slot]), Source("loser", w[0][2 * slot + 1]))
            raw.append((key, "losers", 1, slot + 1, sources, False))
            keys.append(key)
        survivors = [Source("winner", key) for key in keys]
        for j in range(1, k):
            # Drop-in round: survivors against the losers of winners' round j + 1.
            lb_round += 1
            dropping = w[j]
            placement = dropin_order(len(dropping), j)
            slot_of = {placement[i]: i for i in range(len(dropping))}
            keys = []
            for slot in range(len(dropping)):
                key = f"L{lb_round}.{slot}"
                sources = (survivors[slot], Source("loser", dropping[slot_of[slot]]))
                raw.append((key, "losers", lb_round, slot + 1, sources, False))
                keys.append(key)
            survivors = [Source("winner", key) for key in keys]
            if j < k - 1:
                lb_round += 1
                keys = []
                for slot in range(len(survivors) // 2):
                    key = f"L{lb_round}.{slot}"
                    raw.append(
                        (key, "losers", lb_round, slot + 1, (survivors[2 * slot], survivors[2 * slot + 1]), False)
                    )
                    keys.append(key)
                survivors = [Source("winner", key) for key in keys]
        lb_champion = survivors[0]
    else:
        lb_champion = Source("loser", w[-1][0])
    wb_final = w[-1][0]
    raw.append(("GF", "grand_final", 1, 1, (Source("winner", wb_final), lb_champion), False))
    if bracket_reset:
        raw.append(("GF2", "reset", 2, 1, (Source("winner", "GF"), Source("loser", "GF")), True))
    return _finish("double_elimination", entrants, size, raw)


@dataclass(frozen=True)
class MatchState:
    players: tuple[Any, Any]  # None where not known yet
    status: str  # "waiting", "ready", "done", "void", "not_needed"
    winner: Any = None
    loser: Any = None


def resolve(
    bracket: Bracket,
    seeds: Sequence[PlayerId],
    results: Mapping[str, tuple[PlayerId, PlayerId]],
) -> dict[str, MatchState]:
    """Replay results through the bracket.

    ``seeds`` lists players by seed (seeds[0] is seed 1). ``results`` maps a match id to
    (winner, loser) as it was played. A result stands only if those two are exactly the
    match's players now; after a correction upstream, a match whose players changed comes
    back ``void`` and everything after it waits for a new result. A reset whose grand
    final was won by the winners'-bracket champion is ``not_needed``.
    """
    if len(seeds) != bracket.entrants:
        raise ValueError(f"Expected {bracket.entrants} seeded players, got {len(seeds)}")
    state: dict[str, MatchState] = {}
    for m in bracket.matches:
        players = tuple(_source_player(s, seeds, state) for s in m.sources)
        if m.conditional:
            final = state[m.sources[0].ref]
            wb_side = bracket.match(m.sources[0].ref).sources[0]
            if final.status == "done" and final.winner == _source_player(wb_side, seeds, state):
                state[m.id] = MatchState(players, "not_needed")
                continue
        result = results.get(m.id)
        if None in players:
            state[m.id] = MatchState(players, "void" if result else "waiting")
        elif result is None:
            state[m.id] = MatchState(players, "ready")
        elif set(result) == set(players) and result[0] != result[1]:
            state[m.id] = MatchState(players, "done", result[0], result[1])
        else:
            state[m.id] = MatchState(players, "void")
    return state


def _source_player(source: Source, seeds: Sequence[PlayerId], state: Mapping[str, MatchState]):
    if source.kind == "seed":
        return seeds[source.ref - 1]
    done = state.get(source.ref)
    if done is None or done.status != "done":
        return None
    return done.winner if source.kind == "winner" else done.loser


def decided(bracket: Bracket, state: Mapping[str, MatchState]) -> bool:
    """Whether the bracket is over: a champion, and no match left to play.

    A champion alone is not enough: the third-place match is played after the final
    may be, and until it is the places of the semi-final losers are not known.
    """
    if champion(bracket, state) is None:
        return False
    return all(state[m.id].status in ("done", "not_needed") for m in bracket.matches)


def separate_groups(
    bracket: Bracket, seeds: Sequence[PlayerId], group_of: Mapping[PlayerId, Any], tiers: Sequence[int]
) -> list[PlayerId]:
    """Re-seed a playoff so that no first-round match pits two players of one group.

    ``seeds`` is the playoff order (group winners first, then runners-up, ...); ``tiers``
    gives the length of each block of seeds that may be reordered among itself (the
    players who finished on the same place of their groups). Seeds keep their block, so a
    group winner is never moved below a runner-up; within a block the order closest to
    the given one (first difference as late as possible) that separates the groups is
    taken. When no such order exists the given seeds come back unchanged.
    """
    seeds = list(seeds)
    opponent: dict[int, int] = {}
    for m in bracket.matches:
        a, b = m.sources
        if a.kind == "seed" and b.kind == "seed":
            opponent[a.ref - 1] = b.ref - 1
            opponent[b.ref - 1] = a.ref - 1
    block_of: list[int] = []
    for k, size in enumerate(tiers):
        block_of += [k] * size
    if len(block_of) != len(seeds):
        raise ValueError("The tiers must cover every seed")
    starts = [sum(tiers[:k]) for k in range(len(tiers))]
    # Depth-first search, written as a loop (a thousand seeds would overflow recursion):
    # ``tried[k]`` is the index in its block of the candidate now at position k.
    n = len(seeds)
    chosen: list[PlayerId | None] = [None] * n
    tried = [-1] * n
    used: set = set()
    position = 0
    while 0 <= position < n:
        block = block_of[position]
        pool = seeds[starts[block] : starts[block] + tiers[block]]
        if chosen[position] is not None:
            used.discard(chosen[position])
            chosen[position] = None
        other = opponent.get(position)
        nxt = tried[position] + 1
        while nxt < len(pool):
            candidate = pool[nxt]
            if candidate not in used and not (
                other is not None and other < position and group_of[chosen[other]] == group_of[candidate]
            ):
                break
            nxt += 1
        if nxt < len(pool):
            tried[position] = nxt
            chosen[position] = pool[nxt]
            used.add(pool[nxt])
            position += 1
        else:
            tried[position] = -1
            position -= 1
    return list(chosen) if position == n else seeds


def from_shape(shape: Mapping) -> Bracket:
    """The bracket a stored shape describes: ``{"format", "entrants"}`` plus ``third_place``
    (single elimination) or ``bracket_reset`` (double elimination)."""
    if shape["format"] == "double_elimination":
        return double_elimination(shape["entrants"], bracket_reset=shape.get("bracket_reset", True))
    return single_elimination(shape["entrants"], third_place=shape.get("third_place", False))


def champion(bracket: Bracket, state: Mapping[str, MatchState]) -> PlayerId | None:
    """The winner of the last match that decides the event, once it is decided."""
    if bracket.format == "double_elimination":
        reset = next((m for m in bracket.matches if m.bracket == "reset"), None)
        final = next(m for m in bracket.matches if m.bracket == "grand_final")
        if reset is not None and state[reset.id].status != "not_needed":
            return state[reset.id].winner
        return state[final.id].winner
    final = [m for m in bracket.matches if m.bracket == "main"][-1]
    return state[final.id].winner


# --------------------------------------------------------------------------------------
# Round robin


@dataclass(frozen=True)
class Fixture:
    home: PlayerId
    away: PlayerId


@dataclass(frozen=True)
class RoundRobinRound:
    number: int
    fixtures: tuple[Fixture, ...]
    bye: PlayerId | None = None


def round_robin(players: Sequence[PlayerId], double: bool = False) -> list[RoundRobinRound]:
    """Circle method: n-1 rounds for even n, n rounds with one bye each for odd n.

    Home and away: the fixed player alternates by round and every other pair gives home
    to the player on the upper half of the circle. As the circle turns, each rotating
    player moves down one place per round and spends half its rounds on each half, so
    every player's home and away counts differ by at most one. A double round robin
    repeats the schedule with home and away swapped, so each pair meets once each way.
    """
    ids: list[Any] = list(players)
    if len(ids) < 2:
        raise ValueError("A round robin needs at least two players")
    if len(set(ids)) != len(ids):
        raise ValueError("Player ids must be unique")
    if len(ids) % 2:
        ids.append(None)  # whoever meets None has the bye
    m = len(ids)
    circle = ids[:]
    rounds: list[RoundRobinRound] = []
    for r in range(m - 1):
        fixtures, bye = [], None
        for i in range(m // 2):
            a, b = circle[i], circle[m - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a
            if a is None or b is None:
                bye = b if a is None else a
                continue
            fixtures.append(Fixture(a, b))
        rounds.append(RoundRobinRound(r + 1, tuple(fixtures), bye))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    if double:
        rounds += [
            RoundRobinRound(len(rounds) + rr.number, tuple(Fixture(f.away, f.home) for f in rr.fixtures), rr.bye)
            for rr in rounds
        ]
    return rounds


# --------------------------------------------------------------------------------------
# Free-for-all pods (three to five players per game)


def pod_sizes(players: int, preferred: int = 4, smallest: int = 3, largest: int = 5) -> list[int]:
    """Split ``players`` into pods: as many of the preferred size as possible, then the
    fewest other pods, smaller ones preferred over larger ones. Largest pods first.

    10 players at 4 -> [4, 3, 3]; 9 -> [5, 4]; 6 -> [3, 3]; 5 -> [5].
    """
    if not smallest <= preferred <= largest:
        raise ValueError("Need smallest <= preferred <= largest")
    if players < smallest:
        raise ValueError(f"At least {smallest} players are needed for a pod")
    best = None
    for count in range(players // preferred, -1, -1):
        rest = players - count * preferred
        split = _fewest_pods(rest, smallest, largest, preferred)
        if split is not None:
            best = [preferred] * count + split
            break
    if best is None:
        raise ValueError(f"{players} players cannot be split into pods of {smallest}-{largest}")
    return sorted(best, reverse=True)


def _fewest_pods(rest: int, smallest: int, largest: int, preferred: int) -> list[int] | None:
    if rest == 0:
        return []
    sizes = [s for s in range(smallest, largest + 1) if s != preferred]
    for count in range(1, rest // smallest + 1):
        # Smaller pods first: among splits into ``count`` pods, the one whose pods are
        # smallest in lexicographic order (fewest seats above the preferred size).
        for combo in itertools.combinations_with_replacement(sizes, count):
            if sum(combo) == rest:
                return list(combo)
    return None


def seat_pods(
    ranked: Sequence[PlayerId],
    met: Iterable[tuple[PlayerId, PlayerId]] = (),
    preferred: int = 4,
    smallest: int = 3,
    largest: int = 5,
    restarts: int = 30,
) -> list[list[PlayerId]]:
    """Seat players (in standings order) into pods, avoiding pairs who already met.

    Starts from pods cut in standings order (leaders together, as a Swiss would), then
    swaps players between pods while a swap lowers the number of repeat pairs, or keeps
    it and brings pods closer to standings order. Swaps are tried in a fixed order and
    only strict improvements are taken, so the search ends. If repeats remain, it restarts
    from up to ``restarts`` shuffled seatings drawn from a fixed-seed generator and keeps
    the best, so the result is still deterministic. It is a heuristic (the exact problem
    is a hard partitioning problem): a repeat-free seating is not always found when one
    exists, but the result is never worse than the seating in standings order.
    """
    ranked = list(ranked)
    if len(set(ranked)) != len(ranked):
        raise ValueError("Player ids must be unique")
    met_pairs = {frozenset(pair) for pair in met if len(set(pair)) == 2}
    sizes = pod_sizes(len(ranked), preferred, smallest, largest)
    pods: list[list[int]] = []
    start = 0
    for size in sizes:
        pods.append(list(range(start, start + size)))
        start += size

    def repeats(members: list[int]) -> int:
        return sum(1 for a, b in itertools.combinations(members, 2) if frozenset((ranked[a], ranked[b])) in met_pairs)

    def spread(members: list[int]) -> int:
        return max(members) - min(members)

    def cost(members: list[int]) -> tuple[int, int]:
        return repeats(members), spread(members)

    def descend(pods: list[list[int]]) -> list[list[int]]:
        costs = [cost(p) for p in pods]
        improved = True
        while improved:
            improved = False
            for i, j in itertools.combinations(range(len(pods)), 2):
                for x in range(len(pods[i])):
                    for y in range(len(pods[j])):
                        a, b = pods[i][x], pods[j][y]
                        new_i = pods[i][:x] + [b] + pods[i][x + 1 :]
                        new_j = pods[j][:y] + [a] + pods[j][y + 1 :]
                        ci, cj = cost(new_i), cost(new_j)
                        before = (costs[i][0] + costs[j][0], costs[i][1] + costs[j][1])
                        after = (ci[0] + cj[0], ci[1] + cj[1])
                        if after < before:
                            pods[i], pods[j] = new_i, new_j
                            costs[i], costs[j] = ci, cj
                            improved = True
        return pods

    def total(pods: list[list[int]]) -> tuple[int, int]:
        return tuple(map(sum, zip(*(cost(p) for p in pods))))  # type: ignore[return-value]

    best = descend(pods)
    # Swaps alone can stall with repeats left (late rounds of a small field). Restart
    # from shuffled seatings drawn from a fixed-seed generator, so the answer is still the
    # same in every process, and keep the best seating found.
    shuffler = random.Random(len(ranked))
    for _ in range(restarts):
        if total(best)[0] == 0:
            break
        order = list(range(len(ranked)))
        shuffler.shuffle(order)
        start = 0
        trial = []
        for size in sizes:
            trial.append(order[start : start + size])
            start += size
        trial = descend(trial)
        if total(trial) < total(best):
            best = trial
    return [[ranked[k] for k in sorted(p)] for p in best]


def repeat_pairs(pods: Iterable[Sequence[PlayerId]], met: Iterable[tuple[PlayerId, PlayerId]]) -> int:
    """How many pairs seated together have met before."""
    met_pairs = {frozenset(pair) for pair in met}
    return sum(1 for pod in pods for a, b in itertools.combinations(pod, 2) if frozenset((a, b)) in met_pairs)


def placement_points(finish: Sequence[Sequence[PlayerId]], points: Sequence[Any]) -> dict[PlayerId, Fraction]:
    """Points for one pod's finish. ``finish`` lists places best first, each a list of
    the players tied there; tied players share the points of the places they cover.

    With points [3, 2, 1, 0] and finish [[a], [b, c], [d]]: a 3, b and c (2+1)/2 = 3/2
    each, d 0. Places beyond the table are worth 0. Fractions keep halves and thirds exact.
    """
    table = [Fraction(p) if not isinstance(p, float) else Fraction(repr(p)) for p in points]
    awarded: dict[PlayerId, Fraction] = {}
    place = 0
    for tied in finish:
        tied = list(tied)
        if not tied:
            raise ValueError("An empty place in the finish")
        covered = table[place : place + len(tied)]
        share = sum(covered, Fraction(0)) / len(tied)
        for player in tied:
            if player in awarded:
                raise ValueError(f"{player!r} is placed twice")
            awarded[player] = share
        place += len(tied)
    return awarded
