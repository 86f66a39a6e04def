"""Swiss pairing by minimum-cost perfect matching.

Pure Python (networkx for the matching, nothing from Django), so the tournament app can
call it from a projection of its event stream, a worker or a test and always get the
same pairing for the same players.

How a round is paired
---------------------
Every possible pairing of two players gets a cost made of tiers, compared strictly in
this order (a higher tier always outweighs any sum of lower ones):

1. ``rematch``   how many times the two have already met. Nothing else can buy a rematch,
                 so one is produced only when no rematch-free pairing of the field exists,
                 and then the fewest.
2. ``forbidden`` the organiser's forbidden pairs and, unless switched off, players of the
                 same club. Treated like a rematch, one step below it.
3. ``bye``       (only on the edges to the bye) how many bye-eligible players rank below
                 the one who would get it, so the bye goes to the lowest-ranked eligible
                 player (lowest score, then lowest rating, then latest seed) unless that
                 would force a rematch or a forbidden pairing.
4. ``seat_limit`` (strict seats only) both players must take the same seat: one of them
                 would sit there a third time running or go three seats out of balance.
                 This is FIDE's absolute colour criterion, below the bye and above scores.
5. ``score``     the squared score difference, so the matching prefers two floats of one
                 half point over one float of a whole point, and pairs within score groups
                 whenever it can. Without strict seats, a seat-limit clash is added here,
                 costing as much as ``SEAT_CLASH`` whole-point floats: enough that the
                 matching swaps partners inside and across neighbouring score groups
                 rather than seat a player on the same side a third time, without ever
                 letting seats decide who meets whom across several points.
6. ``colour``    both players want the same seat; costs the strength of the weaker wish.
7. ``dutch``     distance from the Dutch ideal: within a score group of size g the player
                 at position i meets the one at i + g//2 (top half against bottom half);
                 across groups the lowest of the higher group meets the highest of the
                 lower one.
8. ``exchange``  a pair inside one score group whose two players are both in its top half
                 or both in its bottom half. Only breaks ties of all the tiers above, the
                 way FIDE's Dutch rules try every transposition of the bottom half before
                 exchanging players between the halves: of 1-4, 2-3 and 1-2, 3-4 (equally
                 far from the ideal 1-3, 2-4) it takes the first. Without it the tie went
                 whichever way the matching algorithm happened to find first.

The tiers are folded into one integer per edge (see ``_fold``) and the graph goes to a
maximum-weight perfect matching on ``top - cost`` (``blossom.perfect_matching``, written
for this module; ``SwissOptions(prune=False)`` still uses networkx's
``max_weight_matching(maxcardinality=True)`` on the complete graph, as before, and the
tests compare the two). Every matching compared is perfect, so all have the same number of
edges and maximising ``top - cost`` is minimising the total cost. Integer weights keep the
blossom algorithm exact.

When the field is odd a ``BYE`` vertex joins the graph, linked only to players who may
still receive a bye (fewer than ``max_byes``). If nobody may, it is linked to the players
with the fewest byes, because a round must still be paired.

Scale: why large fields are split, and why that never buys an avoidable rematch
-------------------------------------------------------------------------------
A blossom algorithm in pure Python is roughly O(V * E) per run here, and even building
the complete graph of 2,000 players is 2M edges (networkx did not finish it in minutes). So above ``exact_limit`` players the
field is cut into *segments* of about ``segment_size`` players that follow the score
groups: small groups are merged with the next ones, and a large group is cut into chunks
that each take a slice of its top half together with the matching slice of its bottom half,
so every Dutch ideal partner stays in the same chunk. Segments are paired top-down on
their complete graphs; an odd segment hands one player down (a ``FLOAT`` vertex, cheapest
for the lowest-ranked) to the next segment, and the last segment owns the bye.

Segmenting can only lose optimality in the lower tiers. For the two hard tiers the rule is
simple: a segmented pairing is accepted only if it has no rematch and no forbidden pair at
all, which is then also the global optimum for those tiers. Otherwise the segment size is
doubled and the round paired again, and the last resort is the complete graph of the whole
field, which is exact. With strict seats the seat-limit tier is hard too and is held to
the same rule: a segmented pairing with a seat-limit clash is not accepted. So the result never contains a rematch (or forbidden pair) that a
pairing of the whole field could have avoided. The cost is that a truly unavoidable
rematch or forbidden pair in a huge field is slow to confirm (it ends on the complete
graph); in a real Swiss, with far fewer rounds than players and no club holding half the
field, that does not happen. Measured on the benchmark's round 5 (a 500-player field):
the complete graph takes about 40 s (networkx), the segments 0.3 s, with the same score-difference
cost; see benchmarks/bench_swiss.py.

Colours across segments: a large score group is cut into chunks that are paired apart, so
a chunk with more players due the first seat than the second must pair some of them
together even when the next chunk has the opposite surplus; on the benchmark's 1,000-player
round 5 that doubled the colour cost of the complete graph's pairing (44 against 22). So a
segmented pairing is repaired in two steps (``_repair_colours``). First opponents are
exchanged between two pairs that share a score group wherever that lowers the colour cost
(``_swap_colours``); that is cheap and does most of it. Then the pairs that still cost
colours or cross score groups, with their neighbours', are paired again together on their
complete graph (``_repair_knots``), which finds the chains of floats that move a surplus
from one score group to the next. Neither step lets the total rise in the cost order, nor
any tier above colour, so the rule above still holds. That round now costs 22; the colours
are paid for in the Dutch tier, as on the complete graph, though more (1,257 against 837).

Sparse graphs: every matching, exact or of a segment, is first sought on a few edges per
player (its cheapest partners, its cheapest few of another score, its first few of each
class of the colour and higher tiers, and a greedy perfect matching's) with the complete
graph's own folded weights. Only the edges inside a score group and to the next group or
two are weighed for that. The matcher returns its dual solution; when no left-out edge has
negative slack under it, the matching is optimal on the complete graph too (LP duality of
Edmonds' matching polytope), at the same cost in every tier. An edge between groups
further apart is bounded by its score tier, so only a player whose dual fails that bound
has its edges into such a group weighed. Left-out edges of negative slack are added and
the graph solved again (``_match_pruned``).
``SwissOptions(prune=False)`` keeps the complete-graph path for the tests that compare them.

Determinism: players are ranked by (score, rating, seed, id) and given integer vertices in that
order; edges are added in that order and the matching is read back sorted. No set or hash
order decides anything, so the same players give the same pairing in every process.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Rational
from typing import Any

import networkx as nx

from league.tournaments.blossom import perfect_matching

PlayerId = Hashable

#: Tier names in decreasing priority (also the keys of ``Pairing.costs``).
TIERS = ("rematch", "forbidden", "bye", "seat_limit", "score", "colour", "dutch", "exchange")

# Colour wish strengths. An absolute wish (three in a row or a balance of two) outweighs a
# strong one (balance of one), which outweighs a mild one (alternate from last time).
MILD, STRONG, ABSOLUTE = 1, 2, 3

#: Without strict seats, a clash of two absolute seat wishes costs as much in the score
#: tier as this many floats of a whole point each.
SEAT_CLASH = 3


class PairingError(ValueError):
    """The input cannot be paired (duplicate ids, ids of mixed types, too few players)."""


@dataclass(frozen=True)
class SwissPlayer:
    """One player present for the round, as the caller's projection sees them.

    ``opponents`` holds one entry per game played (a repeated id means they met twice);
    byes are not opponents. ``first_seats`` holds one entry per game played, in round
    order: True when the player sat first (white), False when second. ``seed``: the
    player's start number among equals (a tournament's entry order), which ranks players of
    equal score and rating before the id does: ids need not sort as people entered (a
    tournament's are user ids as text, and "99" sorts after "100").
    """

    id: PlayerId
    score: Any = 0
    rating: float = 0
    opponents: tuple = ()
    first_seats: tuple = ()
    byes: int = 0
    club: str | None = None
    forbidden: frozenset = frozenset()
    seed: int = 0


@dataclass(frozen=True)
class SwissOptions:
    #: What the bye is worth; reported on the round for the caller to credit.
    bye_score: Fraction = Fraction(1)
    #: Extra pairs the organiser has forbidden, as (id, id) in either order.
    forbidden_pairs: tuple = ()
    avoid_same_club: bool = True
    max_byes: int = 1
    #: Fields up to this size are paired on one complete graph (exact).
    exact_limit: int = 100
    #: Target segment size above ``exact_limit`` (see the module notes on scale).
    segment_size: int = 64
    #: FIDE's colour limits as a hard rule: two players who must both take the same seat
    #: (three in a row, or a balance beyond two) do not meet unless only a rematch, a
    #: forbidden pair or a second bye would avoid it. Off: such a clash is weighed
    #: against score groups instead (see ``SEAT_CLASH``).
    strict_seats: bool = False
    #: Seek each matching on the cheap edges first and keep it only with a proof that it
    #: is optimal on the complete graph (see ``_match_pruned``). False pairs on complete
    #: graphs with networkx, as before; the pruned result costs the same in every tier,
    #: so this is for the tests and the benchmark that compare the two.
    prune: bool = True


@dataclass(frozen=True)
class Pairing:
    board: int
    first: PlayerId
    second: PlayerId | None  # None: this is the bye
    #: Times the two had already met before this round (0 for a fresh pairing).
    rematch: int = 0
    forbidden: bool = False

    @property
    def is_bye(self) -> bool:
        return self.second is None


@dataclass(frozen=True)
class SwissRound:
    pairings: tuple[Pairing, ...]
    bye: PlayerId | None
    bye_score: Fraction
    rematches: int
    forbidden: int
    #: How the round was solved: "exact" or "segmented:<size>", kept for the audit log.
    method: str
    #: Byes given to a player who already had ``max_byes`` (only when nobody else could).
    extra_byes: int = 0
    #: Total cost per tier (see ``TIERS``) of the chosen pairing, for audits and tests.
    costs: dict = field(default_factory=dict)

    def opponent_of(self, player: PlayerId) -> PlayerId | None:
        for p in self.pairings:
            if p.first == player:
                return p.second
            if p.second == player:
                return p.first
        raise KeyError(player)


def as_fraction(value: Any) -> Fraction:
    """Exact score: floats go through their shortest repr so 0.5 and 1.5 stay halves."""
    if type(value) is Fraction:
        # Immutable, so the value itself will do; the common case of a ranked field, and
        # the isinstance check against the Rational ABC below is slow.
        return value
    if type(value) is int:
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(repr(value))
    if isinstance(value, (Rational, int)):
        return Fraction(value)
    return Fraction(str(value))


def colour_wish(first_seats: Sequence[bool]) -> tuple[int, int]:
    """(side, strength): side +1 wants to sit first, -1 second, 0 no wish."""
    if not first_seats:
        return 0, 0
    balance = sum(1 if f else -1 for f in first_seats)
    last = first_seats[-1]
    twice_running = len(first_seats) >= 2 and first_seats[-1] == first_seats[-2]
    if balance <= -2 or (twice_running and not last):
        return 1, ABSOLUTE
    if balance >= 2 or (twice_running and last):
        return -1, ABSOLUTE
    if balance == -1:
        return 1, STRONG
    if balance == 1:
        return -1, STRONG
    return (-1 if last else 1), MILD


def seat_limit_clash(a: Sequence[bool], b: Sequence[bool]) -> int:
    """1 when both players have an absolute wish for the same seat: whoever gives way sits
    there a third time running or goes three out of balance (FIDE's colour limits)."""
    return _wishes_clash(colour_wish(a), colour_wish(b))


def colour_conflict(a: Sequence[bool], b: Sequence[bool]) -> int:
    return _wishes_conflict(colour_wish(a), colour_wish(b))


def _wishes_clash(wish_a: tuple[int, int], wish_b: tuple[int, int]) -> int:
    side_a, strength_a = wish_a
    side_b, strength_b = wish_b
    return int(side_a != 0 and side_a == side_b and strength_a == strength_b == ABSOLUTE)


def _wishes_conflict(wish_a: tuple[int, int], wish_b: tuple[int, int]) -> int:
    side_a, strength_a = wish_a
    side_b, strength_b = wish_b
    if side_a == 0 or side_a != side_b:
        return 0
    # The weaker wish is the one that gives way; two absolute wishes are worse still,
    # because someone then sits on the same side a third time.
    return min(strength_a, strength_b) + (1 if strength_a == strength_b == ABSOLUTE else 0)


def first_seat(higher: SwissPlayer, lower: SwissPlayer, board: int = 1) -> tuple[SwissPlayer, SwissPlayer]:
    """Who sits first, following FIDE's colour allocation rules (C.04.3 E):

    1. both wishes granted when they differ;
    2. otherwise the stronger wish (absolute over strong over mild); of two absolute wishes,
       the one further out of balance;
    3. otherwise alternate from the most recent round in which their seats differed;
    4. otherwise the higher-ranked player's wish;
    5. and with no wish at all (round 1, or two newcomers), the first seat alternates by
       board: the higher-ranked player sits first on odd boards, the lower-ranked on even
       ones, so the strongest half of the field does not take the first seat on every board.
    """
    side_h, strength_h = colour_wish(higher.first_seats)
    side_l, strength_l = colour_wish(lower.first_seats)

    def grant(player: SwissPlayer, side: int) -> tuple[SwissPlayer, SwissPlayer]:
        other = lower if player is higher else higher
        return (player, other) if side > 0 else (other, player)

    if side_h and side_l and side_h != side_l:
        return grant(higher, side_h)
    if side_h and not side_l:
        return grant(higher, side_h)
    if side_l and not side_h:
        return grant(lower, side_l)
    if side_h:  # both wish for the same seat
        if strength_h != strength_l:
            return grant(higher, side_h) if strength_h > strength_l else grant(lower, side_l)
        if strength_h == ABSOLUTE:
            bal_h = abs(sum(1 if f else -1 for f in higher.first_seats))
            bal_l = abs(sum(1 if f else -1 for f in lower.first_seats))
            if bal_h != bal_l:
                return grant(higher, side_h) if bal_h > bal_l else grant(lower, side_l)
        for fh, fl in zip(reversed(higher.first_seats), reversed(lower.first_seats)):
            if fh != fl:
                return (lower, higher) if fh else (higher, lower)
        return grant(higher, side_h)
    return (higher, lower) if board % 2 else (lower, higher)


def start_order(players: Iterable[tuple[PlayerId, Any, int]]) -> list[PlayerId]:
    """Start numbers: ``(id, rating, seed)`` triples in the order the pairing ranks players
    of equal score (higher rating first, then seed, then id), so start number 1 is who the
    pairing treats as the strongest on an empty score sheet."""
    return [p[0] for p in sorted(players, key=lambda p: (-as_fraction(p[1] or 0), p[2], p[0]))]


def rank_key(player: SwissPlayer):
    # Higher score first, then higher rating, then seed and id, so that ties never depend on
    # the order the caller happened to pass the players in.
    return (-as_fraction(player.score), -as_fraction(player.rating or 0), player.seed, player.id)


# --------------------------------------------------------------------------------------
# The field: everything the cost function needs, indexed by rank position.


BYE = "bye"
FLOAT = "float"


@dataclass
class _Field:
    players: list[SwissPlayer]  # in rank order; vertex i is players[i]
    units: list[int]  # score in integer units (all scores times a common denominator)
    group: list[int]  # index of the player's score group
    pos: list[int]  # position inside the score group
    group_size: list[int]  # size of each score group
    met: list[Counter]
    forbidden: list[frozenset]  # rank indices this player must not meet
    bye_ok: list[bool]
    bye_below: list[int]  # bye-eligible players ranked below this one
    extra_bye: bool  # nobody was eligible, so the fewest-byes players were let in
    unit: int = 1  # score units in one point (the common denominator of the scores)
    strict_seats: bool = False
    # Each player's colour wish, worked out once: every edge of the graph needs two.
    wish: list[tuple[int, int]] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.players)


def _build_field(players: Iterable[SwissPlayer], options: SwissOptions) -> _Field:
    players = list(players)
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        dup = sorted(i for i, c in Counter(ids).items() if c > 1)
        raise PairingError(f"Player ids must be unique; repeated: {dup}")
    scores = [as_fraction(p.score) for p in players]
    denominator = math.lcm(*(s.denominator for s in scores)) if scores else 1
    score_units = [s.numerator * (denominator // s.denominator) for s in scores]
    # rank_key's order, on exact integers where it can: Fractions compare through the
    # numbers ABCs, and sorting a field by them cost more than its pairing's matching.
    ratings = [p.rating if type(p.rating) is int else as_fraction(p.rating or 0) for p in players]
    try:
        order = sorted(
            range(len(players)), key=lambda i: (-score_units[i], -ratings[i], players[i].seed, players[i].id)
        )
    except TypeError as exc:
        raise PairingError("Player ids must all be of one orderable type") from exc
    ranked = [players[i] for i in order]
    units = [score_units[i] for i in order]
    index = {p.id: i for i, p in enumerate(ranked)}

    group, pos, group_size = [], [], []
    for i, u in enumerate(units):
        if i == 0 or u != units[i - 1]:
            group_size.append(0)
        group.append(len(group_size) - 1)
        pos.append(group_size[-1])
        group_size[-1] += 1

    met = [Counter(index[o] for o in p.opponents if o in index) for p in ranked]

    forbidden_sets: list[set[int]] = [set() for _ in ranked]
    for i, p in enumerate(ranked):
        for other in p.forbidden:
            if other in index:
                forbidden_sets[i].add(index[other])
                forbidden_sets[index[other]].add(i)
    for a, b in options.forbidden_pairs:
        if a in index and b in index:
            forbidden_sets[index[a]].add(index[b])
            forbidden_sets[index[b]].add(index[a])
    if options.avoid_same_club:
        by_club: dict[str, list[int]] = {}
        for i, p in enumerate(ranked):
            if p.club:
                by_club.setdefault(p.club, []).append(i)
        for members in by_club.values():
            for i in members:
                forbidden_sets[i].update(j for j in members if j != i)

    fewest = min((p.byes for p in ranked), default=0)
    extra_bye = fewest >= options.max_byes
    limit = fewest + 1 if extra_bye else options.max_byes
    bye_ok = [p.byes < limit for p in ranked]
    bye_below = [0] * len(ranked)
    below = 0
    for i in range(len(ranked) - 1, -1, -1):
        bye_below[i] = below
        below += bye_ok[i]

    return _Field(
        players=ranked,
        units=units,
        group=group,
        pos=pos,
        group_size=group_size,
        met=met,
        forbidden=[frozenset(s) for s in forbidden_sets],
        bye_ok=bye_ok,
        bye_below=bye_below,
        extra_bye=extra_bye,
        unit=denominator,
        strict_seats=options.strict_seats,
        wish=[colour_wish(p.first_seats) for p in ranked],
    )


def _pair_costs(f: _Field, a: int, b: int) -> tuple[int, ...]:
    """Cost tiers of pairing rank a with rank b (a < b: a is the higher ranked)."""
    return _row_costs(f, a, (b,))[0]


def _row_costs(f: _Field, a: int, others: Iterable[int], fold: tuple[list[int], int] | None = None) -> list[Any]:
    """Cost tiers of pairing rank a with each of ``others`` (all ranked below a), one
    tuple each; with ``fold`` (bases, top), the folded weight ``top - sum(base * tier)``
    instead (see ``_bases``). A whole row at a time, with a's side looked up once: the
    exact matching of a 100-player field needs 4,950 of these."""
    group, pos, units, wish = f.group, f.pos, f.units, f.wish
    ga, pa, ua = group[a], pos[a], units[a]
    half = f.group_size[ga] // 2
    tail = f.group_size[ga] - 1 - pa  # players below a in a's group
    a_in_top = pa < half
    met, forbidden = f.met[a], f.forbidden[a]
    side_a, strength_a = wish[a]
    strict = f.strict_seats
    clash_score = SEAT_CLASH * f.unit**2
    rows: list[Any] = []
    if fold is not None:
        (b0, b1, _, b3, b4, b5, b6, b7), top = fold
    for b in others:
        if group[b] == ga:
            pb = pos[b]
            dutch = abs(pb - pa - half)
            exchange = 1 if a_in_top == (pb < half) else 0
        else:
            dutch = tail + pos[b]
            exchange = 0
        side_b, strength_b = wish[b]
        # The same rules as _wishes_clash and _wishes_conflict, inlined.
        if side_a and side_a == side_b:
            clash = 1 if strength_a == strength_b == ABSOLUTE else 0
            colour = min(strength_a, strength_b) + clash
        else:
            clash = colour = 0
        score = (ua - units[b]) ** 2
        if not strict:
            score += clash * clash_score
            clash = 0
        if fold is None:
            rows.append((met.get(b, 0), 1 if b in forbidden else 0, 0, clash, score, colour, dutch, exchange))
        else:
            rows.append(
                top
                - (
                    b0 * met.get(b, 0)
                    + (b1 if b in forbidden else 0)
                    + b3 * clash
                    + b4 * score
                    + b5 * colour
                    + b6 * dutch
                    + b7 * exchange
                )
            )
    return rows


def _bases(highest: list[int], pairs: int) -> list[int]:
    """Tier k's multiplier: larger than the most that all lower tiers can add up to over
    a whole matching (``pairs`` edges, none above ``highest`` in any tier), so the folded
    sum compares exactly like the tuples compared lexicographically."""
    bases = [0] * len(highest)
    below = 0  # the most the tiers under k can sum to over a matching
    for k in range(len(highest) - 1, -1, -1):
        bases[k] = below + 1
        below += bases[k] * highest[k] * pairs
    return bases


def _bounded_bases(
    f: _Field, members: list[int], slot_edges: list[tuple[Any, Any, tuple[int, ...]]], pairs: int
) -> tuple[list[int], int]:
    """Bases and top for ``members``' complete graph from bounds on each tier, known
    before any edge is costed, so each edge is folded as it is costed (``_row_costs``).
    Any bound at or above the true highest keeps the order exact; ``top`` is above every
    edge's folded cost, so every weight is positive."""
    units = [f.units[a] for a in members]
    widest = max(f.group_size[f.group[a]] for a in members)
    highest = [
        max(max(f.met[a].values(), default=0) for a in members),
        1 if any(f.forbidden[a] for a in members) else 0,
        0,
        1 if f.strict_seats else 0,
        (max(units) - min(units)) ** 2 + (0 if f.strict_seats else SEAT_CLASH * f.unit**2),
        ABSOLUTE + 1,
        2 * widest,
        1,
    ]
    for _, _, cost in slot_edges:
        highest = [max(h, c) for h, c in zip(highest, cost)]
    bases = _bases(highest, pairs)
    return bases, sum(b * h for b, h in zip(bases, highest)) + 1


def _fold(edges: list[tuple[Any, Any, tuple[int, ...]]], pairs: int) -> list[tuple[Any, Any, int]]:
    """Turn tiered costs into integer weights for max_weight_matching.

    Tier k is multiplied by a base larger than the most that all lower tiers can add up
    to over a whole matching (``pairs`` edges), so the folded sum compares exactly like
    the tuples compared lexicographically. Weights are ``top - cost`` and stay positive.
    """
    highest = [max(column) for column in zip(*(c for _, _, c in edges))]
    bases = _bases(highest, pairs)
    # Spelt out for the eight tiers: a 100-player field has 4,950 edges to fold.
    b0, b1, b2, b3, b4, b5, b6, b7 = bases
    folded = [
        c0 * b0 + c1 * b1 + c2 * b2 + c3 * b3 + c4 * b4 + c5 * b5 + c6 * b6 + c7 * b7
        for _, _, (c0, c1, c2, c3, c4, c5, c6, c7) in edges
    ]
    top = max(folded) + 1
    return [(u, v, top - w) for (u, v, _), w in zip(edges, folded)]


def _match(
    f: _Field,
    members: list[int],
    slot: str | None,
    next_units: int | None = None,
    *,
    prune: bool = True,
) -> tuple[list[tuple[int, int]], int | None]:
    """Minimum-cost perfect matching of ``members`` on their complete graph.

    ``slot`` adds a BYE or FLOAT vertex. Returns the pairs (higher rank first) and the
    member matched to the slot. With ``prune`` the matching is first sought on the cheap
    edges only and kept when it provably is optimal on the complete graph too (see
    ``_match_pruned``); otherwise, or when that proof fails, the complete graph decides.
    """
    members = sorted(members)
    slot_edges: list[tuple[Any, Any, tuple[int, ...]]] = []
    if slot == BYE:
        for a in members:
            if f.bye_ok[a]:
                slot_edges.append((a, BYE, (0, 0, f.bye_below[a], 0, 0, 0, 0, 0)))
    elif slot == FLOAT:
        bottom = len(members) - 1
        for x, a in enumerate(members):
            # The floater will meet someone of the next segment's top score; the Dutch
            # tier prefers the lowest-ranked member, as FIDE's downfloater rule does.
            drop = (f.units[a] - next_units) ** 2 if next_units is not None else 0
            slot_edges.append((a, FLOAT, (0, 0, 0, 0, drop, 0, bottom - x, 0)))
    if len(members) < 2 and not slot_edges:
        return [], None
    vertices = len(members) + (1 if slot else 0)
    if prune:
        solved = _match_pruned(f, members, slot_edges, vertices)
        if solved is not None:
            return solved
    pair_edges: list[tuple[Any, Any, tuple[int, ...]]] = []
    for x, a in enumerate(members):
        below = members[x + 1 :]
        pair_edges.extend(zip([a] * len(below), below, _row_costs(f, a, below)))
    solved = _perfect_matching(members, slot, pair_edges + slot_edges, vertices)
    if solved is None:
        # Cannot happen on a complete graph with a linked slot; guard against a silent
        # half-paired round all the same.
        raise PairingError("No perfect matching found for a segment")
    return solved


class _AdjacencyGraph(nx.Graph):
    """A networkx Graph whose ``graph[u]`` is the stored adjacency dict, not a read-only
    view built on every call. The blossom algorithm looks an edge's weight up as
    ``G[v][w]`` hundreds of thousands of times on a 100-player field, and those view
    objects were about a third of its time. The matching only reads the graph, so it
    takes the same steps on the same weights and returns the same matching."""

    def __getitem__(self, n):
        return self._adj[n]


def _perfect_matching(
    members: list[int],
    slot: str | None,
    edges: list[tuple[Any, Any, tuple[int, ...]]],
    vertices: int,
) -> tuple[list[tuple[int, int]], int | None] | None:
    """The cheapest perfect matching using only ``edges``, or None when they have none."""
    if not edges:
        return None
    graph = _AdjacencyGraph()
    graph.add_nodes_from(members)
    if slot:
        graph.add_node(slot)
    graph.add_weighted_edges_from(_fold(edges, vertices // 2))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs, slotted = [], None
    for u, v in matching:
        if u == slot or v == slot:
            slotted = v if u == slot else u
        else:
            pairs.append((min(u, v), max(u, v)))
    if 2 * (len(pairs) + (slotted is not None)) != vertices:
        return None
    pairs.sort()
    return pairs, slotted


def _match_pruned(
    f: _Field,
    members: list[int],
    slot_edges: list[tuple[Any, Any, tuple[int, ...]]],
    vertices: int,
) -> tuple[list[tuple[int, int]], int | None] | None:
    """The exact matching, found on a sparse graph and proved optimal on the complete one.

    Only the edges inside a score group and to the next group or few down (``NEAR_BELOW``)
    are weighed up front (the *near* edges); each player keeps its ``_first_neighbours``
    best of them and its first few of each class of the higher tiers, and the edges of a
    greedy perfect matching keep the sparse graph perfectly matchable, so no solve is
    wasted on a graph without one.
    ``blossom.perfect_matching`` returns the sparse optimum with a dual solution. A
    left-out edge whose slack under those duals is not negative changes nothing: the duals
    are feasible for it too and the matching still meets complementary slackness, so it
    is an optimum of the complete graph (LP duality of Edmonds' matching polytope), at the
    same folded weight and so the same cost in every tier. The left-out near edges are
    checked one by one. An edge to a group further down weighs at most ``top`` less the
    score tier of the two groups' difference (every tier costs zero or more), so a player
    whose dual and the least dual of such a group cover that bound has no short edge into
    the group, and only the rows that fail the bound are weighed. Edges of negative slack
    are added and the graph solved again, warmed by the last duals. Returns None only when
    there is no perfect matching at all.
    """
    size = len(members)
    fold = _bounded_bases(f, members, slot_edges, vertices // 2)
    bases, top = fold
    units = f.units
    # Runs of one score group among the members, in rank order (higher scores first).
    starts = [0] + [x for x in range(1, size) if units[members[x]] != units[members[x - 1]]] + [size]
    runs = len(starts) - 1
    run_of = [0] * size
    for r in range(runs):
        run_of[starts[r] : starts[r + 1]] = [r] * (starts[r + 1] - starts[r])

    # Near runs: a run's own, and the runs below it until they hold NEAR_BELOW players
    # (at least the next one), so that tiny score groups reach far enough for a float.
    far_from = [0] * runs
    for r in range(runs):
        s = r + 1
        while s < runs and (s == r + 1 or starts[s] - starts[r + 1] < NEAR_BELOW):
            s += 1
        far_from[r] = s
    edges: list[tuple[int, int, int]] = []
    for x, a in enumerate(members):
        end = starts[far_from[run_of[x]]]
        edges.extend(zip([x] * (end - x - 1), range(x + 1, end), _row_costs(f, a, members[x + 1 : end], fold)))
    near = len(edges)
    index = {a: x for x, a in enumerate(members)}
    slot_weighted = [(index[a], size, top - sum(b * c for b, c in zip(bases, cost))) for a, _, cost in slot_edges]
    if vertices > size and not slot_weighted:
        return None

    # Each vertex keeps its ``neighbours`` heaviest (cheapest) edges, ties by edge order,
    # which follows rank: walking the edges heaviest first, an edge is among a vertex's
    # first k when fewer than k of that vertex's edges came before it. Players of another
    # score apart, too: with only the cheapest partners every score group would be an
    # island. The same walk matches greedily, so the kept edges always hold a perfect
    # matching and the first solve cannot come back empty.
    weights = [w for _, _, w in edges]
    order = sorted(range(near), key=weights.__getitem__, reverse=True)
    neighbours, floats = _first_neighbours(f)
    kept = [False] * near
    seen, seen_across = [0] * size, [0] * size
    mate = [-1] * (size + 1)
    if slot_weighted:
        heaviest = max(slot_weighted, key=lambda e: e[2])  # the first of equals
        mate[heaviest[0]] = size
    # And of each class of the tiers above the Dutch ones (the same rematches, forbidden
    # pairs, seat clash, score and colour cost) a vertex keeps its first CLASS_KEEP
    # (CLASS_CROSS to another score): a large score group whose best partners all grant
    # the colours would otherwise leave out every edge that does not, and the proof then
    # fails on them. Walking heaviest first, a vertex meets its classes in rising order,
    # so it only needs the class it is in and how many of it it has kept.
    b5 = bases[5]
    in_class, class_seen = [-1] * size, [0] * size
    for e in order:
        u, v, w = edges[e]
        if seen[u] < neighbours or seen[v] < neighbours:
            kept[e] = True
        seen[u] += 1
        seen[v] += 1
        if run_of[u] != run_of[v]:
            if seen_across[u] < floats or seen_across[v] < floats:
                kept[e] = True
            seen_across[u] += 1
            seen_across[v] += 1
            keep = CLASS_CROSS
        else:
            keep = CLASS_KEEP
        c = (top - w) // b5
        if in_class[u] != c:
            in_class[u], class_seen[u] = c, 0
        if in_class[v] != c:
            in_class[v], class_seen[v] = c, 0
        if class_seen[u] < keep or class_seen[v] < keep:
            kept[e] = True
        class_seen[u] += 1
        class_seen[v] += 1
        if mate[u] < 0 and mate[v] < 0:
            mate[u], mate[v] = v, u
            kept[e] = True
    # Whoever the walk left over has no near edge to another: pair them in rank order on
    # far edges, weighed here.
    far: list[tuple[int, int, int]] = []
    left = [x for x in range(size) if mate[x] < 0]
    for x, y in zip(left[::2], left[1::2]):
        far.append((x, y, _row_costs(f, members[x], (members[y],), fold)[0]))

    b4 = bases[4]
    solved = None
    while True:
        chosen = [edges[e] for e in range(near) if kept[e]] + far + slot_weighted
        solved = perfect_matching(vertices, chosen, solved)
        if solved is None:
            return None
        short = solved.short_edges(edges, [e for e in range(near) if not kept[e]])
        dual = solved.vertex_dual
        least = [min(dual[starts[r] + 1 : starts[r + 1] + 1]) for r in range(runs)]
        found = []
        for x, a in enumerate(members):
            dx, ua = dual[x + 1], units[a]
            for s in range(far_from[run_of[x]], runs):
                first = starts[s]
                gap = ua - units[members[first]]
                if dx + least[s] >= 4 * (top - b4 * gap * gap):
                    continue
                row = members[first : starts[s + 1]]
                for y, w in zip(range(first, starts[s + 1]), _row_costs(f, a, row, fold)):
                    if solved.slack(x, y, w) < 0:
                        found.append((x, y, w))
        if not short and not found:
            return _read_matching(members, solved.mate)
        for e in short:
            kept[e] = True
        far.extend(found)


#: Edges kept per player of each class of the tiers from colour up, inside its score group
#: and to another; and how many players the score groups below a player's must hold
#: before the groups further down are left to the bound (see ``_match_pruned``). Chosen
#: on the benchmark's fields of 24 to 500 players after 3 to 6 rounds: with them nearly
#: every round proves itself on the first sparse graph.
CLASS_KEEP = 2
CLASS_CROSS = 1
NEAR_BELOW = 4


def _first_neighbours(f: _Field) -> tuple[int, int]:
    # A handful of cheapest partners per player, and the cheapest few of another score.
    return 8, 2


def _read_matching(members: list[int], mate: list[int]) -> tuple[list[tuple[int, int]], int | None]:
    pairs, slotted = [], None
    for x, a in enumerate(members):
        y = mate[x]
        if y == len(members):
            slotted = a
        elif x < y:
            pairs.append((a, members[y]))
    return pairs, slotted


def _segments(f: _Field, target: int) -> list[list[int]]:
    """Cut the ranked field into segments of about ``target`` players along score groups."""
    groups: list[list[int]] = [[] for _ in f.group_size]
    for i in range(f.n):
        groups[f.group[i]].append(i)
    units: list[list[int]] = []
    for members in groups:
        size = len(members)
        if size <= target:
            units.append(members)
            continue
        # A big group: chunk j takes slice j of the top half and slice j of the bottom
        # half, so each Dutch ideal pair (i, i + g//2) lands in the same chunk.
        chunks = math.ceil(size / target)
        half = size // 2
        top, bottom = members[:half], members[half:]
        step = math.ceil(half / chunks)
        for j in range(chunks):
            lo = j * step
            if lo >= half:
                break
            last = lo + step >= half
            units.append(top[lo : None if last else lo + step] + bottom[lo : None if last else lo + step])

    segments: list[list[int]] = []
    current: list[int] = []
    for unit in units:
        current = current + unit
        if len(current) >= max(2, target // 2):
            segments.append(current)
            current = []
    if current:
        if segments:
            segments[-1] = segments[-1] + current
        else:
            segments.append(current)

    if f.n % 2:
        # The last segment owns the bye, so it must hold someone who may receive it.
        while len(segments) > 1 and not any(f.bye_ok[i] for i in segments[-1]):
            tail = segments.pop()
            segments[-1] = segments[-1] + tail
    return segments


def _solve_segmented(f: _Field, target: int, prune: bool) -> tuple[list[tuple[int, int]], int | None]:
    segments = _segments(f, target)
    pairs: list[tuple[int, int]] = []
    carry: list[int] = []
    bye = None
    for k, segment in enumerate(segments):
        members = carry + segment
        last = k == len(segments) - 1
        slot = None
        if len(members) % 2:
            slot = BYE if last else FLOAT
        next_units = f.units[segments[k + 1][0]] if not last else None
        got, slotted = _match(f, members, slot, next_units, prune=prune)
        pairs.extend(got)
        carry = []
        if slot == FLOAT:
            carry = [slotted]
        elif slot == BYE:
            bye = slotted
    return pairs, bye


def _repair_colours(f: _Field, pairs: list[tuple[int, int]], prune: bool) -> list[tuple[int, int]]:
    """A segmented pairing with the colour cost it lost to the segments won back, as far as
    two steps find it, without any tier above colour rising (see the module notes)."""
    return _repair_knots(f, _swap_colours(f, pairs), prune)


def _swap_colours(f: _Field, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A segmented pairing with its colour cost lowered by swapping opponents between pairs.

    Each pair with a colour cost tries every pair that shares a score group with it, both
    ways of exchanging partners, and takes the exchange whose change in the tiers is least
    in the cost order, when that change is a fall and the colour cost falls with it. So no
    tier above colour ever rises: no rematch, forbidden pair, seat clash or float is bought
    with colours; and of the exchanges that save the most colour, the one costing least in
    the Dutch tiers is taken. Passes repeat until no pair finds an exchange; each one lowers
    the total in the cost order, so they end. Pairs stay (higher rank, lower rank).
    """
    pairs = list(pairs)
    costs = [_pair_costs(f, a, b) for a, b in pairs]
    pair_of, in_group = _pair_index(f, pairs)
    group, wish = f.group, f.wish
    colour = TIERS.index("colour")
    no_change = (0,) * len(TIERS)
    improved = True
    while improved:
        improved = False
        for k in range(len(pairs)):
            if not costs[k][colour]:
                continue
            a, b = pairs[k]
            groups = (group[a],) if group[a] == group[b] else (group[a], group[b])
            best = None
            for j in sorted({pair_of[x] for g in groups for x in in_group[g]} - {k}):
                c, d = pairs[j]
                before = [x + y for x, y in zip(costs[k], costs[j])]
                for p, q in (((a, c), (b, d)), ((a, d), (b, c))):
                    # Only the wishes are needed to see whether colours can gain at all, and
                    # most exchanges are ruled out by them before a pair is costed.
                    if (
                        _wishes_conflict(wish[p[0]], wish[p[1]]) + _wishes_conflict(wish[q[0]], wish[q[1]])
                        >= before[colour]
                    ):
                        continue
                    p, q = (min(p), max(p)), (min(q), max(q))
                    cost_p, cost_q = _pair_costs(f, *p), _pair_costs(f, *q)
                    change = tuple(x + y - z for x, y, z in zip(cost_p, cost_q, before))
                    if change < no_change and (best is None or change < best[0]):
                        best = (change, j, p, q, cost_p, cost_q)
            if best is None:
                continue
            _, j, p, q, cost_p, cost_q = best
            pairs[k], pairs[j], costs[k], costs[j] = p, q, cost_p, cost_q
            pair_of[p[0]] = pair_of[p[1]] = k
            pair_of[q[0]] = pair_of[q[1]] = j
            improved = True
    return pairs


def _pair_index(f: _Field, pairs: list[tuple[int, int]]) -> tuple[list[int], list[list[int]]]:
    """Each player's pair (its index in ``pairs``), and the players of each score group."""
    pair_of = [0] * f.n
    for k, (a, b) in enumerate(pairs):
        pair_of[a] = pair_of[b] = k
    in_group: list[list[int]] = [[] for _ in f.group_size]
    for i in range(f.n):
        in_group[f.group[i]].append(i)
    return pair_of, in_group


def _repair_knots(f: _Field, pairs: list[tuple[int, int]], prune: bool) -> list[tuple[int, int]]:
    """The pairs that still cost colours, or cross score groups, re-paired together exactly.

    An exchange between two pairs cannot move a colour surplus from one score group to the
    next: that takes a chain, in which a group floats a different player down, the group
    below pairs its floater otherwise and floats another, and so on, no step of which
    gains alone. So the players of every pair that still has a colour cost or is a float,
    and of the pairs of their neighbours in rank inside their score group (``KNOT_REACH``
    each side), are paired again on their complete graph (``_match``). Their present
    pairing is one of those it weighs, so the result is never worse in the cost order.
    """
    colour = TIERS.index("colour")
    pair_of, in_group = _pair_index(f, pairs)
    knotted = [False] * len(pairs)
    for k, (a, b) in enumerate(pairs):
        if f.group[a] == f.group[b] and not _pair_costs(f, a, b)[colour]:
            continue
        knotted[k] = True
        for x in (a, b):
            row = in_group[f.group[x]]
            for y in row[max(0, f.pos[x] - KNOT_REACH) : f.pos[x] + KNOT_REACH + 1]:
                knotted[pair_of[y]] = True
    members = sorted(x for k, pair in enumerate(pairs) if knotted[k] for x in pair)
    repaired, _ = _match(f, members, None, prune=prune)
    return [pair for k, pair in enumerate(pairs) if not knotted[k]] + repaired


#: Neighbours in rank, each side, whose pairs join a knotted pair's players in
#: ``_repair_knots``. One reached the complete graph's colour cost on the benchmark's
#: 500- to 2,000-player rounds and on seven seeded 1,000-player tournaments (the tests'
#: runner, seeds 0-6); three found nothing more on seeds 0-2.
KNOT_REACH = 1


def _violations(f: _Field, pairs: list[tuple[int, int]]) -> tuple[int, int]:
    return (
        sum(1 for a, b in pairs if f.met[a][b]),
        sum(1 for a, b in pairs if b in f.forbidden[a]),
    )


def pair_round(players: Iterable[SwissPlayer], options: SwissOptions | None = None) -> SwissRound:
    """Pair one Swiss round for the players present.

    Late joiners and drops are the caller's business: pass exactly the players who play
    this round, each with their own history.
    """
    options = options or SwissOptions()
    f = _build_field(players, options)
    if f.n == 0:
        return SwissRound((), None, as_fraction(options.bye_score), 0, 0, "exact")

    solved = None
    method = "exact"
    if f.n > options.exact_limit:
        target = max(4, options.segment_size)
        while target < f.n:
            pairs, bye = _solve_segmented(f, target, options.prune)
            clashes = sum(_pair_costs(f, a, b)[TIERS.index("seat_limit")] for a, b in pairs)
            if _violations(f, pairs) == (0, 0) and clashes == 0:
                solved, method = (_repair_colours(f, pairs, options.prune), bye), f"segmented:{target}"
                break
            target *= 2
    if solved is None:
        slot = BYE if f.n % 2 else None
        solved = _match(f, list(range(f.n)), slot, prune=options.prune)
    pairs, bye = solved

    # Board order: the stronger pairs first, judged by the higher-ranked player.
    pairs.sort(key=lambda ab: (-max(f.units[ab[0]], f.units[ab[1]]), ab[0]))
    boards = []
    for number, (a, b) in enumerate(pairs, start=1):
        first, second = first_seat(f.players[a], f.players[b], number)
        boards.append(
            Pairing(
                board=number,
                first=first.id,
                second=second.id,
                rematch=f.met[a][b],
                forbidden=b in f.forbidden[a],
            )
        )
    bye_id = None
    if bye is not None:
        bye_id = f.players[bye].id
        boards.append(Pairing(board=len(boards) + 1, first=bye_id, second=None))
    rematches, forbidden = _violations(f, pairs)
    return SwissRound(
        pairings=tuple(boards),
        bye=bye_id,
        bye_score=as_fraction(options.bye_score),
        rematches=rematches,
        forbidden=forbidden,
        method=method,
        extra_byes=1 if (bye is not None and f.players[bye].byes >= options.max_byes) else 0,
        costs=_total_costs(f, pairs, bye),
    )


def _total_costs(f: _Field, pairs: list[tuple[int, int]], bye: int | None) -> dict[str, int]:
    totals = [0] * len(TIERS)
    for a, b in pairs:
        for k, c in enumerate(_pair_costs(f, a, b)):
            totals[k] += c
    if bye is not None:
        totals[TIERS.index("bye")] += f.bye_below[bye]
    return dict(zip(TIERS, totals))
