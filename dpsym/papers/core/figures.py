"""Figures for the foundational results (the tour notebook): conversions and precision.

Not a paper: the conversions every paper relies on, drawn side by side, and the
precision story of the Poisson-subsampled Gaussian RDP against float64 peer libraries.
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib.ticker
import numpy as np
from matplotlib.figure import Figure
from mpmath import mpf

from dpsym.figures import figure, new_figure
from dpsym.numerics import agreeing_digits, precision
from dpsym.papers.core import peers  # noqa: F401  (registers core/peer_relative_error)
from dpsym.rdp import poisson_gaussian_rdp
from dpsym.rdp.conversions import rdp_to_epsilon

__all__ = [
    "CONVERSION_STUDY",
    "CURVE_STEPS",
    "PEER_REFERENCE",
    "conversion_study",
    "figure_conversions",
    "figure_peer_precision",
    "load_peer_reference",
    "peer_errors",
]

#: DP-SGD setting of the conversion study: q = 0.01, sigma = 1, delta = 1e-5,
#: integer orders 2..16, 20, 24, 32, 48, 64, over these numbers of steps.
CONVERSION_STUDY = {"q": "0.01", "sigma": "1", "delta": "1e-5",
                    "orders": (*range(2, 17), 20, 24, 32, 48, 64),
                    "steps": (10, 100, 1000, 10000)}
#: Steps at which the conversion figure draws its curves (21 per three decades).
CURVE_STEPS = tuple(round(10 ** (1 + 3 * i / 20)) for i in range(21))

#: Float64 values of peer libraries, recorded by tests/reference/make_peer_poisson_rdp.py.
PEER_REFERENCE = (Path(__file__).resolve().parents[2] / "data"
                  / "peer_poisson_rdp.json")


def conversion_study(dps: int = 20, steps: tuple[int, ...] | None = None
                     ) -> dict[str, list[mpf]]:
    """eps(delta) of the study's runs under each conversion: {conversion: [eps per steps]}.

    ``steps`` defaults to the study's (10, 100, 1000, 10000). The per-step RDP is computed
    once per order and scaled by the number of steps.
    """
    s = CONVERSION_STUDY
    one = [poisson_gaussian_rdp(s["q"], s["sigma"], a, dps=dps) for a in s["orders"]]
    out: dict[str, list[mpf]] = {}
    for conv in ("mironov2017", "balle2020", "asoodeh2021"):
        vals = []
        for t in steps or s["steps"]:
            with precision(dps):
                rdp = [t * v for v in one]
            vals.append(rdp_to_epsilon(s["orders"], rdp, s["delta"], conversion=conv, dps=dps)[0])
        out[conv] = vals
    return out


_CONVERSION_STYLE = {
    "mironov2017": ("Mironov 2017, Prop. 3", "#444444", ":"),
    "balle2020": ("Balle et al. 2020, Thm 21", "#1b6ca8", "--"),
    "asoodeh2021": ("optimal (Asoodeh et al. 2021)", "#d1495b", "-"),
}


@figure("core", "conversions", "RDP -> (eps, delta) on DP-SGD (q = 0.01, sigma = 1, "
        "delta = 1e-5): eps of the three conversions against the number of steps, and the "
        "share of eps the tighter two save over Mironov 2017")
def figure_conversions() -> Figure:
    """eps vs steps for DP-SGD (q=0.01, sigma=1, delta=1e-5) under each conversion."""
    data = conversion_study(steps=CURVE_STEPS)
    steps = np.array(CURVE_STEPS, dtype=float)
    fig, (ax, ax2) = new_figure(ncols=2, width=4.0, height=3.3)
    for conv, vals in data.items():
        label, colour, ls = _CONVERSION_STYLE[conv]
        ax.plot(steps, [float(v) for v in vals], color=colour, linestyle=ls, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.yaxis.set_minor_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.set_xlabel("steps T")
    ax.set_ylabel(r"$\varepsilon$ at $\delta = 10^{-5}$")
    ax.set_title(r"DP-SGD, $q = 0.01$, $\sigma = 1$")
    ax.legend(loc="upper left")
    base = data["mironov2017"]
    for conv in ("balle2020", "asoodeh2021"):
        label, colour, ls = _CONVERSION_STYLE[conv]
        ax2.plot(steps, [float(1 - v / b) * 100 for v, b in zip(data[conv], base, strict=True)],
                 color=colour, linestyle=ls, label=label)
    ax2.set_xscale("log")
    ax2.set_xlabel("steps T")
    ax2.set_ylabel(r"$\varepsilon$ saved vs Mironov 2017 (%)")
    ax2.set_title("Relative gain of the tighter conversions")
    ax2.set_ylim(bottom=0)
    ax2.legend(loc="lower right")
    return fig


def load_peer_reference(path: Path = PEER_REFERENCE) -> dict:
    """The recorded float64 peer values (see tests/reference/)."""
    return json.loads(path.read_text())


def peer_errors(ref: dict, dps: int = 40) -> list[dict]:
    """For each integer-order peer record: the exact value and the peer's relative error."""
    out = []
    cache: dict[tuple, mpf] = {}
    for r in ref["records"]:
        a = r["alpha"]
        if r["error"] or r["value"] in ("inf", "nan") or a != int(a):
            continue
        key = (r["q"], r["sigma"], a)
        if key not in cache:
            cache[key] = poisson_gaussian_rdp(repr(r["q"]), repr(r["sigma"]), int(a), dps=dps)
        exact = cache[key]
        with precision(dps):  # the recorded value is read at dps, not the caller's precision
            value = mpf(r["value"])
            rel = abs(value - exact) / exact
        out.append({**r, "exact": exact, "rel_error": rel,
                    "digits": agreeing_digits(value, exact, cap=17)})
    return out


@figure("core", "peer_precision", "Correct significant digits of float64 peer libraries' "
        "Poisson-subsampled Gaussian RDP (alpha = 2 and 32) against dpsym's exact value, by "
        "noise multiplier, at q = 1e-7 and q = 1e-3")
def figure_peer_precision(errs: list[dict] | None = None) -> Figure:
    """Correct digits of float64 peers' RDP at q = 1e-7 and q = 1e-3, by sigma (alpha = 2, 32).

    The peers were run at the recorded sigma values only, so each line joins measurements
    (tagged ``discrete``); colour is the library, line style the order.
    """
    errs = errs if errs is not None else peer_errors(load_peer_reference())
    libs = sorted({e["library"] for e in errs})
    colours = dict(zip(libs, ("#1b6ca8", "#d1495b", "#2e8b57", "#6c4f9c"), strict=False))
    fig, axes = new_figure(ncols=2, width=4.0, height=3.5, sharey=True)
    for ax, q in zip(axes, (1e-7, 1e-3), strict=True):
        for lib in libs:
            for alpha, ls in ((2, "-"), (32, ":")):
                pts = sorted((e["sigma"], e["digits"]) for e in errs
                             if e["library"] == lib and e["q"] == q and e["alpha"] == alpha)
                if pts:
                    (line,) = ax.plot(*zip(*pts, strict=True), linestyle=ls, marker="o",
                                      markersize=3, color=colours[lib],
                                      label=f"{lib}, alpha={alpha}")
                    line.set_gid("discrete")
        ax.set_xscale("log")
        ax.set_xlabel(r"noise multiplier $\sigma$")
        ax.set_title(f"q = {q:g}")
        ax.set_ylim(-0.5, 17)
    axes[0].set_ylabel("correct significant digits (of 16)")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=3)
    return fig
