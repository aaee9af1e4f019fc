"""The shifted interpolated processes in the proofs of Thm C.13 (hence Thm 4.9) and Thm 4.10,
simulated (App. C.4.2, Figure 5).

NoisySGD is written as a stochastic CNI (C.3): the batch B_k is drawn as a set R_k of b - 1
examples other than i*, a candidate C_k, and V_k ~ Ber(b/n) deciding whether i* replaces
C_k.  With the maps (C.4)

    psi_S(x) = x - (eta/b) sum_{i in R u {C}} grad f_i(x),
    phi_S(x) = x - (eta/b) (grad f_{i*} + sum_{i in R} grad f_i)(x),

the iterate is X_{k+1} = Pi_K(psi_{S_k}(X_k) + V_k (phi_{S_k} - psi_{S_k})(X_k) + Z_{k+1}),
Z ~ N(0, eta^2 sigma^2 I), and the same with f'_{i*} (phi') for the neighbouring dataset.

* Thm C.13 (strongly convex, K = R^d): X~_{k+1} = psi(X~_k) + lambda_{k+1} V_k (phi(X_k) -
  psi(X~_k)) + Z_{k+1}, X~_0 = X_0, lambda_k = a_k/(z_k + a_k); the proof's invariant is
  |X~_k - X_k| <= z_k, z_{k+1} = c z_k + eta L/b - a_{k+1} (k <= t - 1).
* Thm 4.10 (convex, K of diameter D): X~_tau = X'_tau and X~_{k+1} = Pi_K(psi(X~_k) +
  lambda_{k+1} (psi(X_k) - psi(X~_k)) + V_k (phi - psi)(X_k) + Z_{k+1}), lambda_{k+1} =
  1/(t - k); the invariant is |X~_k - X_k| <= D (t - k)/(t - tau), and X~_t = X_t.

:func:`coupled_run` simulates both processes with the same batches, subsampling indicators
and noise for a planar instance (quadratic or linear losses whose gradients differ by at most
L) and returns the trajectories with the distances and their bounds.  The figure of
:mod:`.figures_noisysgd` draws it; the tests check the invariants.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dpsym.errors import require, require_integer
from dpsym.papers.registry import cite

__all__ = ["CoupledRun", "coupled_run"]

PAPER = "bok2024"


@dataclass(frozen=True)
class CoupledRun:
    """Trajectories (rows are steps 0..t) of NoisySGD on the two datasets (X, X'), the shifted
    interpolated process(es) (X~, and X~' for Thm C.13), the indicators V (and V'), the
    distances |X~_k - X_k| and their bounds z_k (NaN where undefined)."""

    theorem: str
    X: np.ndarray
    X_prime: np.ndarray
    X_tilde: np.ndarray
    X_tilde_prime: np.ndarray | None
    V: np.ndarray
    V_prime: np.ndarray
    distance: np.ndarray
    bound: np.ndarray
    tau: int

    @property
    def worst_slack(self) -> float:
        """max_k (|X~_k - X_k| - z_k) over the steps where the invariant is claimed (<= 0)."""
        ok = np.isfinite(self.bound)
        return float(np.max(self.distance[ok] - self.bound[ok]))


def _project(x: np.ndarray, radius: float | None) -> np.ndarray:
    if radius is None:
        return x
    r = float(np.linalg.norm(x))
    return x if r <= radius else x * (radius / r)


def coupled_run(theorem: str = "C.13", n: int = 12, b: int = 3, t: int = 24, tau: int = 12,
                L: float = 1.0, eta: float = 0.3, m: float = 0.5, sigma: float = 0.15,
                D: float = 2.0, a: Sequence[float] | None = None, seed: int = 0,
                coupled_datasets: bool = True, drift: Sequence[float] = (0.0, 0.0),
                spread: float = 1.0, extreme: bool = False) -> CoupledRun:
    """Simulate the coupling of Thm C.13 (``theorem="C.13"``, a_k of Thm 4.9 by default: eta
    L/b for tau <= k <= t-1, else 0) or of Thm 4.10 (``theorem="4.10"``) in the plane.

    Losses: grad f_i(x) = m x + g + u_i with |u_i| <= spread L/2 (spread <= 1), and
    grad f_{i*} = m x + g - (L/2) e, grad f'_{i*} = m x + g + (L/2) e (g = ``drift``), so every
    two gradients differ by at most L (Def. 2.10); ``extreme`` puts every u_i at (L/2) e, so
    that swapping i* in moves the update by the full eta L/b (the worst case of the proofs);
    c = |1 - eta m| (Lemma 2.8 with M = m).  For Thm 4.10, m = 0 (linear losses, c = 1) and
    K is the disc of diameter D.  ``coupled_datasets`` uses the same batches, indicators and
    noise for X and X' (any coupling of the two runs is allowed; this one draws clearly).
    """
    ref = cite(PAPER, "Thm C.13 / Thm 4.10, proofs")
    require(theorem in ("C.13", "4.10"), "theorem", theorem, "'C.13' or '4.10'", ref)
    n = require_integer("n", n, ref, minimum=2)
    b = require_integer("b", b, ref, minimum=1)
    t = require_integer("t", t, ref, minimum=2)
    tau = require_integer("tau", tau, ref, minimum=0 if theorem == "4.10" else 1)
    require(b < n, "b", b, f"b < n = {n}", ref)
    require(tau <= t - 1, "tau", tau, f"tau <= t - 1 = {t - 1}", ref)
    require(0 <= spread <= 1, "spread", spread, "0 <= spread <= 1", ref)
    rng = np.random.default_rng(seed)
    conv = theorem == "4.10"
    mm = 0.0 if conv else m
    c = abs(1 - eta * mm)
    radius = D / 2 if conv else None
    e = np.array([1.0, 0.0])
    others = [i for i in range(n) if i != 0]          # i* = 0
    ang = rng.uniform(0, 2 * np.pi, n)
    rad = spread * (L / 2) * np.sqrt(rng.uniform(0, 1, n))
    g = np.asarray(drift, dtype=float)
    u = g + np.c_[rad * np.cos(ang), rad * np.sin(ang)]
    if extreme:
        u[:] = g + (L / 2) * e
    u[0] = g - (L / 2) * e
    u_star_prime = g + (L / 2) * e
    s = eta * L / b
    if not conv:
        a_seq = np.array([s if k >= tau else 0.0 for k in range(1, t)]) if a is None \
            else np.asarray(a, dtype=float)
        require(a_seq.shape == (t - 1,) and bool(np.all((a_seq >= 0) & (a_seq <= s + 1e-15))),
                "a", a, f"t - 1 = {t - 1} values in [0, eta L/b]", ref)

    def grad(i: int, x: np.ndarray, prime: bool) -> np.ndarray:
        ui = u_star_prime if (prime and i == 0) else u[i]
        return mm * x + ui

    def psi(R: list[int], C: int, x: np.ndarray) -> np.ndarray:
        return x - (eta / b) * sum(grad(i, x, False) for i in [*R, C])

    def phi(R: list[int], x: np.ndarray, prime: bool) -> np.ndarray:
        return x - (eta / b) * (grad(0, x, prime) + sum(grad(i, x, False) for i in R))

    def draw() -> tuple[list[int], int, bool, np.ndarray]:
        A1 = list(rng.choice(others, size=b, replace=False))
        C = A1.pop(int(rng.integers(b)))
        return A1, C, bool(rng.random() < b / n), rng.normal(0, eta * sigma, 2)

    X = np.zeros((t + 1, 2))
    Xp = np.zeros((t + 1, 2))
    Xt = np.full((t + 1, 2), np.nan)
    Xtp = np.full((t + 1, 2), np.nan) if not conv else None
    V, Vp = np.zeros(t, bool), np.zeros(t, bool)
    z = np.full(t + 1, np.nan)
    if not conv:
        Xt[0] = X[0]
        Xtp[0] = Xp[0]
        z[0] = 0.0
    for k in range(t):
        R, C, v, Z = draw()
        if coupled_datasets:
            Rp, Cp, vp, Zp = R, C, v, Z
        else:
            Rp, Cp, vp, Zp = draw()
        V[k], Vp[k] = v, vp
        X[k + 1] = _project(psi(R, C, X[k]) + v * (phi(R, X[k], False) - psi(R, C, X[k])) + Z,
                            radius)
        Xp[k + 1] = _project(psi(Rp, Cp, Xp[k]) + vp * (phi(Rp, Xp[k], True)
                                                        - psi(Rp, Cp, Xp[k])) + Zp, radius)
        if conv:
            if k == tau:
                Xt[tau] = Xp[tau]
                z[tau] = D
            if k >= tau:
                lam = 1.0 / (t - k)
                base = psi(R, C, Xt[k])
                Xt[k + 1] = _project(base + lam * (psi(R, C, X[k]) - base)
                                     + v * (phi(R, X[k], False) - psi(R, C, X[k])) + Z, radius)
                z[k + 1] = D * (t - k - 1) / (t - tau)
        elif k < t - 1:
            ak = a_seq[k]                               # a_{k+1}
            z[k + 1] = c * z[k] + s - ak
            lam = ak / (z[k + 1] + ak) if z[k + 1] + ak > 0 else 0.0
            Xt[k + 1] = psi(R, C, Xt[k]) + lam * v * (phi(R, X[k], False) - psi(R, C, Xt[k])) + Z
            Xtp[k + 1] = (psi(Rp, Cp, Xtp[k])
                          + lam * vp * (phi(Rp, Xp[k], True) - psi(Rp, Cp, Xtp[k])) + Zp)
    dist = np.linalg.norm(Xt - X, axis=1)
    return CoupledRun("Thm 4.10" if conv else "Thm C.13", X, Xp, Xt, Xtp, V, Vp, dist, z, tau)
