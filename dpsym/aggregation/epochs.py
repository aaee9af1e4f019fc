"""A record that recurs once per epoch: where it lands in the tree, and what that costs.

Training by random reshuffling visits every record once per epoch of N steps.  Step t
(1-based) lies in epoch ``q_t = floor((t - 1) / N)`` at slot ``t - q_t N`` in ``1..N``.  A
*placement* of one record lists its slot in each epoch, ``p_0, p_1, ...``, so the record is
sampled at steps ``q N + p_q``.

In an exponentially weighted node ``f_[y,z] = c sum_{t=y}^{z} beta^{z-t} g_t`` a record's
occurrences carry the weights ``beta^{z-t}``; their sum ``S_[y,z]`` times ``c`` times the
per-occurrence sensitivity (2G for G-Lipschitz losses under replacement) is the node's
sensitivity to that record.  With one occurrence per epoch at the *same* distance from the
node's end, ``S`` is the epoch recursion ``sum_{j<n} beta^{jN}``; its closed form and limits
are derived by :func:`epoch_sum_closed_form`.  Placements are free (the permutations are
random), so the worst case puts each epoch's occurrence as late inside the node as
possible (:func:`worst_node_weight`): consecutive occurrences can be one step apart.

A tree mechanism that calibrates node ``nu`` to a sensitivity bound ``Delta_nu`` with
Gaussian noise of standard deviation ``Delta_nu / rho`` is, for a fixed placement, a
Gaussian mechanism with ``mu^2 = rho^2 sum_nu (actual_nu / Delta_nu)^2``
(:mod:`dpsym.aggregation.composition`); :func:`record_budget` and
:func:`worst_record_budget` compute that sum for one record and its worst placement.
:func:`expand_windows` turns a linear combination of window sums into node coefficients,
which is how a reconstruction's exact noise variance is computed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from dpsym.aggregation.tree import Node, dyadic_nodes, window_coefficients
from dpsym.errors import require, require_integer
from dpsym.fdp.symbolic import Derivation

__all__ = [
    "RecordBudget",
    "epoch_of",
    "epoch_sum",
    "epoch_sum_closed_form",
    "expand_windows",
    "max_node_count",
    "node_weight",
    "occurrences",
    "record_budget",
    "worst_node_weight",
    "worst_record_budget",
]

REF = "tree aggregation over epochs (random reshuffling)"


def epoch_of(t: int, N: int) -> tuple[int, int]:
    """(epoch q_t, slot in 1..N) of step t."""
    q = (t - 1) // N
    return q, t - q * N


def occurrences(placement: Sequence[int], N: int, T: int) -> list[int]:
    """Steps at which a record with slots ``placement[q]`` (1..N) is sampled, up to T."""
    out = []
    for q, p in enumerate(placement):
        require(1 <= p <= N, "placement", p, f"1 <= slot <= N = {N}", REF)
        t = q * N + p
        if t <= T:
            out.append(t)
    return out


def node_weight(node: Node, steps: Iterable[int], beta: Any) -> Any:
    """``S = sum_{t in steps, y <= t <= z} beta^{z-t}`` (0 if the record misses the node)."""
    total: Any = 0
    for t in steps:
        if node.y <= t <= node.z:
            total = total + beta ** (node.z - t)
    return total


def worst_node_weight(node: Node, N: int, beta: Any) -> Any:
    """Largest ``S`` over placements: each epoch meeting the node at its latest step inside it.

    Epoch q covers steps qN+1..(q+1)N; its occurrence's weight is largest at
    ``min(z, (q+1) N)``, so the supremum is ``sum_q beta^{z - min(z, (q+1)N)}`` over the
    epochs that meet ``[y, z]``.
    """
    N = require_integer("N", N, REF, minimum=1)
    total: Any = 0
    for q in range((node.y - 1) // N, (node.z - 1) // N + 1):
        total = total + beta ** (node.z - min(node.z, (q + 1) * N))
    return total


def epoch_sum(n: int, N: int, beta: Any) -> Any:
    """``sum_{j=0}^{n-1} beta^{jN}``: one occurrence per epoch, each N steps further back."""
    n = require_integer("n", n, REF, minimum=0)
    total: Any = 0
    for j in range(n):
        total = total + beta ** (j * N)
    return total


@dataclass(frozen=True)
class EpochSumForms:
    """The epoch recursion in closed form and its limits (sympy)."""

    finite: Derivation          # sum_{j<n} x^j = (1 - x^n) / (1 - x), x = (1 - alpha)^N
    limit_epochs: sp.Expr       # n -> oo: 1 / (1 - (1 - alpha)^N)
    limit_long_epochs: sp.Expr  # alpha = c / N, N -> oo: 1 / (1 - e^-c)


def epoch_sum_closed_form() -> EpochSumForms:
    """Derive ``sum_{j<n} (1-alpha)^{jN}`` in closed form, its n -> oo limit, and its N -> oo limit
    at ``alpha = c / N`` (sympy; nothing typed in but the sum itself)."""
    j, n, N = sp.symbols("j n N", integer=True, positive=True)
    alpha, c, s = sp.symbols("alpha c s", positive=True)
    x = sp.Symbol("x", positive=True)
    geo = sp.summation(x**j, (j, 0, n - 1))
    closed = next(e for e, cond in geo.args if cond is sp.true) if isinstance(
        geo, sp.Piecewise) else geo
    brute = sum(x**k for k in range(7))
    check = sp.simplify(closed.subs(n, 7) - brute)
    finite = Derivation(closed.subs(x, (1 - alpha) ** N), sp.Sum(((1 - alpha) ** N) ** j,
                        (j, 0, n - 1)), check,
                        "geometric sum in x = (1-alpha)^N; residual checked at n = 7")
    # x = e^{-s} with s > 0 puts the ratio in (0, 1), so x^n -> 0.
    lim_n = sp.limit(closed.subs(x, sp.exp(-s)), n, sp.oo).subs(s, -sp.log((1 - alpha) ** N))
    lim_N = sp.simplify(1 / (1 - sp.limit((1 - c / N) ** N, N, sp.oo)))
    return EpochSumForms(finite, sp.simplify(lim_n), lim_N)


def _nodes(T: int, nodes: Iterable[Node] | None) -> list[Node]:
    return list(dyadic_nodes(T) if nodes is None else nodes)


@dataclass(frozen=True)
class RecordBudget:
    """One record's footprint in a tree: the nodes it meets and sum_nu weight_nu^2."""

    placement: tuple[int, ...]
    count: int          # nodes containing at least one occurrence
    sum_sq: Any         # sum over those nodes of (S_nu * factor_nu)^2
    max_weight: Any     # max S_nu * factor_nu


def record_budget(T: int, N: int, placement: Sequence[int], beta: Any,
                  nodes: Iterable[Node] | None = None,
                  factor: Callable[[Node], Any] | None = None) -> RecordBudget:
    """Footprint of a record placed at ``placement`` among ``nodes`` (default: all of I_T).

    ``factor(node)`` rescales the node's weight (e.g. actual per-occurrence sensitivity
    over the calibrated bound); default 1.
    """
    steps = occurrences(placement, N, T)
    count, total, worst = 0, 0, 0
    for v in _nodes(T, nodes):
        s = node_weight(v, steps, beta)
        if s == 0:
            continue
        if factor is not None:
            s = s * factor(v)
        count += 1
        total = total + s * s
        worst = max(worst, s)
    return RecordBudget(tuple(placement), count, total, worst)


def _placements(N: int, epochs: int, limit: int, seed: int) -> Iterable[tuple[int, ...]]:
    if N**epochs <= limit:
        yield from itertools.product(range(1, N + 1), repeat=epochs)
        return
    rng = np.random.default_rng(seed)
    # Structured candidates (latest or earliest slots) and random ones.
    for first in range(1, N + 1):
        for rest in (1, N):
            yield (first,) + (rest,) * (epochs - 1)
            yield (rest,) * (epochs - 1) + (first,)
    for _ in range(limit):
        yield tuple(int(x) for x in rng.integers(1, N + 1, size=epochs))


def worst_record_budget(T: int, N: int, beta: Any, nodes: Iterable[Node] | None = None,
                        factor: Callable[[Node], Any] | None = None,
                        key: str = "sum_sq", limit: int = 20000,
                        seed: int = 0) -> tuple[RecordBudget, bool]:
    """(worst footprint, exhaustive?) over the record's placements, maximising ``key``.

    Every placement is tried when there are at most ``limit`` of them (``exhaustive`` is
    True and the result is the exact maximum); otherwise structured and seeded random
    placements are tried, followed by coordinate ascent, and the result is a lower bound on
    the maximum.
    """
    T = require_integer("T", T, REF, minimum=1)
    N = require_integer("N", N, REF, minimum=1)
    require(key in ("sum_sq", "count"), "key", key, "'sum_sq' or 'count'", REF)
    epochs = -(-T // N)
    node_list = _nodes(T, nodes)
    exhaustive = N**epochs <= limit

    def score(p: Sequence[int]) -> RecordBudget:
        return record_budget(T, N, p, beta, node_list, factor)

    best = None
    for p in _placements(N, epochs, limit if exhaustive else max(limit // 50, 50), seed):
        r = score(p)
        if best is None or getattr(r, key) > getattr(best, key):
            best = r
    if not exhaustive:
        improved = True
        while improved:
            improved = False
            for q in range(epochs):
                for slot in range(1, N + 1):
                    p = list(best.placement)
                    p[q] = slot
                    r = score(p)
                    if getattr(r, key) > getattr(best, key):
                        best, improved = r, True
    return best, exhaustive


def max_node_count(T: int, N: int, nodes: Iterable[Node] | None = None,
                   limit: int = 20000) -> tuple[int, bool]:
    """(max over placements of the number of nodes containing the record, exhaustive?)."""
    best, exhaustive = worst_record_budget(T, N, 1, nodes, key="count", limit=limit)
    return best.count, exhaustive


def expand_windows(windows: Iterable[tuple[str, int, int, Any]], beta: Any) -> dict[
        tuple[str, Node], Any]:
    """Node coefficients of ``sum_k w_k * Window_k`` with each window rebuilt through COMPOSE.

    ``windows`` holds ``(tree, a, b, w)``: weight ``w`` on the window sum ``[a, b]`` of tree
    ``tree``.  Returns ``{(tree, node): coefficient}``; a node used by several windows gets
    the sum of its coefficients (its noise is one random vector).
    """
    out: dict[tuple[str, Node], Any] = {}
    for tree, a, b, w in windows:
        for v, c in window_coefficients(a, b, beta):
            key = (tree, v)
            out[key] = out[key] + w * c if key in out else w * c
    return out
