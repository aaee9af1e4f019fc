"""Privacy-loss random variables (PRVs) of the subsampled Gaussian tradeoff C_p(G(mu)), and
their t-fold composition by FFT with a certified interval (Bok et al. 2024, App. D.5; Gopi,
Lee & Wutschitz 2021).

**PRVs.** A pair (X, Y) of random variables on the extended reals is a PRV pair for a privacy
curve delta if delta(eps) = E[(1 - e^{eps - Y})_+] and the laws satisfy dY = e^t dX (Def. D.1).
For C_p(G(mu)) the pair is symmetric, X = -Y, and (Bok et al. 2024, Prop. D.4)

    F_Y(t) = p Phi(eps+/mu - mu/2) + (1 - p) Phi(eps+/mu + mu/2),   t > 0,
    F_Y(t) = Phi(-eps-/mu - mu/2),                                   t <= 0,

with eps+ = log((p - 1 + e^t)/p), eps- = log((p - 1 + e^{-t})/p); Y has an atom of mass
(1 - p)(Phi(mu/2) - Phi(-mu/2)) at 0 (the slope -1 segment of C_p).  PRVs add under
composition, so delta of C_p(G(mu))^{(x) t} is E[(1 - e^{eps - S})_+] with S a sum of t
independent copies of Y.

**The interval.** Each copy of Y is replaced by Y' on the grid hZ by *mean-preserving* rounding
inside its cell (mass split between the two endpoints so that the cell's mean is kept), which
couples Y and Y' with |Y - Y'| <= h and E[Y - Y'] = 0, Var(Y - Y') <= h^2/4.  Bernstein's
inequality bounds P(|S - S'| > eta) by beta, and since (1 - e^{eps - s})_+ is non-decreasing
in s,

    delta_{S'}(eps + eta) - beta - tau  <=  delta_S(eps)  <=  delta_{S'}(eps - eta) + beta + tau,

where tau is the probability mass cut off in the tails.  S' is computed exactly on the grid up
to float64 roundoff of the FFT (relative 1e-13 here, below every reported digit, and not part
of the interval).  Cell integrals use 3-point Gauss-Legendre on the smooth continuous part.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.polynomial.legendre import leggauss
from scipy.signal import fftconvolve
from scipy.special import ndtr

from dpsym.errors import require, require_integer

__all__ = ["ComposedPRV", "compose_subsampled_gaussian", "prv_atom", "prv_cdf"]

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


def _continuous_cdf(t: np.ndarray, p: float, mu: float) -> np.ndarray:
    return prv_cdf(t, p, mu) - prv_atom(p, mu) * (np.asarray(t) > 0)


def _one_step(p: float, mu: float, h: float, A: float) -> tuple[np.ndarray, int, float]:
    """Mean-preserving grid law of Y on [-A, A]: (masses, index of 0, cut-off mass)."""
    K = int(np.ceil(A / h))
    a = np.arange(-K, K) * h
    b = a + h
    Ga, Gb = _continuous_cdf(a, p, mu), _continuous_cdf(b, p, mu)
    nodes, weights = leggauss(3)
    up = np.zeros_like(a)
    for x, w in zip(nodes, weights, strict=True):
        y = a + (x + 1) * h / 2
        up += w / 2 * (Gb - _continuous_cdf(y, p, mu))
    mass = np.clip(Gb - Ga, 0, None)
    up = np.clip(up, 0, mass)
    grid = np.zeros(2 * K + 1)
    grid[:-1] += mass - up
    grid[1:] += up
    grid[K] += prv_atom(p, mu)
    tau = float(_continuous_cdf(np.array([-K * h]), p, mu)[0]
                + 1 - prv_cdf(np.array([K * h]), p, mu)[0])
    return grid, K, max(tau, 0.0)


@dataclass(frozen=True)
class ComposedPRV:
    """S' = sum of t grid copies of Y: masses on h * (i - zero), plus the error budget."""

    masses: np.ndarray
    zero: int
    h: float
    t: int
    cut: float          # probability mass cut off in the tails (all steps and convolutions)

    def doubled(self, B: float = 15.0) -> ComposedPRV:
        """The composition of this law with itself (t -> 2t), kept on [-B, B]."""
        m, z, c = _convolve((self.masses, self.zero), (self.masses, self.zero),
                            int(np.ceil(B / self.h)))
        return ComposedPRV(m, z, self.h, 2 * self.t, 2 * self.cut + c)

    def delta_grid(self, eps: float) -> float:
        """delta_{S'}(eps) = E[(1 - e^{eps - S'})_+]."""
        s = (np.arange(self.masses.size) - self.zero) * self.h
        sel = s > eps
        return float(np.sum(self.masses[sel] * -np.expm1(eps - s[sel])))

    def eta(self, beta: float) -> float:
        """Bernstein: P(|S - S'| > eta) <= beta for t mean-zero terms bounded by h, variance
        <= h^2/4."""
        L = np.log(2 / beta)
        v = self.t * self.h**2 / 4
        return float(self.h * L / 3 + np.sqrt((self.h * L / 3) ** 2 + 2 * v * L))

    def delta_interval(self, eps: float, beta: float = 1e-10) -> tuple[float, float]:
        """Certified (lower, upper) for delta of the composition at eps (see module doc)."""
        e = self.eta(beta)
        lo = self.delta_grid(eps + e) - beta - self.cut
        hi = self.delta_grid(eps - e) + beta + self.cut
        return max(lo, 0.0), min(hi, 1.0)

    def epsilon_interval(self, delta: float, beta: float = 1e-10) -> tuple[float, float]:
        """Certified (lower, upper) for the smallest eps with delta(eps) <= delta."""
        def solve(side: int) -> float:
            lo, hi = 0.0, 1.0
            while self.delta_interval(hi, beta)[side] > delta:
                hi *= 2
            for _ in range(60):
                mid = (lo + hi) / 2
                if self.delta_interval(mid, beta)[side] > delta:
                    lo = mid
                else:
                    hi = mid
            return hi if side == 1 else lo
        return solve(0), solve(1)


def _convolve(x: tuple[np.ndarray, int], y: tuple[np.ndarray, int], keep: int
              ) -> tuple[np.ndarray, int, float]:
    z = np.clip(fftconvolve(x[0], y[0]), 0, None)
    zero = x[1] + y[1]
    lo, hi = max(0, zero - keep), min(z.size, zero + keep + 1)
    cut = float(z[:lo].sum() + z[hi:].sum())
    return z[lo:hi], zero - lo, cut


def compose_subsampled_gaussian(p: float, mu: float, t: int, h: float = 2e-5, A: float = 6.0,
                                B: float = 15.0) -> ComposedPRV:
    """The grid law of S' for C_p(G(mu))^{(x) t}, by repeated squaring with linear FFT
    convolutions kept on [-B, B] (the mass outside is counted in ``cut``)."""
    t = require_integer("t", t, REF, minimum=1)
    require(0 < p <= 1, "p", p, "0 < p <= 1 (sampling rate)", REF)
    require(mu > 0, "mu", mu, "mu > 0", REF)
    require(h > 0, "h", h, "h > 0 (grid spacing)", REF)
    base, zero, tau = _one_step(p, mu, h, A)
    keep = int(np.ceil(B / h))
    cut = t * tau
    result: tuple[np.ndarray, int] | None = None
    power: tuple[np.ndarray, int] = (base, zero)
    n = t
    while n:
        if n & 1:
            if result is None:
                result = power
            else:
                m, z, c = _convolve(result, power, keep)
                result, cut = (m, z), cut + c
        n >>= 1
        if n:
            m, z, c = _convolve(power, power, keep)
            power, cut = (m, z), cut + c
    assert result is not None
    return ComposedPRV(result[0], result[1], h, t, cut)
