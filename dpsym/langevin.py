"""The projected Langevin algorithm (PLA) on an interval: simulation, kernel, divergences.

PLA with step ``eta`` on the interval X = [a, b] and a (sub)gradient oracle g is

    X_{t+1} = Pi_[a,b]( X_t - eta g(X_t) + sqrt(2 eta) xi_t ),   xi_t ~ N(0, 1) iid,

(Bravo, Flores-Mella & Guzman 2025, eq. (PLA); Altschuler & Talwar 2023).  Its one-step
law from x is a *projected Gaussian*: atoms at a and b with masses Phi((a - m)/s) and
Phi((m - b)/s), and the N(m, s^2) density on (a, b), where m = x - eta g(x), s^2 = 2 eta.

This module gives three independent views of the chain, used to check the paper's
mixing bounds empirically:

* :func:`simulate` - seeded Monte Carlo of many chains (numpy, float64);
* :class:`GridKernel` - the transition kernel discretised on a cell grid plus the two
  atoms, whose stationary vector and T-step laws are computed by linear algebra;
* :func:`projected_gaussian_kl` - the exact KL divergence between two one-step laws
  (mpmath quadrature), the quantity bounded in Lemma C.1.

The estimator :func:`binned_tv` returns a histogram estimate of a total variation
distance together with its sampling error (see its docstring).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import mpmath
import numpy as np
from mpmath import mpf
from scipy.special import ndtr

from dpsym.errors import require, require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf

__all__ = [
    "GridKernel",
    "TVEstimate",
    "abs_subgradient",
    "binned_tv",
    "projected_gaussian_kl",
    "simulate",
]

REF = "projected Langevin algorithm (Bravo et al. 2025, eq. (PLA))"

Subgradient = Callable[[np.ndarray], np.ndarray]


def abs_subgradient(L: float = 1.0) -> Subgradient:
    """The consistent subgradient oracle of f(x) = L |x|: L sign(x), with 0 at x = 0.

    A fixed selection at the kink is the "consistent oracle" assumed in Appendix C.
    """
    return lambda x: L * np.sign(x)


def _check_interval(a: float, b: float, eta: float) -> None:
    require(a < b, "b", b, f"b > a = {a} (a nonempty interval)", REF)
    require(eta > 0, "eta", eta, "eta > 0", REF)


def simulate(x0: float, eta: float, times: Sequence[int], n_chains: int,
             grad: Subgradient, *, a: float = -1.0, b: float = 1.0,
             seed: int = 0) -> dict[int, np.ndarray]:
    """Run ``n_chains`` independent PLA chains from ``x0``; return the samples at ``times``.

    float64 Monte Carlo (a plotting/estimation path, not a bound).  The generator is
    ``numpy.random.default_rng(seed)``, so results are reproducible.
    """
    _check_interval(a, b, eta)
    require(a <= x0 <= b, "x0", x0, f"x0 in [{a}, {b}]", REF)
    n = require_integer("n_chains", n_chains, REF, minimum=1)
    ts = sorted({require_integer("T", t, REF, minimum=0) for t in times})
    rng = np.random.default_rng(seed)
    x = np.full(n, float(x0))
    out: dict[int, np.ndarray] = {}
    s = np.sqrt(2 * eta)
    t = 0
    for target in ts:
        while t < target:
            x = np.clip(x - eta * grad(x) + s * rng.standard_normal(n), a, b)
            t += 1
        out[target] = x.copy()
    return out


@dataclass(frozen=True)
class GridKernel:
    """PLA kernel on [a, b] discretised into ``cells`` equal cells plus the atoms a and b.

    State 0 is the atom a, states 1..cells the cells (represented by their midpoints),
    state cells+1 the atom b.  Row i of :attr:`matrix` is the exact one-step law from the
    representative point of state i, aggregated to the states.  The discretisation error
    is that of replacing a cell by its midpoint (O(cell width) in total variation).
    """

    eta: float
    cells: int
    a: float
    b: float
    matrix: np.ndarray
    edges: np.ndarray

    @classmethod
    def build(cls, eta: float, grad: Subgradient, cells: int = 400, *, a: float = -1.0,
              b: float = 1.0) -> GridKernel:
        """The PLA kernel: one component, mean ``x - eta g(x)``, noise ``sqrt(2 eta)``."""
        _check_interval(a, b, eta)
        return cls.mixture(eta, float(np.sqrt(2 * eta)), ((1.0, lambda x: x - eta * grad(x)),),
                           cells, a=a, b=b)

    @classmethod
    def mixture(cls, eta: float, s: float,
                components: Sequence[tuple[float, Callable[[np.ndarray], np.ndarray]]],
                cells: int = 400, *, a: float = -1.0, b: float = 1.0) -> GridKernel:
        """The kernel of ``Pi_[a,b](m(x) + s xi)`` where the mean map m is drawn from a finite
        mixture: component i has weight ``w_i`` and mean map ``m_i`` (vectorised numpy),
        ``components = ((w_1, m_1), ...)`` with weights summing to 1 (e.g. the batch of
        noisy SGD with Poisson sampling).  ``eta`` is recorded (the step)."""
        _check_interval(a, b, eta)
        require(s > 0, "s", s, "s > 0 (noise standard deviation)", REF)
        k = require_integer("cells", cells, REF, minimum=2)
        total = sum(w for w, _ in components)
        require(abs(total - 1) < 1e-12, "components", total, "weights summing to 1", REF)
        edges = np.linspace(a, b, k + 1)
        points = np.concatenate(([a], (edges[:-1] + edges[1:]) / 2, [b]))
        mat = np.zeros((k + 2, k + 2))
        for w, mean in components:
            cdf = ndtr((edges[None, :] - mean(points)[:, None]) / s)
            mat[:, 0] += w * cdf[:, 0]
            mat[:, 1:-1] += w * np.diff(cdf, axis=1)
            mat[:, -1] += w * (1 - cdf[:, -1])
        return cls(eta, k, a, b, mat, edges)

    def stationary(self) -> np.ndarray:
        """The stationary vector: the solution of pi (P - I) = 0, sum(pi) = 1.

        The kernel has a positive Gaussian density everywhere, so the chain is irreducible
        and the solution is unique; one equation of the singular system is replaced by
        the normalisation.
        """
        n = self.cells + 2
        lhs = self.matrix.T - np.eye(n)
        lhs[-1, :] = 1.0
        rhs = np.zeros(n)
        rhs[-1] = 1.0
        return np.linalg.solve(lhs, rhs)

    def laws(self, start: int, times: Sequence[int]) -> dict[int, np.ndarray]:
        """Law of the state after each T in ``times`` from state ``start``."""
        p = np.zeros(self.cells + 2)
        p[start] = 1.0
        out: dict[int, np.ndarray] = {}
        t = 0
        for target in sorted(set(times)):
            while t < target:
                p = p @ self.matrix
                t += 1
            out[target] = p.copy()
        return out

    def coarsen(self, probs: np.ndarray, bins: int) -> np.ndarray:
        """Aggregate a state vector to ``bins`` equal bins plus the two atoms."""
        require(self.cells % bins == 0, "bins", bins, f"bins divides cells = {self.cells}",
                REF)
        inner = probs[1:-1].reshape(bins, self.cells // bins).sum(axis=1)
        return np.concatenate(([probs[0]], inner, [probs[-1]]))


@dataclass(frozen=True)
class TVEstimate:
    """A histogram estimate of TV(law of the samples, reference) with its sampling error.

    ``value`` = (1/2) sum_k |phat_k - p_k| over the bins.  ``sd_bound`` = 1/sqrt(2N) bounds
    its standard deviation (Efron-Stein: moving one sample changes ``value`` by at most
    1/N).  ``bias_bound`` = (1/2) sum_k sqrt(phat_k (1 - phat_k) / N) is the plug-in size of
    the upward bias E|phat_k - p_k| <= sqrt(p_k (1 - p_k)/N), i.e. the noise floor: a
    value below it is indistinguishable from 0.  Binning can only lower TV, so the
    binned TV is itself a lower bound on the true TV.
    """

    value: float
    sd_bound: float
    bias_bound: float
    n: int


def binned_tv(samples: np.ndarray, reference: np.ndarray, *, a: float = -1.0,
              b: float = 1.0) -> TVEstimate:
    """Estimate TV between the samples' law and ``reference`` (atoms a, b plus equal bins).

    ``reference`` has ``bins + 2`` entries: mass at a, the bins of (a, b), mass at b.
    """
    bins = len(reference) - 2
    require(bins >= 1, "reference", f"{len(reference)} entries", "at least 3 entries", REF)
    n = len(samples)
    require(n >= 1, "samples", n, "at least one sample", REF)
    at_a = np.count_nonzero(samples <= a)
    at_b = np.count_nonzero(samples >= b)
    inner = samples[(samples > a) & (samples < b)]
    hist, _ = np.histogram(inner, bins=bins, range=(a, b))
    phat = np.concatenate(([at_a], hist, [at_b])) / n
    value = 0.5 * float(np.abs(phat - reference).sum())
    bias = 0.5 * float(np.sqrt(phat * (1 - phat) / n).sum())
    return TVEstimate(value, float(1 / np.sqrt(2 * n)), bias, n)


def projected_gaussian_kl(m1: Number, m2: Number, s2: Number, a: Number = -1, b: Number = 1,
                          dps: int = DEFAULT_DPS) -> mpf:
    """KL( Pi_[a,b] N(m1, s2) || Pi_[a,b] N(m2, s2) ), exactly (rounded up).

    Both laws have atoms at a, b and the Gaussian densities on (a, b); on (a, b) the
    log-likelihood ratio is linear, (m1 - m2)(2x - m1 - m2)/(2 s2), so the interior part
    is a Gaussian integral done by mpmath quadrature on [a, b] (scaled to O(1)).  By data
    processing the value is at most (m1 - m2)^2 / (2 s2).
    """
    with precision(dps + GUARD_DPS):
        m1v, m2v = to_mpf(m1, "m1", REF), to_mpf(m2, "m2", REF)
        sv2 = to_mpf(s2, "s2", REF)
        av, bv = to_mpf(a, "a", REF), to_mpf(b, "b", REF)
        require(sv2 > 0, "s2", s2, "s2 > 0", REF)
        require(av < bv, "b", b, f"b > a = {a}", REF)
        s = mpmath.sqrt(sv2)

        def atoms(m: mpf) -> tuple[mpf, mpf]:
            return mpmath.ncdf((av - m) / s), mpmath.ncdf((m - bv) / s)

        pa1, pb1 = atoms(m1v)
        pa2, pb2 = atoms(m2v)
        total = mpf(0)
        for p1, p2 in ((pa1, pa2), (pb1, pb2)):
            if p1 > 0:
                total += p1 * (mpmath.log(p1) - mpmath.log(p2))

        def integrand(x: mpf) -> mpf:
            dens = mpmath.npdf(x, m1v, s)
            return dens * (m1v - m2v) * (2 * x - m1v - m2v) / (2 * sv2)

        inner_mass = 1 - pa1 - pb1
        if inner_mass > 0:
            pts = sorted({av, bv, min(max(m1v, av), bv)})
            total += mpmath.quad(integrand, pts)
        return round_up(max(total, mpf(0)), dps)
