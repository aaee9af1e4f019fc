"""Exact tradeoff functions and privacy curves of small families of distribution pairs, by the
Neyman-Pearson lemma (Dong, Roth & Su 2022, Sec. 2.1).

* :func:`discrete_tradeoff`: T(P, Q) for P, Q on a finite set, exactly (rational arithmetic).
  The most powerful tests reject the atoms in decreasing order of the likelihood ratio
  Q/P (randomising on the boundary atom), so T(P, Q) is the polygon through the cumulative
  (type-I, type-II) errors of that order.
* :func:`mixture_delta`: the privacy curve delta(P || Q)(eps) = integral (q - e^eps p)_+ of two
  finite location mixtures of N(., s^2) on the real line.  The set {q > e^eps p} is a finite
  union of intervals whose ends are the sign changes of log q - log p - eps (found on a fine
  grid and refined by bisection); on it the integral is a sum of differences of Phi, exactly.
  T(P, Q) >= g for a symmetric g iff delta(P || Q)(eps) <= delta_g(eps) for every real eps
  (DRS22, Prop. 2.12), which is how tradeoff functions of such pairs are compared.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import mpmath
from mpmath import mpf

from dpsym.errors import require
from dpsym.numerics import Number, Phi, to_mpf

__all__ = ["discrete_tradeoff", "mixture_delta"]

REF = "Dong, Roth & Su 2022, Sec. 2.1 (Neyman-Pearson)"


def discrete_tradeoff(P: Sequence[Fraction | int], Q: Sequence[Fraction | int]
                      ) -> list[tuple[Fraction, Fraction]]:
    """Vertices (alpha, beta) of T(P, Q) for P, Q on the same finite set of atoms, exactly.

    >>> [(str(a), str(b)) for a, b in discrete_tradeoff([1, 0], [Fraction(1, 2), Fraction(1, 2)])]
    [('0', '1'), ('0', '1/2'), ('1', '0')]
    """
    Pf, Qf = [Fraction(x) for x in P], [Fraction(x) for x in Q]
    require(len(Pf) == len(Qf) and len(Pf) > 0, "P, Q", (len(Pf), len(Qf)),
            "two mass vectors on the same atoms", REF)
    require(all(x >= 0 for x in Pf + Qf) and sum(Pf) == 1 and sum(Qf) == 1, "P, Q", "(masses)",
            "probability vectors (non-negative, summing to 1)", REF)

    def ratio_key(i: int) -> tuple[int, Fraction]:
        # Atoms where P has no mass come first (infinite ratio); then by Q/P descending.
        return (0, -Qf[i]) if Pf[i] == 0 else (1, -Qf[i] / Pf[i])

    a, b = Fraction(0), Fraction(1)
    out = [(a, b)]
    for i in sorted(range(len(Pf)), key=ratio_key):
        if Pf[i] == 0 and Qf[i] == 0:
            continue
        a, b = a + Pf[i], b - Qf[i]
        if out[-1] != (a, b):
            out.append((a, b))
    return out


def _mixture(weights: Sequence[Number], means: Sequence[Number]) -> list[tuple[mpf, mpf]]:
    w = [to_mpf(x, "weight", REF) for x in weights]
    m = [to_mpf(x, "mean", REF) for x in means]
    require(len(w) == len(m) and len(w) > 0, "weights", weights, "one weight per mean", REF)
    require(all(x >= 0 for x in w) and abs(mpmath.fsum(w) - 1) < mpf(10) ** (-mpmath.mp.dps + 3),
            "weights", weights, "non-negative weights summing to 1", REF)
    return [(wi, mi) for wi, mi in zip(w, m, strict=True) if wi > 0]


def _log_density(mix: list[tuple[mpf, mpf]], x: mpf, s: mpf) -> mpf:
    return mpmath.log(mpmath.fsum(w * mpmath.npdf(x, m, s) for w, m in mix))


def _mass(mix: list[tuple[mpf, mpf]], a: mpf, b: mpf, s: mpf) -> mpf:
    """P((a, b]) for the mixture; a may be -inf and b +inf."""
    def cdf(x: mpf, m: mpf) -> mpf:
        if x == mpmath.inf:
            return mpf(1)
        if x == mpmath.ninf:
            return mpf(0)
        return Phi((x - m) / s)

    def upper(x: mpf, m: mpf) -> mpf:  # P(X > x) computed without 1 - Phi cancellation
        if x == mpmath.inf:
            return mpf(0)
        if x == mpmath.ninf:
            return mpf(1)
        return Phi((m - x) / s)

    # Use whichever tail is smaller to keep relative accuracy far out.
    return mpmath.fsum(w * (cdf(b, m) - cdf(a, m) if a < m else upper(a, m) - upper(b, m))
                       for w, m in mix)


def mixture_delta(eps: Number, P: tuple[Sequence[Number], Sequence[Number]],
                  Q: tuple[Sequence[Number], Sequence[Number]], s: Number = 1,
                  span: Number = 40, cells: int = 4000) -> mpf:
    """delta(P || Q)(eps) = sup_E Q(E) - e^eps P(E) for location mixtures of N(., s^2).

    ``P`` and ``Q`` are (weights, means).  The sign changes of log q - log p - eps are
    searched on ``cells`` cells of [min mean - span s, max mean + span s] and refined to the
    working precision; beyond that window the sign is that of its end cells (the log
    likelihood ratio of two such mixtures is eventually monotone).
    """
    e = to_mpf(eps, "eps", REF)
    sv = to_mpf(s, "s", REF)
    require(sv > 0, "s", s, "s > 0", REF)
    mp_, mq_ = _mixture(*P), _mixture(*Q)
    means = [m for _, m in mp_ + mq_]
    lo = min(means) - to_mpf(span) * sv
    hi = max(means) + to_mpf(span) * sv

    def g(x: mpf) -> mpf:
        return _log_density(mq_, x, sv) - _log_density(mp_, x, sv) - e

    xs = [lo + (hi - lo) * i / cells for i in range(cells + 1)]
    gs = [g(x) for x in xs]
    ends: list[mpf] = []
    for (a, ga), (b, gb) in zip(zip(xs, gs, strict=True), zip(xs[1:], gs[1:], strict=True),
                                strict=False):
        if (ga > 0) != (gb > 0):
            for _ in range(mpmath.mp.prec + 4):
                mid = (a + b) / 2
                if (g(mid) > 0) == (ga > 0):
                    a = mid
                else:
                    b = mid
            ends.append((a + b) / 2)
    pts = [mpmath.ninf, *ends, mpmath.inf]
    positive = gs[0] > 0
    total = mpf(0)
    for a, b in itertools.pairwise(pts):
        if positive:
            total += _mass(mq_, a, b, sv) - mpmath.exp(e) * _mass(mp_, a, b, sv)
        positive = not positive
    return max(total, mpf(0))
