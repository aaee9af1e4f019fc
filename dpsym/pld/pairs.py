"""Privacy-loss pairs: a pair (P, Q) described by the tails of its privacy loss.

For probability measures P, Q the privacy loss is L = log(dP/dQ), and the hockey-stick
divergence of the pair at eps is (Dong, Roth & Su 2022, Prop. 2.12; Gopi, Lee & Wutschitz
2021, Def. 3.1)

    delta(eps) = E_{P}[(1 - e^{eps - L})_+] = P(L > eps) - e^eps Q(L > eps).

A mechanism with a *dominating pair* (P, Q) (Zhu, Dong & Wang 2022, Def. 7) is
(eps, delta(eps))-DP for every eps; the loss of a composition is the sum of independent
losses.  Everything the certified composition of :mod:`dpsym.pld.grid` needs from a pair is
two tail functions, evaluated in ball arithmetic at exact points t:

    S_P(t) = P(L > t),   S_Q(t) = Q(L > t),

and, when it is finite, the essential infimum or supremum of L (an atom-free description
is not required: atoms are allowed, the tails are right-continuous).  A pair is a small
frozen record with those methods; new mechanisms (e.g. Bok et al.'s C_p(G(mu)),
:class:`dpsym.fdp.prv.CpGaussianPRV`) plug in by implementing :class:`LossPair`.

Units: a Gaussian mechanism with noise multiplier sigma adds N(0, sigma^2 C^2) to a sum of
clipped gradients (clip norm C); all pairs below are in units of C, so N(a, sigma^2) is a
mean shift of a C.
"""

from __future__ import annotations

import functools
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction

from dpsym.balls import ball, flint, ncdf
from dpsym.errors import require

__all__ = [
    "GaussianPair",
    "LossPair",
    "PoissonSubsampledGaussianPair",
    "ReplaceOnePoissonGaussianPair",
    "ncdf",
]

REF_POISSON = ("Zhu, Dong & Wang 2022, Sec. 5 (dominating pairs under Poisson subsampling); "
               "Koskela, Jalko & Honkela 2020, Sec. 6")


@functools.lru_cache(maxsize=64)
def _consts(q: Fraction, sigma: Fraction, prec: int):
    """Balls of q, 1 - q, sigma, sigma^2, log q and 1/2 at ``prec`` bits (cached)."""
    qb, sb = ball(q), ball(sigma)
    return qb, 1 - qb, sb, sb * sb, qb.log(), flint.arb(1) / 2


class LossPair(ABC):
    """A pair (P, Q) given by the tails of L = log dP/dQ (see the module docstring)."""

    @abstractmethod
    def tails(self, t):
        """(P(L > t), Q(L > t)) as arb balls, for an arb ball t at the current precision."""

    def loss_infimum(self) -> Fraction | float | None:
        """The essential infimum of L under P if finite (a float or exact value), else None."""
        return None

    def loss_supremum(self) -> Fraction | float | None:
        """The essential supremum of L under P if finite, else None."""
        return None

    @abstractmethod
    def describe(self) -> dict[str, str]:
        """Parameters, the pair's meaning and its reference, as strings."""

    def key(self) -> tuple:
        """A hashable identity (pairs are frozen dataclasses)."""
        return (type(self).__name__, *vars(self).values())


@dataclass(frozen=True)
class GaussianPair(LossPair):
    """P = N(mu, 1), Q = N(0, 1): the Gaussian mechanism at sensitivity/noise = mu (G(mu)).

    L = mu z - mu^2/2 is N(mu^2/2, mu^2) under P and N(-mu^2/2, mu^2) under Q, so
    S_P(t) = Phi((mu^2/2 - t)/mu) and S_Q(t) = Phi((-mu^2/2 - t)/mu); its delta is the
    exact curve of Dong, Roth & Su 2022, Cor. 2.13 (:func:`dpsym.fdp.gdp_delta`).
    """

    mu: Fraction

    def __post_init__(self) -> None:
        require(self.mu > 0, "mu", self.mu, "mu > 0", "Dong, Roth & Su 2022, Def. 2.7")

    def tails(self, t):
        m = ball(self.mu)
        h = m * m / 2
        return ncdf((h - t) / m), ncdf((-h - t) / m)

    def describe(self) -> dict[str, str]:
        return {"pair": "gaussian", "mu": str(self.mu),
                "meaning": "P = N(mu, 1), Q = N(0, 1) (tight)",
                "reference": "Dong, Roth & Su 2022, Cor. 2.13"}


@dataclass(frozen=True)
class PoissonSubsampledGaussianPair(LossPair):
    """One step of DP-SGD with Poisson rate q, noise multiplier sigma, add/remove adjacency.

    With mu0 = N(0, sigma^2), mu1 = N(1, sigma^2) and mix = (1 - q) mu0 + q mu1, the two
    tight dominating pairs are (Zhu, Dong & Wang 2022, Sec. 5):

    * ``direction="remove"``: P = mix, Q = mu0.  L = log((1-q) + q e^{(2z-1)/(2 sigma^2)})
      is increasing in z and >= log(1 - q); L > t iff z > z(t) = 1/2 + sigma^2
      log((e^t - (1 - q))/q), so S_P(t) = (1-q) Phi(-z/sigma) + q Phi((1-z)/sigma) and
      S_Q(t) = Phi(-z/sigma) for t > log(1 - q) (both 1 below);
    * ``direction="add"``: P = mu0, Q = mix.  L is minus the same function, <= -log(1 - q);
      L > t iff z < z(-t), so S_P(t) = Phi(z/sigma), S_Q(t) = (1-q) Phi(z/sigma) +
      q Phi((z-1)/sigma) for t < -log(1 - q) (both 0 above).

    A run's delta is the larger of the two composed curves (the neighbouring datasets are
    fixed for the whole run, so the direction is the same at every step).
    """

    q: Fraction
    sigma: Fraction
    direction: str = "remove"

    def __post_init__(self) -> None:
        require(0 < self.q <= 1, "q", self.q, "0 < q <= 1", REF_POISSON)
        require(self.sigma > 0, "sigma", self.sigma, "sigma > 0", REF_POISSON)
        require(self.direction in ("remove", "add"), "direction", self.direction,
                "'remove' or 'add'", REF_POISSON)

    def tails(self, t):
        q, one_m_q, s, s2, log_q, half = _consts(self.q, self.sigma, flint.ctx.prec)
        if self.direction == "remove":
            u = t.exp() - one_m_q
            if u <= 0:
                return flint.arb(1), flint.arb(1)
            if not u > 0:  # t's ball straddles log(1 - q): only [0, 1] is certain
                return _UNIT(), _UNIT()
            z = s2 * (u.log() - log_q) + half      # L > t  iff  z > z(t)
            sq = ncdf(-z / s)
            return one_m_q * sq + q * ncdf((1 - z) / s), sq
        u = (-t).exp() - one_m_q
        if u <= 0:
            return flint.arb(0), flint.arb(0)
        if not u > 0:
            return _UNIT(), _UNIT()
        z = s2 * (u.log() - log_q) + half          # L > t  iff  z < z(-t)
        sp = ncdf(z / s)
        return sp, one_m_q * sp + q * ncdf((z - 1) / s)

    def loss_infimum(self) -> float | None:
        return math.log1p(-float(self.q)) if self.direction == "remove" and self.q < 1 else None

    def loss_supremum(self) -> float | None:
        return -math.log1p(-float(self.q)) if self.direction == "add" and self.q < 1 else None

    def describe(self) -> dict[str, str]:
        what = ("P = (1-q) N(0,s^2) + q N(1,s^2), Q = N(0,s^2)" if self.direction == "remove"
                else "P = N(0,s^2), Q = (1-q) N(0,s^2) + q N(1,s^2)")
        return {"pair": f"poisson_subsampled_gaussian ({self.direction})", "q": str(self.q),
                "sigma": str(self.sigma), "meaning": what + " (tight dominating pair)",
                "reference": REF_POISSON}


def _UNIT():
    """The ball [0, 1]: all that is certain of a probability."""
    return flint.arb(0.5, 0.5)


@dataclass(frozen=True)
class ReplaceOnePoissonGaussianPair(LossPair):
    """Poisson rate q, noise multiplier sigma, replace-one adjacency: the antipodal pair

        P = (1-q) N(0, sigma^2) + q N(1, sigma^2),  Q = (1-q) N(0, sigma^2) + q N(-1, sigma^2),

    the pair dp-accounting uses for REPLACE_ONE (a replaced example's clipped gradient g
    becomes g' = -g, |g| = C).  Conditional on the other examples, a replace-one neighbour
    of a Poisson-sampled Gaussian sum gives the pair ((1-q)N(0) + q N(g), (1-q)N(0) +
    q N(g')) with |g|, |g'| <= 1; among one-dimensional gradients the antipodal choice is the
    worst case.  For vector gradients no proof that it dominates every (g, g') is given
    here (Birrell et al. 2024, eq. (96) maximise only the second-order term, at the same
    antipodal configuration), so dpsym labels this pair "standard, not proved dominating".

    With c = e^{-1/(2 sigma^2)} and w = e^{z/sigma^2}, e^L = ((1-q) + q c w)/((1-q) + q c/w)
    is increasing in z and L > t iff w > w(t), the positive root of
    q c w^2 + (1-q)(1 - e^t) w - q c e^t = 0.  The pair is symmetric (z -> -z swaps P, Q).
    """

    q: Fraction
    sigma: Fraction

    def __post_init__(self) -> None:
        require(0 < self.q <= 1, "q", self.q, "0 < q <= 1", "dp-accounting REPLACE_ONE pair")
        require(self.sigma > 0, "sigma", self.sigma, "sigma > 0",
                "dp-accounting REPLACE_ONE pair")

    def tails(self, t):
        one = flint.arb(1)
        q, s = ball(self.q), ball(self.sigma)
        s2 = s * s
        qc = q * (-one / (2 * s2)).exp()
        et = t.exp()
        b = (one - q) * (one - et)
        d = (b * b + 4 * qc * qc * et).sqrt()
        # the positive root, in the form without cancellation for each sign of b
        w = (d - b) / (2 * qc) if b < 0 else 2 * qc * et / (b + d)
        z = s2 * w.log()
        sp = (one - q) * ncdf(-z / s) + q * ncdf((one - z) / s)
        sq = (one - q) * ncdf(-z / s) + q * ncdf((-one - z) / s)
        return sp, sq

    def describe(self) -> dict[str, str]:
        return {"pair": "poisson_subsampled_gaussian (replace-one, antipodal)",
                "q": str(self.q), "sigma": str(self.sigma),
                "meaning": "P = (1-q) N(0,s^2) + q N(1,s^2), Q = (1-q) N(0,s^2) + q N(-1,s^2)"
                           " (standard, not proved dominating for vector gradients)",
                "reference": "dp-accounting REPLACE_ONE; see the class docstring"}
