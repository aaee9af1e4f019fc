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
from matplotlib.figure import Figure

from dpsym.errors import require, require_integer
from dpsym.figures import PALETTE, figure, new_figure
from dpsym.shifts import lemma_c6_shifts

__all__ = ["FIGURE_3", "coupled_trajectories", "figure_3"]

REF = "Bok et al. 2024, eq. (3.5)"

#: Figure 3's instance (a schematic in the paper; here real trajectories).
FIGURE_3 = {"t": 12, "eta": "0.15", "m": "1", "s": "0.25", "sigma": "0.3", "seed": 3}


def coupled_trajectories(t: int, eta: str, m: str, s: str, sigma: str,
                         seed: int = 0) -> dict[str, np.ndarray]:
    """Simulate X, X' and the shifted interpolated process X~ (float64, seeded).

    Returns the three paths (shape (t + 1, 2)), the Lemma C.6 distances z_k and the
    measured |X_k - X~_k|."""
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


@figure("bok2024", "figure_3", "The shifted interpolated process on coupled trajectories (Fig. 3)")
def figure_3() -> Figure:
    """Figure 3: X (dataset S), X' (dataset S') and the interpolated X~ that starts on X' and
    is pulled onto X by the end (left); |X_k - X~_k| against Lemma C.6's z_k (right)."""
    f = FIGURE_3
    r = coupled_trajectories(f["t"], f["eta"], f["m"], f["s"], f["sigma"], f["seed"])
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=3.6)
    for key, label, col, ls in (("X", r"$X_k$ (on $S$)", PALETTE[0], "-"),
                                ("Xprime", r"$X'_k$ (on $S'$)", PALETTE[1], "-"),
                                ("Xtilde", r"$\tilde X_k$ (shifted interpolation)", PALETTE[2],
                                 "--")):
        p = r[key]
        ax.plot(p[:, 0], p[:, 1], color=col, linestyle=ls, marker="o", markersize=3, label=label)
    for k in range(0, f["t"] + 1, 3):
        ax.plot([r["X"][k, 0], r["Xtilde"][k, 0]], [r["X"][k, 1], r["Xtilde"][k, 1]],
                color="0.6", linewidth=0.8)
    end = r["X"][-1]
    ax.annotate(r"$\tilde X_t = X_t$", end, textcoords="offset points", xytext=(8, -12))
    ax.set_xlabel("coordinate 1")
    ax.set_ylabel("coordinate 2")
    ax.set_title("Coupled NoisyGD trajectories (c = 0.85)")
    ax.legend(fontsize=7)
    ks = np.arange(f["t"] + 1)
    ax2.plot(ks, r["z"], color=PALETTE[0], label=r"$z_k$ (Lemma C.6)")
    ax2.plot(ks, r["distance"], color=PALETTE[1], linestyle="none", marker="x",
             label=r"$|X_k - \tilde X_k|$ (simulated)")
    ax2.set_xlabel("step k")
    ax2.set_ylabel("distance")
    ax2.set_title("Distance to X: simulated vs Lemma C.6")
    ax2.legend(fontsize=7)
    return fig
