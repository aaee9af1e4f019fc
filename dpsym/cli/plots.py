"""The privacy profile of a run, drawn from an accountant (``dpsym account --plot FILE``).

Left: delta(eps) -- the certified band (lower, upper) of the PLD accountant, or the RDP upper
bound, or the GDP curve.  Right: eps(delta) against the number of steps, by the RDP
accountant (certified upper bounds) on the run scaled to fewer steps, with the final PLD
interval when the run was accounted by PLD.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from matplotlib.figure import Figure

__all__ = ["privacy_profile_figure"]


def _scaled(acc: object, frac: Fraction) -> object:
    """A copy of the accountant's events with every count scaled by ``frac`` (>= 1 step)."""
    from dpsym.accounting import RdpAccountant

    out = RdpAccountant(acc.relation)
    for leaf, c in acc.leaves:
        out.compose(leaf, max(1, round(c * frac)))
    return out


def privacy_profile_figure(acc: object, result: object) -> Figure:
    """delta(eps) of the run (with its interval) and eps against steps, as one figure."""
    from dpsym.accounting import GdpAccountant, PldAccountant, RdpAccountant
    from dpsym.figures import PALETTE, new_figure
    from dpsym.rdp.conversions import rdp_to_delta

    fig, (ax1, ax2) = new_figure(ncols=2, width=4.4, height=3.4)
    eps_at = float(result.upper) if hasattr(result, "upper") else float(result.value)
    if getattr(result, "target", "epsilon") == "delta":
        eps_at = float(result.given)
    grid = np.linspace(0.0, max(2.0 * eps_at, 0.5), 60)
    if isinstance(acc, PldAccountant):
        band = [result.delta_band(Fraction(float(e)).limit_denominator(10**9)) for e in grid]
        lo = np.array([float(b[0]) for b in band])
        hi = np.array([float(b[1]) for b in band])
        ax1.fill_between(grid, np.maximum(lo, 1e-300), hi, color=PALETTE[0], alpha=0.35,
                         label="certified interval (PLD)")
        ax1.plot(grid, hi, color=PALETTE[0], label="upper end")
    elif isinstance(acc, RdpAccountant):
        orders = acc.default_orders()
        rdp = acc.rdp(orders)
        dl = [float(rdp_to_delta(orders, rdp, float(e), dps=15)[0]) for e in grid]
        ax1.plot(grid, dl, color=PALETTE[0], label="RDP upper bound")
    elif isinstance(acc, GdpAccountant):
        from dpsym.fdp import gdp_delta

        mu, cert = acc.mu()
        ax1.plot(grid, [float(gdp_delta(mu, float(e), dps=15)) for e in grid],
                 color=PALETTE[0], label="GDP" + ("" if cert else " (CLT, not a bound)"))
    ax1.set_yscale("log")
    ax1.set_xlabel(r"$\varepsilon$")
    ax1.set_ylabel(r"$\delta(\varepsilon)$")
    ax1.set_title("privacy profile")
    ax1.legend(loc="lower left")

    delta = float(result.given) if result.target == "epsilon" else None
    if delta is not None and acc is not None:
        fracs = [Fraction(k, 12) for k in range(1, 13)]
        steps, eps = [], []
        for f in fracs:
            sub = _scaled(acc, f)
            steps.append(sum(c for _, c in sub.leaves))
            eps.append(float(sub.get_epsilon(delta).value))
        ax2.plot(steps, eps, marker="o", markersize=3, color=PALETTE[1],
                 label="RDP (certified upper bound)")
        if isinstance(acc, PldAccountant):
            total = sum(c for _, c in acc.leaves)
            ax2.errorbar([total], [float(result.upper)], yerr=[[float(result.width)], [0]],
                         fmt="s", color=PALETTE[0], capsize=3, label="PLD interval")
        ax2.set_xlabel("steps")
        ax2.set_ylabel(rf"$\varepsilon$ at $\delta$ = {delta:g}")
        ax2.set_title("privacy loss along the run")
        ax2.legend(loc="lower right")
    else:
        ax2.set_axis_off()
    return fig
