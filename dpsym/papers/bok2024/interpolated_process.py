"""The shifted interpolated process (Sec. 3, eq. (3.5)) run on real coupled trajectories,
and Figure 3 drawn from them.

Setting: NoisyGD on the strongly convex quadratic f(x) = m |x|^2 / 2 in the plane, so the
update phi(x) = (1 - eta m) x is c-Lipschitz with c = 1 - eta m; the neighbouring dataset
shifts every gradient step by a fixed vector, phi'(x) = phi(x) - v with |v| = s.  With one
shared noise sequence Z_k ~ N(0, (eta sigma)^2 I):

    X_{k+1}  = phi(X_k) + Z_{k+1},            X'_{k+1} = phi'(X'_k) + Z_{k+1},
    X~_{k+1} = lambda_{k+1} phi(X_k) + (1 - lambda_{k+1}) phi'(X~_k) + Z_{k+1},

starting together (tau = 0) and with lambda_k of Lemma C.6.  Then |X_k - X~_k| = z_k of
Lemma C.6 exactly (the shift v is a fixed direction, so every contraction is tight), and
X~_t = X_t: the interpolated process starts on the X' trajectory and ends on X.
"""

from __future__ import annotations

import numpy as np

from dpsym.errors import require, require_integer
from dpsym.papers.registry import cite
from dpsym.shifts import lemma_c6_shifts

__all__ = ["FIGURE_3", "coupled_trajectories"]

PAPER = "bok2024"
REF = cite(PAPER, "eq. (3.5)")

#: Figure 3's instance (a schematic in the paper; here real trajectories).
FIGURE_3 = {"t": 12, "eta": "0.15", "m": "1", "s": "0.25", "sigma": "0.3", "seed": 3}


def coupled_trajectories(t: int, eta: str, m: str, s: str, sigma: str,
                         seed: int = 0) -> dict[str, np.ndarray]:
    """Simulate X, X' and the shifted interpolated process X~ (float64, seeded).

    Returns the three paths (shape (t + 1, 2)), the Lemma C.6 distances z_k and the
    measured |X_k - X~_k|.

    >>> r = coupled_trajectories(12, "0.15", "1", "0.25", "0.3", seed=3)
    >>> bool(np.max(np.abs(r["z"] - r["distance"])) < 1e-12)
    True
    >>> bool(np.allclose(r["X"][-1], r["Xtilde"][-1]))
    True
    """
    t = require_integer("t", t, REF, minimum=1)
    c = 1 - float(eta) * float(m)
    require(0 < c < 1, "eta m", float(eta) * float(m), "0 < eta m < 1 (so 0 < c < 1)", REF)
    require(float(sigma) > 0, "sigma", sigma, "sigma > 0", REF)
    shifts = lemma_c6_shifts(repr(c), s, t, dps=30)
    lam = [float(x) for x in shifts.lam]
    v = np.array([float(s), 0.0])
    rng = np.random.default_rng(seed)
    noise = rng.normal(scale=float(eta) * float(sigma), size=(t, 2))
    x = np.zeros((t + 1, 2))
    xp = np.zeros((t + 1, 2))
    xt = np.zeros((t + 1, 2))
    x[0] = xp[0] = xt[0] = np.array([1.0, 0.6])
    for k in range(t):
        x[k + 1] = c * x[k] + noise[k]
        xp[k + 1] = c * xp[k] - v + noise[k]
        xt[k + 1] = lam[k] * (c * x[k]) + (1 - lam[k]) * (c * xt[k] - v) + noise[k]
    return {"X": x, "Xprime": xp, "Xtilde": xt, "z": np.array([float(z) for z in shifts.z]),
            "distance": np.linalg.norm(x - xt, axis=1)}
