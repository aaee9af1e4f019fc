"""Privacy-loss random variables (PRVs) of the subsampled Gaussian tradeoff C_p(G(mu)), and
their t-fold composition with a certified interval (Bok et al. 2024, App. D.5; Gopi, Lee &
Wutschitz 2021).

**PRVs.** A pair (X, Y) of random variables on the extended reals is a PRV pair for a privacy
curve delta if delta(eps) = E[(1 - e^{eps - Y})_+] and the laws satisfy dY = e^t dX (Def. D.1).
For C_p(G(mu)) the pair is symmetric, X = -Y, and (Bok et al. 2024, Prop. D.4)

    F_Y(t) = p Phi(eps+/mu - mu/2) + (1 - p) Phi(eps+/mu + mu/2),   t > 0,
    F_Y(t) = Phi(-eps-/mu - mu/2),                                   t <= 0,

with eps+ = log((p - 1 + e^t)/p), eps- = log((p - 1 + e^{-t})/p); Y has an atom of mass
(1 - p)(Phi(mu/2) - Phi(-mu/2)) at 0 (the slope -1 segment of C_p).  PRVs add under
composition, so delta of C_p(G(mu))^{(x) t} is E[(1 - e^{eps - S})_+] with S a sum of t
independent copies of Y.

**The paper's object in the general engine.**  :class:`CpGaussianPRV` is this PRV as a
privacy-loss pair of :mod:`dpsym.pld` (Y is the loss under P, X = -Y the loss under Q, so
P(L > t) = 1 - F_Y(t) and Q(L > t) = P(Y < -t)).  It is Bok et al.'s symmetrised C_p, *not*
the Poisson-subsampled Gaussian of DP-SGD accounting (whose two pairs are in
:mod:`dpsym.pld.pairs`; its eps is about 20% smaller).  :func:`compose_subsampled_gaussian`
composes it with the certified delta-dominance scheme of :mod:`dpsym.pld.grid` (exact
integer convolution, every error term inside the interval) at a user-set width;
heterogeneous compositions such as C_p(G(a))^{(x)k} (x) G(b) are
``certify_epsilon([[Factor(CpGaussianPRV(p, a), k), Factor(GaussianPair(b), 1)]], delta)``.
"""


from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

import numpy as np
from scipy.special import ndtr

from dpsym.balls import ball, ncdf
from dpsym.errors import require, require_integer
from dpsym.pld.compose import Factor, PLDInterval, certify_delta, certify_epsilon
from dpsym.pld.pairs import LossPair
from dpsym.rdp.arb_series import exact_fraction

__all__ = ["ComposedPRV", "CpGaussianPRV", "compose_subsampled_gaussian", "prv_atom",
           "prv_cdf"]

REF = "Bok et al. 2024, Prop. D.4 / App. D.5"


def prv_atom(p: float, mu: float) -> float:
    """Mass of Y's atom at 0: (1 - p)(Phi(mu/2) - Phi(-mu/2))."""
    return (1 - p) * (ndtr(mu / 2) - ndtr(-mu / 2))


def prv_cdf(t: np.ndarray, p: float, mu: float) -> np.ndarray:
    """F_Y(t) of Prop. D.4 (float64, vectorised); F_Y(0) excludes the atom (left limit)."""
    t = np.asarray(t, dtype=float)
    out = np.empty_like(t)
    pos = t > 0
    ep = np.log((p - 1 + np.exp(t[pos])) / p)
    out[pos] = p * ndtr(ep / mu - mu / 2) + (1 - p) * ndtr(ep / mu + mu / 2)
    em = np.log((p - 1 + np.exp(-t[~pos])) / p)
    out[~pos] = ndtr(-em / mu - mu / 2)
    return out


@dataclass(frozen=True)
class CpGaussianPRV(LossPair):
    """Bok et al. 2024's C_p(G(mu)) as a privacy-loss pair: Y ~ F_Y of Prop. D.4, X = -Y.

    With e = log((p - 1 + e^{|t|})/p) >= 0, in ball arithmetic:

    * t >= 0: P(L > t) = 1 - F_Y(t) = p Phi(mu/2 - e/mu) + (1 - p) Phi(-mu/2 - e/mu) (the
      atom at 0 lies in F_Y(t)), Q(L > t) = P(Y < -t) = Phi(-e/mu - mu/2);
    * t < 0: P(L > t) = Phi(e/mu + mu/2), Q(L > t) = P(Y < -t) = p Phi(e/mu - mu/2) +
      (1 - p) Phi(e/mu + mu/2) (atom included).

    At p = 1 these are the tails of G(mu) (:class:`dpsym.pld.GaussianPair`).  0 < p <= 1.
    """

    p: Fraction
    mu: Fraction

    def __post_init__(self) -> None:
        require(0 < self.p <= 1, "p", self.p, "0 < p <= 1 (sampling rate)", REF)
        require(self.mu > 0, "mu", self.mu, "mu > 0", REF)

    def tails(self, t):
        p, m = ball(self.p), ball(self.mu)
        half = m / 2
        if t >= 0:
            e = ((p - 1 + t.exp()) / p).log()
            return p * ncdf(half - e / m) + (1 - p) * ncdf(-half - e / m), ncdf(-e / m - half)
        if t < 0:
            e = ((p - 1 + (-t).exp()) / p).log()
            return ncdf(e / m + half), p * ncdf(e / m - half) + (1 - p) * ncdf(e / m + half)
        raise ArithmeticError("t straddles 0: evaluate the tails at exact points")

    def describe(self) -> dict[str, str]:
        return {"pair": "C_p(G(mu)) (Bok et al. 2024, Prop. D.4)", "p": str(self.p),
                "mu": str(self.mu), "meaning": "the symmetrised subsampling operator's PRV",
                "reference": REF}


@dataclass(frozen=True)
class ComposedPRV:
    """C_p(G(mu))^{(x) t}: certified intervals for eps(delta) and delta(eps), computed on
    demand by :func:`dpsym.pld.certify_epsilon` / :func:`dpsym.pld.certify_delta`.

    ``width`` is the target width of eps intervals (delta intervals: relative width
    ``width`` too); ``h`` is the coarsest grid spacing the refinement starts from.
    """

    p: Fraction
    mu: Fraction
    t: int
    h: float = 4e-3
    width: float = 1e-3

    def doubled(self) -> ComposedPRV:
        """The composition of this law with itself (t -> 2t)."""
        return replace(self, t=2 * self.t)

    def _scenario(self) -> list[list[Factor]]:
        return [[Factor(CpGaussianPRV(self.p, self.mu), self.t)]]

    def epsilon_interval(self, delta: float | str) -> tuple[float, float]:
        """Certified (lower, upper) for the smallest eps with delta(eps) <= delta."""
        iv = self.interval("epsilon", delta)
        return float(iv.lower), float(iv.upper)

    def delta_interval(self, eps: float | str) -> tuple[float, float]:
        """Certified (lower, upper) for delta of the composition at eps."""
        iv = self.interval("delta", eps)
        return float(iv.lower), float(iv.upper)

    def interval(self, target: str, value: float | str) -> PLDInterval:
        """The :class:`dpsym.pld.PLDInterval` itself (cached per target and value)."""
        return _interval(self, target, str(value))


@lru_cache(maxsize=64)
def _interval(law: ComposedPRV, target: str, value: str) -> PLDInterval:
    if target == "epsilon":
        return certify_epsilon(law._scenario(), value, width=law.width, h0=law.h)
    return certify_delta(law._scenario(), value, rel_width=law.width, h0=law.h)


def compose_subsampled_gaussian(p: float, mu: float, t: int, h: float = 4e-3,
                                width: float = 1e-3) -> ComposedPRV:
    """C_p(G(mu))^{(x) t} with certified intervals of width <= ``width`` (Bok et al. 2024,
    Prop. D.4 composed as in App. D.5, with :mod:`dpsym.pld`'s certified scheme).

    ``p`` and ``mu`` are taken exactly (floats as their binary values, strings as decimals).
    ``h`` is the grid spacing the refinement starts from, at least 1e-3 (the scheme of
    earlier versions needed 2e-5; finer starting grids now only cost time).

    >>> from dpsym.fdp.prv import compose_subsampled_gaussian
    >>> from dpsym.fdp import gdp_epsilon
    >>> lo, hi = compose_subsampled_gaussian(1, "0.3", 16).epsilon_interval("1e-5")
    >>> exact = float(gdp_epsilon("1.2", "1e-5", dps=20))   # G(0.3)^(x)16 = G(1.2)
    >>> lo <= exact <= hi and hi - lo <= 1e-3
    True
    """
    t = require_integer("t", t, REF, minimum=1)
    pf = exact_fraction(p, "p", REF)
    mf = exact_fraction(mu, "mu", REF)
    require(0 < pf <= 1, "p", p, "0 < p <= 1 (sampling rate)", REF)
    require(mf > 0, "mu", mu, "mu > 0", REF)
    require(h > 0, "h", h, "h > 0 (grid spacing)", REF)
    require(width > 0, "width", width, "width > 0", REF)
    return ComposedPRV(pf, mf, t, max(float(h), 1e-3), float(width))
