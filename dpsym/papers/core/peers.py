"""The peer audit's figure: the relative error of the peers' RDP against q and alpha.

The data are the recorded peer values and the exact values (:mod:`dpsym.peers.audit`);
the chapter ``notebooks/core/01_peer_audit.ipynb`` shows it.
"""

from __future__ import annotations

import matplotlib.lines
import matplotlib.ticker
from matplotlib.figure import Figure

from dpsym.figures import figure, new_figure
from dpsym.peers.audit import relative_error_table

__all__ = ["ALPHA_MAX", "CEILING", "FLOOR", "figure_peer_relative_error",
           "relative_error_series"]

#: Where an exact agreement (relative error 0) is drawn: below float64's resolution.
FLOOR = 1e-18
#: Where an infinite value (an order the peer dropped) is drawn.
CEILING = 1e4

#: library -> (colour, line style); coinciding curves (Opacus and prv-accountant share a
#: series; autodp's two methods agree below alpha = 2) are told apart by the dashes.
_STYLE = {
    "dp-accounting": ("#d1495b", "-"),
    "Opacus": ("#1b6ca8", "-"),
    "prv-accountant": ("#2e8b57", (0, (4, 3))),
    "autodp (default)": ("#6c4f9c", "-"),
    "autodp (zoo)": ("#edae49", (0, (4, 3))),
}
#: The largest order drawn (the recorded grid of the figure).
ALPHA_MAX = 32.0


def relative_error_series(sigma: float = 1.0) -> dict[str, dict[float, list[tuple]]]:
    """library -> q -> [(alpha, |relative error| or FLOOR, sign, is_inf)], one step."""
    out: dict[str, dict[float, list[tuple]]] = {}
    for lib, rows in relative_error_table(sigma=sigma).items():
        for r in rows:
            if r["alpha"] > ALPHA_MAX:
                continue
            e = r["rel_error"]
            inf = r["value"] == "inf"
            mag = CEILING if inf else (FLOOR if e is None or e == 0 else
                                       max(FLOOR, abs(float(e))))
            sign = 1 if inf or (e is not None and e > 0) else (-1 if e is not None and e < 0
                                                               else 0)
            out.setdefault(lib, {}).setdefault(r["q"], []).append((r["alpha"], mag, sign, inf))
    return out


@figure("core", "peer_relative_error", "Relative error of the peers' Poisson-subsampled "
        "Gaussian RDP against the exact value, by order alpha, at sigma = 1 and three "
        "sampling rates q (filled: above exact; open: below; crosses: the peer returns inf; "
        "Opacus and prv-accountant compute the same series)")
def figure_peer_relative_error() -> Figure:
    """|peer - exact| / exact of each library's one-step RDP, one panel per q (sigma = 1).

    The orders are the recorded ones, so each line joins measurements (tagged
    ``discrete``); colour is the library, a filled marker a value above the exact one, an
    open marker one below, a cross an order the library drops (inf).
    """
    data = relative_error_series()
    qs = sorted({q for series in data.values() for q in series})
    fig, axes = new_figure(ncols=len(qs), width=3.4, height=3.6)
    for ax, q in zip(axes, qs, strict=True):
        for lib, series in data.items():
            pts = sorted(series.get(q, []))
            if not pts:
                continue
            colour, dashes = _STYLE[lib]
            finite = [(a, m) for a, m, _, inf in pts if not inf]
            (line,) = ax.plot([a for a, _ in finite], [m for _, m in finite], color=colour,
                              linewidth=1.3, linestyle=dashes, label=lib)
            line.set_gid("discrete")
            for a, m, sgn, inf in pts:
                if inf:
                    ax.plot([a], [m], marker="x", color=colour, markersize=7, linestyle="None")
                else:
                    ax.plot([a], [m], marker="o", markersize=4, linestyle="None",
                            color=colour, markerfacecolor=colour if sgn > 0 else "white")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(FLOOR / 3, CEILING * 10)
        ax.set_xlim(1.05, ALPHA_MAX * 1.1)
        ax.set_xticks([1.1, 1.5, 2, 3, 5, 10, 30])
        ax.set_xticklabels(["1.1", "1.5", "2", "3", "5", "10", "30"])
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel(r"order $\alpha$")
        ax.set_title(f"q = {q:g}")
        ax.axhline(2.0**-52, color="0.6", linewidth=0.8, linestyle=":")
    axes[0].set_ylabel("|peer - exact| / exact")
    handles = [matplotlib.lines.Line2D([], [], color=c, linestyle=ls, marker="o", label=lib)
               for lib, (c, ls) in _STYLE.items() if lib in data]
    handles += [matplotlib.lines.Line2D([], [], color="0.3", marker="o", linestyle="None",
                                        label="filled: above exact"),
                matplotlib.lines.Line2D([], [], color="0.3", marker="o", linestyle="None",
                                        markerfacecolor="white", label="open: below exact"),
                matplotlib.lines.Line2D([], [], color="0.3", marker="x", linestyle="None",
                                        label="inf (order dropped)"),
                matplotlib.lines.Line2D([], [], color="0.6", linestyle=":",
                                        label=f"float64 epsilon ({2.0**-52:.1e})")]
    fig.legend(handles=handles, loc="outside lower center", ncols=5)
    return fig
