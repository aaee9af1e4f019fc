"""Tran & Cutkosky 2022, Sec. 2 and App. A: the tree of Figure 1, COMPOSE (Alg. 3), Prop. 18.

The set I of dyadic intervals (Sec. 3, first display) is :func:`dpsym.aggregation.dyadic_nodes`;
COMPOSE is :func:`dpsym.aggregation.compose`.  This module states what the paper says about
them and measures it:

* :func:`alg_3` (App. A) and :func:`prop_18` with its two printed bounds;
* :func:`prop_18_exhaustive`: every [a, b] in a range checked for dyadic, disjoint, covering
  and the size bounds, with the largest |COMPOSE(a, b)| per length (how tight 2(1 + lg) is);
* :func:`figure_1`: the data of Figure 1 (T = 8) from the implementation;
* :func:`sec2_tree_counts`: the Sec. 2 counts "each g_i affects at most ceil(log t) + 1 nodes"
  and "at most log t nodes to compute any partial sum";
* :func:`sec2_noise_scalings`: the Sec. 2 noise scalings O(log t / eps) per node and
  O(log^1.5 t / eps) per sum (basic composition) next to the Gaussian (GDP) calibration.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
from mpmath import mpf

from dpsym.aggregation import (
    Node,
    ancestors,
    compose,
    dyadic_nodes,
    is_dyadic,
    popcount,
    sigma_for_gdp,
)
from dpsym.errors import require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up
from dpsym.papers.registry import cite

__all__ = [
    "Figure1Data",
    "Prop18Report",
    "alg_3",
    "figure_1",
    "prop_18",
    "prop_18_exhaustive",
    "sec2_noise_scalings",
    "sec2_tree_counts",
]

PAPER = "tran2022"


def alg_3(a: int, b: int) -> list[tuple[int, int]]:
    """Algorithm 3 (App. A), COMPOSE[a, b], as a list of intervals (start, end).

    >>> alg_3(1, 7)
    [(1, 4), (5, 6), (7, 7)]
    """
    return [tuple(v) for v in compose(a, b)]


def prop_18(a: int, b: int) -> tuple[int, mpf | None]:
    """Proposition 18's two size bounds for COMPOSE(a, b).

    Returns ``(2 (1 + floor(log2(b - a + 1))), 1 + log2 b if a = 1 else None)``; the second is
    the printed special case.
    """
    a = require_integer("a", a, cite(PAPER, "Prop. 18"), minimum=1)
    b = require_integer("b", b, cite(PAPER, "Prop. 18"), minimum=a)
    general = 2 * (1 + (b - a + 1).bit_length() - 1)
    return general, (1 + mpmath.log(b, 2) if a == 1 else None)


@dataclass(frozen=True)
class Prop18Report:
    """Exhaustive check of Prop. 18 over 1 <= a <= a_max, a <= b <= b_max."""

    pairs: int
    not_dyadic: int
    not_tiling: int
    over_general_bound: int
    over_prefix_bound: int
    popcount_mismatch: int
    max_size_by_length: dict[int, int]

    @property
    def holds(self) -> bool:
        return not (self.not_dyadic or self.not_tiling or self.over_general_bound
                    or self.over_prefix_bound or self.popcount_mismatch)


def prop_18_exhaustive(a_max: int = 129, b_max: int = 259) -> Prop18Report:
    """Check Prop. 18 and |COMPOSE(1, b)| = popcount(b) for every a <= a_max, b <= b_max."""
    counts = dict.fromkeys(("pairs", "dyadic", "tiling", "general", "prefix", "pop"), 0)
    by_len: dict[int, int] = {}
    for a in range(1, a_max + 1):
        for b in range(a, b_max + 1):
            s = compose(a, b)
            counts["pairs"] += 1
            counts["dyadic"] += not all(is_dyadic(*v) for v in s)
            steps = [i for v in s for i in range(v.y, v.z + 1)]
            counts["tiling"] += steps != list(range(a, b + 1))
            general, prefix = prop_18(a, b)
            counts["general"] += len(s) > general
            if a == 1:
                counts["prefix"] += len(s) > prefix
                counts["pop"] += len(s) != popcount(b)
            n = b - a + 1
            by_len[n] = max(by_len.get(n, 0), len(s))
    return Prop18Report(counts["pairs"], counts["dyadic"], counts["tiling"], counts["general"],
                        counts["prefix"], counts["pop"], by_len)


@dataclass(frozen=True)
class Figure1Data:
    """Figure 1 drawn from the implementation: the tree over T leaves, one window, one leaf."""

    T: int
    levels: list[list[Node]]          # levels[b] = nodes of length 2^b, left to right
    window: tuple[int, int]
    compose: list[Node]               # COMPOSE(window)
    leaf: int
    ancestors: list[Node]             # the nodes leaf i lies in


def figure_1(T: int = 8, window: tuple[int, int] = (1, 7), leaf: int = 5) -> Figure1Data:
    """Figure 1 (Sec. 2): the T = 8 tree with COMPOSE(1, 7) and the ancestors of leaf 5."""
    nodes = dyadic_nodes(T)
    levels = [[v for v in nodes if v.level == b] for b in range(T.bit_length())]
    return Figure1Data(T, [lv for lv in levels if lv], window, compose(*window), leaf,
                       ancestors(leaf, T))


@dataclass(frozen=True)
class TreeCounts:
    """Sec. 2's counts for a tree over t leaves, printed bound next to the exact value."""

    t: int
    max_ancestors: int           # max over leaves of the nodes containing it
    printed_ancestors: mpf       # ceil(log2 t) + 1
    max_prefix_nodes: int        # max over s <= t of |COMPOSE(1, s)|
    max_window_nodes: int        # max over 1 <= a <= b <= t of |COMPOSE(a, b)|
    printed_sum_nodes: mpf       # log2 t ("at most log t nodes to compute any partial sum")


def sec2_tree_counts(t: int) -> TreeCounts:
    """Exact node counts behind Sec. 2's "at most ceil(log t) + 1" and "at most log t"."""
    t = require_integer("t", t, cite(PAPER, "Sec. 2"), minimum=2)
    anc = max(len(ancestors(i, t)) for i in range(1, t + 1))
    pre = max(popcount(s) for s in range(1, t + 1))
    win = max(len(compose(a, b)) for a in range(1, t + 1) for b in range(a, t + 1))
    lg = mpmath.log(t, 2)
    return TreeCounts(t, anc, mpmath.ceil(lg) + 1, pre, win, lg)


@dataclass(frozen=True)
class NoiseScalings:
    """Per-node and per-prefix noise standard deviation (sensitivity 1) for (eps, delta)-DP."""

    t: int
    nodes_per_leaf: int
    node_std_gdp: mpf        # sqrt(k) / mu*: each leaf in k nodes, exact GDP calibration
    prefix_std_gdp: mpf      # sqrt(max popcount) * node std
    basic_node_scale: mpf    # log2 t / eps (the paper's O(log t / eps), constant 1)
    basic_prefix_scale: mpf  # log2(t)^1.5 / eps


def sec2_noise_scalings(t: int, eps: Number, delta: Number,
                        dps: int = DEFAULT_DPS) -> NoiseScalings:
    """Gaussian tree calibration for a stream of unit-sensitivity values, vs Sec. 2's scalings.

    Each leaf lies in ``k = floor(log2 t) + 1`` nodes, so node noise ``sqrt(k) / mu*`` with
    ``mu*`` the largest GDP parameter meeting (eps, delta) makes the tree (eps, delta)-DP
    (:mod:`dpsym.aggregation.composition`): O(sqrt(log t log(1/delta)) / eps) per node and
    O(log t sqrt(log(1/delta)) / eps) per prefix, below the printed O(log t / eps) and
    O(log^1.5 t / eps) (which basic composition gives).
    """
    t = require_integer("t", t, cite(PAPER, "Sec. 2"), minimum=2)
    k = t.bit_length()
    node = sigma_for_gdp(eps, delta, k, dps=dps)
    pre = max(popcount(s) for s in range(1, t + 1))
    with precision(dps + GUARD_DPS):
        lg = mpmath.log(t, 2)
        e = mpf(eps)
        prefix = mpmath.sqrt(pre) * node
        basic, basic15 = lg / e, lg ** mpf("1.5") / e
    return NoiseScalings(t, k, node, round_up(prefix, dps), round_up(basic, dps),
                         round_up(basic15, dps))
