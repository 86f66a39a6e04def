"""Maximum-weight perfect matching on a small dense graph, with its dual solution.

Pure Python, written for the Swiss pairing (``swiss.py``): fields of up to a few hundred
vertices, integer weights. It is Edmonds' weighted blossom algorithm in its O(n^3) form
(Gabow's dense variant): vertex and blossom dual variables, one alternating forest grown
per stage, the least slack towards every outside node kept so that each dual step costs
O(n) rather than a scan of all edges.

Why not networkx: its ``max_weight_matching`` is the same algorithm written for any
hashable vertex and any graph, reading weights through dict lookups; here vertices are
list indices and weights sit in a matrix, which is several times faster, and the final
dual solution is returned. The dual solution is what lets the Swiss pairing solve on a
handful of cheap edges per player and still prove the result optimal on the complete
graph (``Matching.slack``).

Only perfect matchings are sought: the duals are free (no vertex is left unmatched at a
cost), and ``perfect_matching`` returns None when the given edges have no perfect
matching at all (the forest stops growing with free vertices left: Tutte's condition
fails).

Weights are doubled inside and duals kept doubled again, as ``4 * y``, so that every step
stays an integer: all vertex duals start even, free vertices all change by the same step,
every tight edge joins vertices of the same parity, so the slack between two outer
vertices is always even.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import compress

_FREE, _OUTER, _INNER = -1, 0, 1


@dataclass(frozen=True)
class Matching:
    #: mate[v] is the vertex matched to v.
    mate: list[int]
    #: 4 * the dual variable of each vertex (index 1..n; 0 unused).
    vertex_dual: list[int]
    #: For each vertex (index 0..n-1), the blossoms that contain it, outermost first,
    #: each as (blossom id, 4 * its dual).
    blossoms_of: list[tuple[tuple[int, int], ...]]

    def slack(self, u: int, v: int, weight: int) -> int:
        """4 * (y_u + y_v + the duals of the blossoms holding both - weight): the duals
        are kept at four times their value, weights being doubled inside. The matching is
        optimal on any larger graph whose extra edges all have non-negative slack: the
        duals stay feasible for them, and complementary slackness still holds."""
        total = self.vertex_dual[u + 1] + self.vertex_dual[v + 1] - 4 * weight
        for (bu, zu), (bv, _) in zip(self.blossoms_of[u], self.blossoms_of[v]):
            if bu != bv:
                break
            total += zu
        return total

    def short_edges(self, edges: list[tuple[int, int, int]], candidates: Iterable[int]) -> list[int]:
        """The candidates (indices into ``edges``) whose slack is negative."""
        dual, blossoms_of = self.vertex_dual, self.blossoms_of
        short = []
        for e in candidates:
            u, v, w = edges[e]
            total = dual[u + 1] + dual[v + 1] - 4 * w
            # A blossom's dual only adds to the slack, so only an edge whose two vertex
            # duals fall short needs its blossoms looked up.
            if total < 0:
                for (bu, zu), (bv, _) in zip(blossoms_of[u], blossoms_of[v]):
                    if bu != bv:
                        break
                    total += zu
                if total < 0:
                    short.append(e)
        return short


def perfect_matching(n: int, edges: Iterable[tuple[int, int, int]], warm: Matching | None = None) -> Matching | None:
    """The maximum-weight perfect matching of vertices 0..n-1 on ``edges`` (u, v, weight),
    or None when there is no perfect matching. Weights must be positive integers; at most
    one edge per pair (a later one replaces an earlier one).

    ``warm``: the optimum of a graph on the same vertices with fewer edges. Its duals,
    each blossom's spread over its vertices, are raised where a new edge needs it, and
    its pairs that are still tight are kept, so only the vertices the new edges disturb
    go through the stages again."""
    if n % 2:
        return None
    if n == 0:
        return Matching([], [0], [])
    # Vertices 1..n, blossoms after them: blossoms nest (each holds at least three
    # nodes), so fewer than n / 2 exist at once and their ids are reused.
    size = n + n // 2 + 2
    # best[a][b]: an original edge (u, v, w) with u inside node a and v inside node b;
    # for two vertices, their edge. For a blossom, the one of least slack at its making.
    best: list[list[tuple[int, int, int] | None]] = [[None] * size for _ in range(size)]
    adjacent: list[list[int]] = [[] for _ in range(n + 1)]
    heaviest = [0] * (n + 1)
    for u, v, w in edges:
        if w <= 0:
            raise ValueError("weights must be positive")
        u += 1
        v += 1
        row_u = best[u]
        if row_u[v] is None:
            adjacent[u].append(v)
            adjacent[v].append(u)
        # Doubled, so that the starting duals below (half a vertex's heaviest edge) and
        # every step after them stay even integers.
        w += w
        row_u[v] = (u, v, w)
        best[v][u] = (v, u, w)
        if w > heaviest[u]:
            heaviest[u] = w
        if w > heaviest[v]:
            heaviest[v] = w

    dual = [0] * size
    for u in range(1, n + 1):
        if not adjacent[u]:
            return None
    # Beside each adjacency list, its edges' weights as the stages compare them (four
    # times the given weight), so that scanning a vertex reads no edge tuples.
    scan_weight = [[2 * best[u][v][2] for v in adjacent[u]] for u in range(n + 1)]
    mate = [0] * size  # of a top node: the original vertex it is matched to
    if warm is None:
        dual[: n + 1] = heaviest
    else:
        # Half of each blossom's dual on each of its vertices keeps every edge inside it
        # as slack as before (so the pairs inside stay tight) and only adds to the edges
        # leaving it. Then a vertex is raised where a new edge needs it, which frees it.
        for u in range(1, n + 1):
            dual[u] = warm.vertex_dual[u] + sum(z for _, z in warm.blossoms_of[u - 1]) // 2
        for u in range(1, n + 1):
            row = best[u]
            for v in adjacent[u]:
                short = 2 * row[v][2] - dual[u] - dual[v]
                if short > 0:
                    dual[u] += short
        for u in range(1, n + 1):
            v = warm.mate[u - 1] + 1
            if u < v and best[u][v] is not None and dual[u] + dual[v] == 2 * best[u][v][2]:
                mate[u], mate[v] = v, u
        # The stages need every free vertex at the same parity (the trees then share it,
        # and the slack between two outer vertices is even); a matched pair is tight, so
        # its two duals share a parity of their own, which a tree it joins takes on.
        for u in range(1, n + 1):
            if not mate[u] and dual[u] & 1:
                dual[u] += 1
    top = list(range(n + 1)) + [0] * n  # the outermost blossom holding each node (0: none)
    parent = [0] * size  # of an inner node: the outer vertex it was reached from
    label = [_FREE] * size
    slack_from = [0] * size  # of a top node: the outer vertex of its least-slack edge
    seen = [0] * size
    stamp = [0]
    children: list[list[int]] = [[] for _ in range(size)]
    # The vertices inside each node, for the dual steps and the queue.
    leaves: list[list[int]] = [[u] for u in range(n + 1)] + [[] for _ in range(n + 1, size)]
    # child_holding[b][x]: the direct child of blossom b that holds vertex x (0: none).
    child_holding = [[0] * (n + 1) for _ in range(size)]
    for u in range(1, n + 1):
        child_holding[u][u] = u
    last_node = [n]
    queue: deque[int] = deque()
    # column_of[b]: the nodes z whose best[z][b] may be set (by the making of b, or of
    # a blossom z whose row reached b), reset when b's id is reused; so that neither the
    # reset nor reset_slack needs a pass over every node.
    column_of: list[list[int]] = [[] for _ in range(size)]

    # A greedy start: every vertex's dual is half its heaviest edge, so an edge is tight
    # when it is the heaviest at both ends; then each vertex left over lowers its dual
    # until one edge is tight. Tight edges between two unmatched vertices are matched.
    # Duals stay feasible and matched edges tight, which is all the stages below need,
    # and most vertices are matched before the first stage.
    for lowering in (False, True):
        for u in range(1, n + 1):
            if mate[u]:
                continue
            row = best[u]
            if lowering:
                lowest = max(2 * row[v][2] - dual[v] for v in adjacent[u])
                dual[u] = lowest + (lowest & 1)  # kept even: it may stay free
            target = dual[u]
            for v in adjacent[u]:
                if not mate[v] and target + dual[v] == 2 * row[v][2]:
                    mate[u] = v
                    mate[v] = u
                    break

    def note_slack(u: int, x: int) -> None:
        current = slack_from[x]
        if not current:
            slack_from[x] = u
            return
        # Both edges start at their outer vertex (u and current).
        e, f = best[u][x], best[current][x]
        if dual[u] + dual[e[1]] - 2 * e[2] < dual[current] + dual[f[1]] - 2 * f[2]:
            slack_from[x] = u

    def reset_slack(x: int) -> None:
        # Only the vertices with an edge into x can offer one; in vertex order, so that
        # of equal slacks the lowest vertex is kept, as a scan of every vertex would.
        slack_from[x] = 0
        ends = sorted(adjacent[x]) if x <= n else sorted(z for z in column_of[x] if z <= n)
        for u in ends:
            if top[u] != x and label[top[u]] == _OUTER:
                note_slack(u, x)

    def enqueue(x: int) -> None:
        if x <= n:
            queue.append(x)
        else:
            queue.extend(leaves[x])

    def set_top(x: int, b: int) -> None:
        # Node x (and every vertex in it) now belongs to the outermost blossom b. A
        # blossom nested deeper keeps pointing at its own parent: it only needs a top
        # that is not itself, so that it is not taken for an outermost node.
        top[x] = b
        if x > n:
            for c in children[x]:
                top[c] = b
            for leaf in leaves[x]:
                top[leaf] = b

    def rotate_to(b: int, child: int) -> int:
        # Position of ``child`` in blossom b's cycle, reversing the cycle first when the
        # child sits at an odd position, so that the even path to the base is the one
        # that starts at the base.
        cycle = children[b]
        at = cycle.index(child)
        if at % 2:
            cycle[1:] = cycle[:0:-1]
            return len(cycle) - at
        return at

    def set_mate(x: int, y: int) -> None:
        e = best[x][y]
        mate[x] = e[1]
        if x <= n:
            return
        child = child_holding[x][e[0]]
        at = rotate_to(x, child)
        cycle = children[x]
        for i in range(at):
            set_mate(cycle[i], cycle[i ^ 1])
        set_mate(child, y)
        children[x] = cycle[at:] + cycle[:at]

    def augment(x: int, y: int) -> None:
        while True:
            next_inner = top[mate[x]]
            set_mate(x, y)
            if not next_inner:
                return
            set_mate(next_inner, top[parent[next_inner]])
            x, y = top[parent[next_inner]], next_inner

    def common_ancestor(x: int, y: int) -> int:
        stamp[0] += 1
        mark = stamp[0]
        while x or y:
            if x:
                if seen[x] == mark:
                    return x
                seen[x] = mark
                x = top[mate[x]]
                if x:
                    x = top[parent[x]]
            x, y = y, x
        return 0

    def make_blossom(x: int, base: int, y: int) -> None:
        b = n + 1
        while b <= last_node[0] and top[b]:
            b += 1
        if b > last_node[0]:
            last_node[0] += 1
        dual[b] = 0
        label[b] = _OUTER
        mate[b] = mate[base]
        cycle = [base]
        node = x
        while node != base:
            cycle.append(node)
            inner = top[mate[node]]
            cycle.append(inner)
            enqueue(inner)
            node = top[parent[inner]]
        cycle[1:] = cycle[:0:-1]
        node = y
        while node != base:
            cycle.append(node)
            inner = top[mate[node]]
            cycle.append(inner)
            enqueue(inner)
            node = top[parent[inner]]
        children[b] = cycle
        leaves[b] = [leaf for c in cycle for leaf in leaves[c]]
        set_top(b, b)
        last = last_node[0]
        row: list[tuple[int, int, int] | None] = [None] * size
        best[b] = row
        row_slack = [0] * (last + 1)
        for z in column_of[b]:
            best[z][b] = None
        column = column_of[b] = []
        holding = child_holding[b] = [0] * (n + 1)
        every = range(last + 1)
        for c in cycle:
            crow = best[c]
            # The nodes with an edge from c, in node order (entry 0 is always None).
            for z in compress(every, crow[: last + 1]):
                e = crow[z]
                s = dual[e[0]] + dual[e[1]] - 2 * e[2]
                if row[z] is None:
                    column.append(z)
                    if z > n:
                        column_of[z].append(b)  # best[b][z] is in column z
                elif s >= row_slack[z]:
                    continue
                row[z] = e
                row_slack[z] = s
                best[z][b] = best[z][c]
            for leaf in leaves[c]:
                holding[leaf] = c
        reset_slack(b)

    def expand_blossom(b: int) -> None:
        # An inner blossom whose dual reached zero: its children go back to the forest,
        # the even path from where it was entered to its base as inner/outer pairs, the
        # rest free.
        for c in children[b]:
            set_top(c, c)
        entry = child_holding[b][best[b][parent[b]][0]]
        at = rotate_to(b, entry)
        cycle = children[b]
        for i in range(0, at, 2):
            c, d = cycle[i], cycle[i + 1]
            parent[c] = best[d][c][0]
            label[c] = _INNER
            label[d] = _OUTER
            slack_from[c] = 0
            reset_slack(d)
            enqueue(d)
        label[entry] = _INNER
        parent[entry] = parent[b]
        for i in range(at + 1, len(cycle)):
            c = cycle[i]
            label[c] = _FREE
            reset_slack(c)
        top[b] = 0

    def found_tight(e: tuple[int, int, int]) -> bool:
        x, y = top[e[0]], top[e[1]]
        if label[y] == _FREE:
            parent[y] = e[0]
            label[y] = _INNER
            partner = top[mate[y]]
            slack_from[y] = slack_from[partner] = 0
            label[partner] = _OUTER
            enqueue(partner)
        elif label[y] == _OUTER:
            base = common_ancestor(x, y)
            if not base:
                augment(x, y)
                augment(y, x)
                return True
            make_blossom(x, base, y)
        return False

    def stage() -> bool | None:
        """Grow the forest until one augmentation: True; False when already perfect;
        None when no perfect matching exists."""
        nodes = last_node[0]
        for x in range(1, nodes + 1):
            label[x] = _FREE
            slack_from[x] = 0
        queue.clear()
        for x in range(1, nodes + 1):
            if top[x] == x and not mate[x]:
                parent[x] = 0
                label[x] = _OUTER
                enqueue(x)
        if not queue:
            return False
        while True:
            while queue:
                u = queue.popleft()
                if label[top[u]] == _INNER:
                    continue
                tu = top[u]
                du = dual[u]  # no vertex dual changes until the next dual step
                for v, w in zip(adjacent[u], scan_weight[u]):
                    tv = top[v]
                    if tu != tv:
                        s = du + dual[v] - w
                        if not s:
                            if found_tight(best[u][v]):
                                return True
                            tu = top[u]
                        else:
                            current = slack_from[tv]
                            if not current:
                                slack_from[tv] = u
                            elif tv == v:
                                # A vertex: best[u][v] is this very edge.
                                if s < dual[current] + dual[v] - 2 * best[current][v][2]:
                                    slack_from[tv] = u
                            else:
                                f = best[current][tv]
                                g = best[u][tv]
                                if du + dual[g[1]] - 2 * g[2] < dual[current] + dual[f[1]] - 2 * f[2]:
                                    slack_from[tv] = u
            # One dual step: the least that makes an edge tight or an inner blossom's
            # dual zero, over the outermost nodes only.
            tops = [x for x in range(1, last_node[0] + 1) if top[x] == x]
            step = None
            # The nodes whose least-slack edge sets the step: only their edges turn tight.
            closest: list[int] = []
            for x in tops:
                lab = label[x]
                if lab == _INNER:
                    if x > n and (step is None or dual[x] // 2 < step):
                        step = dual[x] // 2
                        closest = []
                    continue
                u = slack_from[x]
                if u:
                    e = best[u][x]
                    s = dual[u] + dual[e[1]] - 2 * e[2]
                    if lab == _OUTER:
                        s //= 2
                    if step is None or s < step:
                        step = s
                        closest = [x]
                    elif s == step:
                        closest.append(x)
            if step is None:
                return None  # the forest cannot grow: no perfect matching
            for x in tops:
                lab = label[x]
                if lab == _FREE:
                    continue
                change = -step if lab == _OUTER else step
                if x <= n:
                    dual[x] += change
                else:
                    for u in leaves[x]:
                        dual[u] += change
                    dual[x] -= 2 * change
            queue.clear()
            for x in closest:
                u = slack_from[x]
                # x may have gone into a blossom made earlier in this loop.
                if u and top[x] == x and top[u] != x:
                    e = best[u][x]
                    if dual[e[0]] + dual[e[1]] == 2 * e[2] and found_tight(e):
                        return True
            for b in range(n + 1, last_node[0] + 1):
                if top[b] == b and label[b] == _INNER and dual[b] == 0:
                    expand_blossom(b)

    while True:
        done = stage()
        if done is None:
            return None
        if not done:
            break

    result = [0] * n
    for u in range(1, n + 1):
        result[u - 1] = mate[u] - 1
    blossoms_of: list[tuple[tuple[int, int], ...]] = []
    for u in range(1, n + 1):
        chain = []
        node = top[u]
        while node != u:
            chain.append((node, dual[node]))
            node = child_holding[node][u]
        blossoms_of.append(tuple(chain))
    return Matching(result, dual[: n + 1], blossoms_of)
