"""Dyadic nodes, COMPOSE, window sums through the tree, and the noise of every prefix.

Steps are ``1..T``.  The nodes of the binary tree over them are the dyadic intervals

    I_T = { [a 2^b + 1, (a + 1) 2^b] : b >= 0, 0 <= a < floor(T / 2^b) },

``sum_b floor(T / 2^b)`` of them (``2T - 1`` when T is a power of two).  Node ``[y, z]``
becomes computable at step ``z``; leaf ``i`` lies in one node per level.  COMPOSE(a, b)
(Daniely, Gonen & Shalev-Shwartz 2015, Lemma 5) tiles ``[a, b]`` by disjoint nodes, greedily
from the left: the largest node starting at ``a`` that fits, then recurse.  For ``a = 1``
it is the binary expansion of ``b`` read from the top bit, so ``|COMPOSE(1, t)|`` is the
number of one bits of ``t``.

Exponentially weighted sums go through the tree unchanged: with node values
``f_[y,z] = c sum_{i=y}^{z} beta^{z-i} g_i``,

    c sum_{i=a}^{b} beta^{b-i} g_i = sum_{[y,z] in COMPOSE(a, b)} beta^{b-z} f_[y,z],

so momentum ``m_t = alpha sum_i (1 - alpha)^{t-i} g_i`` (``beta = 1 - alpha``, ``c = alpha``)
is rebuilt from ``|COMPOSE(1, t)|`` released nodes, and independent node noises of variance
``v_[y,z]`` give the released prefix the exact variance ``sum beta^{2(t-z)} v_[y,z]``.

The arithmetic here is generic: ``beta`` and the leaf values may be ints, Fractions (exact
rationals), mpf, sympy expressions or numpy arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import sympy as sp

from dpsym.errors import require, require_integer
from dpsym.fdp.symbolic import Derivation

__all__ = [
    "Node",
    "PrefixNoiseMonteCarlo",
    "ancestors",
    "compose",
    "dyadic_nodes",
    "is_dyadic",
    "momentum_through_tree",
    "momentum_through_tree_max_error",
    "node_count",
    "node_values",
    "popcount",
    "prefix_noise_monte_carlo",
    "prefix_noise_variance",
    "released_at",
    "window_coefficients",
    "window_sum",
]

REF_TREE = "binary-tree mechanism (Dwork et al. 2010; Chan et al. 2011)"
REF_COMPOSE = "COMPOSE (Daniely, Gonen & Shalev-Shwartz 2015, Lemma 5)"


class Node(NamedTuple):
    """The dyadic interval ``[y, z]`` of steps (1-based, inclusive)."""

    y: int
    z: int

    @property
    def length(self) -> int:
        return self.z - self.y + 1

    @property
    def level(self) -> int:
        """b with length 2^b."""
        return self.length.bit_length() - 1

    def __str__(self) -> str:
        return f"[{self.y},{self.z}]"


def popcount(t: int) -> int:
    """Number of one bits of ``t``."""
    return bin(t).count("1")


def is_dyadic(y: int, z: int) -> bool:
    """Whether ``[y, z]`` is a node: its length is 2^b and 2^b divides y - 1."""
    n = z - y + 1
    return y >= 1 and n >= 1 and n & (n - 1) == 0 and (y - 1) % n == 0


def _steps(T: object, ref: str = REF_TREE) -> int:
    return require_integer("T", T, ref, minimum=1)


def dyadic_nodes(T: int) -> list[Node]:
    """All nodes of the tree over steps 1..T, by level then start.

    >>> [str(v) for v in dyadic_nodes(4)]
    ['[1,1]', '[2,2]', '[3,3]', '[4,4]', '[1,2]', '[3,4]', '[1,4]']
    """
    T = _steps(T)
    out = []
    for b in range(T.bit_length()):
        w = 1 << b
        out += [Node(a * w + 1, (a + 1) * w) for a in range(T >> b)]
    return out


def node_count(T: int) -> int:
    """|I_T| = sum_b floor(T / 2^b) (2T - 1 for T a power of two)."""
    T = _steps(T)
    return sum(T >> b for b in range(T.bit_length()))


def compose(a: int, b: int) -> list[Node]:
    """COMPOSE(a, b): the disjoint dyadic nodes tiling [a, b], left to right.

    At each step the node is ``[a, a + 2^k - 1]`` for the largest k with 2^k | a - 1 and
    ``a + 2^k - 1 <= b`` (the paper's Algorithm 3, written as a loop).

    >>> [str(v) for v in compose(1, 7)]
    ['[1,4]', '[5,6]', '[7,7]']
    >>> [str(v) for v in compose(6, 13)]
    ['[6,6]', '[7,8]', '[9,12]', '[13,13]']
    """
    a = require_integer("a", a, REF_COMPOSE, minimum=1)
    b = require_integer("b", b, REF_COMPOSE)
    require(b >= a, "b", b, f"b >= a = {a}", REF_COMPOSE)
    out = []
    while a <= b:
        align = (a - 1) & -(a - 1) if a > 1 else 1 << b.bit_length()  # largest 2^k | a - 1
        fit = 1 << ((b - a + 1).bit_length() - 1)  # largest 2^k <= b - a + 1
        w = min(align, fit)
        out.append(Node(a, a + w - 1))
        a += w
    return out


def ancestors(i: int, T: int) -> list[Node]:
    """The nodes of I_T containing leaf ``i``, from the leaf up (one per level that fits).

    >>> [str(v) for v in ancestors(5, 8)]
    ['[5,5]', '[5,6]', '[5,8]', '[1,8]']
    """
    T = _steps(T)
    i = require_integer("i", i, REF_TREE, minimum=1)
    require(i <= T, "i", i, f"i <= T = {T}", REF_TREE)
    out = []
    for b in range(T.bit_length()):
        y = (((i - 1) >> b) << b) + 1
        z = y + (1 << b) - 1
        if z <= T:
            out.append(Node(y, z))
    return out


def released_at(t: int) -> list[Node]:
    """The nodes that end at step ``t`` (computable from step t on): [t - 2^k + 1, t], 2^k | t."""
    t = require_integer("t", t, REF_TREE, minimum=1)
    out = []
    k = 0
    while t % (1 << k) == 0:
        out.append(Node(t - (1 << k) + 1, t))
        k += 1
    return out


def window_coefficients(a: int, b: int, beta: Any) -> list[tuple[Node, Any]]:
    """[(node, beta^(b - z))] over COMPOSE(a, b): the weights that rebuild the window sum."""
    return [(v, beta ** (b - v.z)) for v in compose(a, b)]


def node_values(g: Sequence[Any], beta: Any, scale: Any = 1) -> dict[Node, Any]:
    """``f_[y,z] = scale * sum_{i=y}^{z} beta^{z-i} g_i`` for every node over ``len(g)`` steps.

    Built bottom up, ``f_parent = beta^{len(right)} f_left + f_right``, so the work is O(T)
    node operations.  ``g[i - 1]`` is the value of step i (any type with + and *).
    """
    T = len(g)
    require(T >= 1, "g", "an empty sequence", "at least one step", REF_TREE)
    vals: dict[Node, Any] = {Node(i, i): scale * g[i - 1] for i in range(1, T + 1)}
    for b in range(1, T.bit_length()):
        w = 1 << b
        half = w >> 1
        shift = beta ** half
        for a in range(T >> b):
            y = a * w + 1
            left, right = Node(y, y + half - 1), Node(y + half, y + w - 1)
            vals[Node(y, y + w - 1)] = shift * vals[left] + vals[right]
    return vals


def window_sum(values: dict[Node, Any], a: int, b: int, beta: Any) -> Any:
    """Window estimate ``sum_{[y,z] in COMPOSE(a, b)} beta^{b-z} values[v]``."""
    terms = [w * values[v] for v, w in window_coefficients(a, b, beta)]
    total = terms[0]
    for x in terms[1:]:
        total = total + x
    return total


def momentum_through_tree(t: int) -> Derivation:
    """Symbolic check that momentum is rebuilt exactly from COMPOSE(1, t) (any alpha).

    ``alpha sum_{i<=t} (1-alpha)^{t-i} g_i`` minus ``sum_{[y,z]} (1-alpha)^{t-z} f_[y,z]``
    with ``f_[y,z] = alpha sum_{i=y}^{z} (1-alpha)^{z-i} g_i``, expanded by sympy in the
    symbols alpha, g_1..g_t.
    """
    t = require_integer("t", t, REF_TREE, minimum=1)
    alpha = sp.Symbol("alpha")
    g = sp.symbols(f"g_1:{t + 1}")
    beta = 1 - alpha
    direct = alpha * sum(beta ** (t - i) * g[i - 1] for i in range(1, t + 1))
    vals = {v: alpha * sum(beta ** (v.z - i) * g[i - 1] for i in range(v.y, v.z + 1))
            for v in compose(1, t)}
    tree = sum(w * vals[v] for v, w in window_coefficients(1, t, beta))
    residual = sp.expand(direct - tree)
    return Derivation(tree, direct, residual,
                      f"t={t}: |COMPOSE(1,t)| = {len(vals)} nodes; residual expanded in "
                      "alpha, g_1..g_t")


def momentum_through_tree_max_error(T: int, alpha: float, d: int = 3, seed: int = 0) -> float:
    """Max over t <= T of ||m_t - tree_t|| / max_t ||m_t|| in float64 (Gaussian g_i in R^d).

    ``m_t`` is the recursion ``(1-alpha) m_{t-1} + alpha g_t``; ``tree_t`` rebuilds it from the
    node values of :func:`node_values` over COMPOSE(1, t).
    """
    T = _steps(T)
    rng = np.random.default_rng(seed)
    g = list(rng.standard_normal((T, d)))
    beta = 1.0 - alpha
    vals = node_values(g, beta, scale=alpha)
    m = np.zeros(d)
    worst, size = 0.0, 0.0
    for t in range(1, T + 1):
        m = beta * m + alpha * g[t - 1]
        worst = max(worst, float(np.linalg.norm(m - window_sum(vals, 1, t, beta))))
        size = max(size, float(np.linalg.norm(m)))
    return worst / size


def prefix_noise_variance(t: int, beta: Any, node_variance: Any | Callable[[Node], Any]) -> Any:
    """Exact variance of the noise in the released prefix at step t (per coordinate).

    ``sum_{[y,z] in COMPOSE(1, t)} beta^{2(t-z)} v_[y,z]`` for independent node noises of
    variance ``node_variance`` (a number, or a function of the node).  With ``beta = 1`` and a
    constant ``v`` it is ``popcount(t) v``.
    """
    var = node_variance if callable(node_variance) else (lambda _v: node_variance)
    terms = [w * w * var(v) for v, w in window_coefficients(1, t, beta)]
    total = terms[0]
    for x in terms[1:]:
        total = total + x
    return total


@dataclass(frozen=True)
class PrefixNoiseMonteCarlo:
    """Exact vs sampled variance of every released prefix t = 1..T (one coordinate).

    ``z[t-1]`` is (sampled - exact) / (exact sqrt(2 / draws)): the noise is a zero-mean
    Gaussian, so ``draws * sampled / exact`` is chi-square with ``draws`` degrees of freedom.
    """

    T: int
    draws: int
    seed: int
    exact: np.ndarray
    sampled: np.ndarray
    z: np.ndarray

    @property
    def max_abs_z(self) -> float:
        return float(np.max(np.abs(self.z)))


def prefix_noise_monte_carlo(T: int, beta: float, node_std: float | Callable[[Node], float],
                             draws: int = 20000, seed: int = 0) -> PrefixNoiseMonteCarlo:
    """Draw i.i.d. node noises, rebuild every prefix through COMPOSE, compare variances.

    The exact variances come from :func:`prefix_noise_variance` (float64 here: this is a
    sampling check, not a bound).
    """
    T = _steps(T)
    draws = require_integer("draws", draws, REF_TREE, minimum=2)
    nodes = dyadic_nodes(T)
    index = {v: k for k, v in enumerate(nodes)}
    std = node_std if callable(node_std) else (lambda _v: node_std)
    scale = np.array([float(std(v)) for v in nodes])
    coef = np.zeros((len(nodes), T))
    for t in range(1, T + 1):
        for v, w in window_coefficients(1, t, beta):
            coef[index[v], t - 1] = w
    rng = np.random.default_rng(seed)
    noise = rng.standard_normal((draws, len(nodes))) * scale
    prefix = noise @ coef
    sampled = np.mean(prefix**2, axis=0)
    exact = np.array([float(prefix_noise_variance(t, beta, lambda v: std(v) ** 2))
                      for t in range(1, T + 1)])
    z = (sampled - exact) / (exact * np.sqrt(2.0 / draws))
    return PrefixNoiseMonteCarlo(T, draws, seed, exact, sampled, z)
