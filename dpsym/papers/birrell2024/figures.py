"""The figures of Birrell et al. 2024 (arXiv:2408.10456), redrawn from dpsym's evaluations.

``figure_N`` is the paper's Figure N (``figure_4_top``, and ``*_proxy`` for the CPU proxies
of the GPU experiments); the others say what they show.  The data come from the section
modules (cached, so a chapter that prints a curve's values and then shows the figure
computes them once); this module only draws.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from dpsym.experiments.dpsgd_proxy import load_data
from dpsym.figures import figure, new_figure
from dpsym.papers.birrell2024 import add_remove as ar
from dpsym.papers.birrell2024 import fswr
from dpsym.papers.birrell2024 import poisson_replace_one as pr
from dpsym.papers.birrell2024 import replace_one as ro
from dpsym.papers.birrell2024 import sampling as sa
from dpsym.papers.birrell2024 import training as tr
from dpsym.sampling import batch_size_law

__all__ = [
    "eq22_variance_ratio",
    "figure_1",
    "figure_2",
    "figure_3",
    "figure_4_bottom_proxy",
    "figure_4_top",
    "figure_5_proxy",
    "figure_6",
    "figure_7",
    "figure_8",
    "figure_9",
    "figure_10_proxy",
    "thm_c_9_exact_over_bound",
]

PAPER = "birrell2024"
_SETTING = r"$\sigma=6$, $|B|=120$, $|D|=50{,}000$"
#: One colour per bound across every figure of the paper.
C_FSWOR, C_WANG_UP, C_WANG_LOW, C_POISSON, C_FSWR = ("#1b6ca8", "#d1495b", "#6c4f9c",
                                                      "#2e8b57", "#edae49")
_SCHEME = {"fswor": ("#1b6ca8", "fixed size (FSwoR)"), "poisson": ("#d1495b", "Poisson")}


def _outside(ax: object, ncols: int = 2) -> None:
    """The legend below the axes, off the data."""
    ax.figure.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=ncols)


@figure(PAPER, "figure_1", "Fig. 1: FSwR RDP lower bound (Thm 3.7) vs alpha, sigma = 6, "
                           "q = 0.001, |B| = 20..80, exact and with the paper's truncation")
def figure_1() -> Figure:
    """Thm 3.7 at alpha = 2..10 for each |B|: exact (lines joining the integer orders) and
    the paper's truncation T_k = {0, 1, 2, |B|} (crosses)."""
    exact, trunc = fswr.figure_1_values("exact"), fswr.figure_1_values("figure1")
    alphas = list(range(2, 11))
    fig, ax = new_figure(width=5.4, height=4.4)
    for i, b in enumerate(fswr.BATCHES_FIG1):
        color = f"C{i}"
        (line,) = ax.plot(alphas, [float(v) for v in exact[b]], "-o", markersize=4, color=color,
                          label=f"|B| = {b}")
        line.set_gid("discrete")
        ax.plot(alphas, [float(v) for v in trunc[b]], "x", color=color, markersize=8)
    ax.plot([], [], "kx", label=r"$T_k=\{0,1,2,|B|\}$")
    ax.set_yscale("log")
    ax.set_xlabel(r"$\alpha$")
    ax.set_ylabel("FSwR-RDP lower bound (one step)")
    ax.set_title(r"Thm 3.7, $\sigma=6$, $q=0.001$")
    _outside(ax)
    return fig


@figure(PAPER, "figure_2", "Fig. 2: one-step replace-one RDP, Thm 3.4 (m = 3, 4, 5) vs the "
                           "upper and lower bounds of Wang et al. (2019)")
def figure_2() -> Figure:
    """One step at sigma = 6, q = 0.0024 on alpha = 1 + 10^linspace(-2, 1.8, 100)."""
    curves = ro.figure_2_curves()
    fig, ax = new_figure(width=5.4, height=4.4)
    for m, style in ((3, ":"), (4, "-"), (5, "--")):
        ax.plot(ro.ALPHAS_FIG2, [float(v) for v in curves[f"Thm 3.4, m={m}"]], style,
                color=C_FSWOR, label=f"Thm 3.4, m = {m}")
    ax.plot(ro.ALPHAS_FIG2, [float(v) for v in curves["Wang et al. upper"]], "-.",
            color=C_WANG_UP, label="Wang et al. upper")
    low = curves["Wang et al. lower"]
    ax.plot([a for a, _ in low], [float(v) for _, v in low], "o", markersize=3,
            color=C_WANG_LOW, label="Wang et al. lower")
    ax.set_yscale("log")
    ax.set_xscale("log")
    ax.set_xlabel(r"$\alpha$")
    ax.set_ylabel("one-step RDP bound (replace-one)")
    ax.set_title(_SETTING)
    _outside(ax)
    return fig


#: The deltas at which Figures 3 and 4 (top) are drawn (the paper's 1e-12..1e-3, denser).
DELTAS_DRAWN = tuple(float(10.0**x) for x in np.linspace(-12, -3, 28))


@figure(PAPER, "figure_3", "Fig. 3: eps(delta) after 250 epochs, replace-one: Thm 3.4 "
                           "(m = 3, 4, 5) vs Wang et al.'s upper and lower bounds")
def figure_3() -> Figure:
    """eps vs delta (log x) at sigma = 6, |B| = 120, |D| = 50,000, T = 104166.67."""
    table = ro.figure_3_table(DELTAS_DRAWN)
    fig, ax = new_figure(width=5.4, height=4.4)
    for m, style in ((3, ":"), (4, "-"), (5, "--")):
        ax.plot(DELTAS_DRAWN, [float(e) for e, _ in table[f"thm3.4-m{m}"]], style,
                color=C_FSWOR, label=f"Thm 3.4, m = {m}")
    ax.plot(DELTAS_DRAWN, [float(e) for e, _ in table["wang-upper"]], "-.", color=C_WANG_UP,
            label="Wang et al. upper")
    ax.plot(DELTAS_DRAWN, [float(e) for e, _ in table["wang-lower"]], "o", markersize=3,
            color=C_WANG_LOW, label="Wang et al. lower")
    ax.set_xscale("log")
    ax.set_xlabel(r"$\delta$")
    ax.set_ylabel(r"$\varepsilon$")
    ax.set_title(_SETTING + ", 250 epochs")
    _outside(ax)
    return fig


@figure(PAPER, "figure_4_top", "Fig. 4 (top): eps(delta), replace-one, m = 4: Thm 3.4 vs "
                               "Wang et al. vs Poisson (Thm C.9 as printed and sound)")
def figure_4_top() -> Figure:
    """eps vs delta in 1e-12..1e-3 after 250 epochs; Thm C.9 drawn as printed (its m = 4
    form rests on the unproven sigma -> 2 sigma step) and in the sound variant."""
    table = ro.figure_3_table(DELTAS_DRAWN, ms=(4,))
    fig, ax = new_figure(width=5.4, height=4.4)
    ax.plot(DELTAS_DRAWN, [float(e) for e, _ in table["thm3.4-m4"]], "-", color=C_FSWOR,
            label="FSwoR, Thm 3.4")
    ax.plot(DELTAS_DRAWN, [float(e) for e, _ in table["wang-upper"]], "-.", color=C_WANG_UP,
            label="Wang et al. upper")
    for variant, style, label in (("paper", ":", "Poisson, Thm C.9 as printed"),
                                  ("conservative", "--", "Poisson, Thm C.9 sound")):
        eps = [pr.thm_c_9_epsilon(d, variant, dps=15)[0] for d in DELTAS_DRAWN]
        ax.plot(DELTAS_DRAWN, [float(e) for e in eps], style, color=C_POISSON, label=label)
    ax.set_xscale("log")
    ax.set_xlabel(r"$\delta$")
    ax.set_ylabel(r"$\varepsilon$")
    ax.set_title("replace-one, 250 epochs")
    _outside(ax)
    return fig


@figure(PAPER, "figure_6", "Fig. 6: one-step FSwoR add/remove RDP, Thm 3.3 with m = 3 and 4")
def figure_6() -> Figure:
    """One step at sigma = 6, q = 0.0024 on alpha = 1 + 10^linspace(-2, 1.8, 100)."""
    curves = ar.figure_6_curves()
    fig, ax = new_figure(width=5.0, height=3.6)
    for (label, vals), style in zip(curves.items(), ("-", "--"), strict=True):
        ax.plot(ar.ALPHAS_FIG6, [float(v) for v in vals], style, color=C_FSWOR,
                label=f"Thm 3.3, {label.replace('=', ' = ')}")
    ax.set_yscale("log")
    ax.set_xscale("log")
    ax.set_xlabel(r"$\alpha$")
    ax.set_ylabel("one-step FSwoR-RDP bound (add/remove)")
    ax.set_title(_SETTING)
    ax.legend(loc="lower right")
    return fig


@figure(PAPER, "figure_7", "Fig. 7: replace-one, alpha in [50, 60], m = 5: Thm 3.4, Wang et "
                           "al.'s lower bound, and Thm C.9 as printed (unsound for m >= 5) and "
                           "sound (Wang et al.'s upper bound, 4x higher, omitted)")
def figure_7() -> Figure:
    """Figure 7 with both Poisson curves: the printed Thm C.9 (its F~_{alpha,2sigma,4} rests
    on the false sigma -> 2 sigma step) and the sound variant, which crosses Wang et al.'s
    FSwoR lower bound between alpha = 52 and 53."""
    c = pr.figure_7_curves()
    fig, ax = new_figure(width=5.4, height=4.4)
    ax.plot(pr.ALPHAS_FIG7, [float(v) for v in c["Thm 3.4"]], "-", color=C_FSWOR,
            label="FSwoR, Thm 3.4")
    ax.plot(pr.ALPHAS_FIG7, [float(v) for v in c["Thm C.9, paper"]], ":", color=C_POISSON,
            label="Poisson, Thm C.9 as printed (unsound)")
    ax.plot(pr.ALPHAS_FIG7, [float(v) for v in c["Thm C.9, conservative"]], "--",
            color=C_POISSON, label="Poisson, Thm C.9 sound")
    low = c["Wang et al. lower"]
    ax.plot([a for a, _ in low], [float(v) for _, v in low], "o", markersize=4,
            color=C_WANG_LOW, label="Wang et al. lower")
    ax.ticklabel_format(axis="y", style="sci", scilimits=(0, 0))
    ax.set_xlabel(r"$\alpha$")
    ax.set_ylabel("one-step RDP bound (replace-one)")
    ax.set_title(_SETTING + r", $m=5$")
    _outside(ax)
    return fig


@figure(PAPER, "figure_8", "Fig. 8: exact FSwR RDP lower bound (Thm 3.7) at alpha = 2 vs "
                           "|B|, q = 0.001, sigma = 2..6")
def figure_8() -> Figure:
    """Exact Thm 3.7 at alpha = 2 against |B| = 2..200 (even), one curve per sigma."""
    values = fswr.figure_8_values()
    batches = fswr.BATCHES_FIG8
    fig, ax = new_figure(width=5.4, height=4.4)
    for s, vals in values.items():
        ax.plot(batches, [float(v) for v in vals], label=rf"$\sigma={s}$")
    ax.set_yscale("log")
    ax.set_xlabel("|B|")
    ax.set_ylabel(r"FSwR-RDP lower bound, $\alpha=2$")
    ax.set_title(r"Thm 3.7 (exact), $q=0.001$")
    _outside(ax)
    return fig


@figure(PAPER, "figure_9", "Fig. 9: FSwR upper (Thm 3.6) and lower (Thm 3.7) bounds, and "
                           "FSwoR add/remove (Thm 3.3), one step")
def figure_9() -> Figure:
    """Upper bound (K = |B| and the authors' K = 3), lower bound at alpha = 2..10 with the
    Figure 9 index sets, FSwoR a/r, at sigma = 6, |B| = 120, |D| = 50,000."""
    c = fswr.figure_9_curves()
    al = c["alphas"]
    fig, ax = new_figure(width=5.4, height=4.4)
    ax.plot(al, [float(v) for v in c["upper"]], "-", color=C_FSWR,
            label=r"FSwR: upper, Thm 3.6 ($K=|B|$)")
    ax.plot(al, [float(v) for v in c["authors"]], ":", color="#444444",
            label=r"FSwR upper, $K=3$ (authors' code)")
    ax.plot(range(2, 11), [float(v) for v in c["lower"]], "o", mfc="none", color=C_FSWR,
            label="FSwR: lower, Thm 3.7")
    ax.plot(al, [float(v) for v in c["fswor"]], "--", color=C_FSWOR,
            label="FSwoR a/r, Thm 3.3 (m = 4)")
    ax.set_yscale("log")
    ax.set_xlabel(r"$\alpha$")
    ax.set_ylabel("one-step RDP bound")
    ax.set_title(_SETTING)
    _outside(ax)
    return fig


@figure(PAPER, "thm_c_9_exact_over_bound",
        "Thm C.9: exact one-step divergence / the printed bound against q (m = 5, "
        "anti-parallel Poisson pair): below 1, tending to 1 as q -> 0")
def thm_c_9_exact_over_bound() -> Figure:
    """exact/bound for alpha in {2, 10, 50}, sigma = 6, m = 5, q = 1e-5..0.5 (float64 exact
    divergence at the anti-parallel pair; the theorem's final inequality is ratio <= 1)."""
    qs, rows = pr.thm_c_9_ratio_curves()
    fig, ax = new_figure(width=5.0, height=3.6)
    for (a, ratios), color in zip(rows.items(), ("#1b6ca8", "#d1495b", "#2e8b57"), strict=True):
        ax.plot(qs, ratios, "-", color=color, label=rf"$\alpha={a}$")
    ax.axhline(1, color="#444444", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("q")
    ax.set_ylabel("exact divergence / Thm C.9 (as printed)")
    ax.set_title(r"$\sigma=6$, $m=5$")
    ax.legend(loc="lower left")
    return fig


@figure(PAPER, "eq22_variance_ratio",
        "Sec. 4.1: minibatch-mean variance, fixed size vs Poisson (Monte Carlo vs eq. (22))")
def eq22_variance_ratio() -> Figure:
    """Var[Z_B]/Var[Z_P] and Var[Z_R]/Var[Z_P] against abar^2/a2bar: closed forms (22),
    (145) as lines, seeded Monte Carlo (N = 200, B = 20, 3000 batches) as points with
    2-standard-error bars (delta method)."""
    N, B = 200, 20
    rows = sa.eq_22_montecarlo(N, B)
    fig, ax = new_figure(width=5.0, height=3.6)
    x = np.linspace(0, 1, 101)
    ax.plot(x, sa.eq_22(x, 1.0, N), color="#1b6ca8", label="FSwoR, eq. (22)")
    ax.plot(x, [sa.eq_145(v, 1.0, N, B) for v in x], color="#d1495b", linestyle="--",
            label="FSwR, eq. (145)")
    for frac, mc in rows:
        for scheme, color, marker in (("fswor", "#1b6ca8", "o"), ("fswr", "#d1495b", "s")):
            r = mc.measured[scheme] / mc.measured["poisson"]
            rel = np.hypot(mc.stderr[scheme] / mc.measured[scheme],
                           mc.stderr["poisson"] / mc.measured["poisson"])
            ax.errorbar(frac, r, yerr=2 * r * rel, color=color, marker=marker, markersize=4,
                        linestyle="none", capsize=2)
    ax.plot([], [], "o", color="#1b6ca8", label="FSwoR, Monte Carlo")
    ax.plot([], [], "s", color="#d1495b", label="FSwR, Monte Carlo")
    ax.axhline(1, color="#444444", linewidth=0.8)
    ax.set_xlabel(r"$\bar a^2/\overline{a^2}$ (gradient alignment)")
    ax.set_ylabel("Var[fixed size] / Var[Poisson]")
    ax.set_title(f"Minibatch-mean variance, |D| = {N}, |B| = {B}")
    ax.legend(loc="lower left", fontsize=8)
    return fig


@figure(PAPER, "figure_4_bottom_proxy",
        "Fig. 4 (bottom), CPU proxy: test accuracy of DP-SGD, fixed size vs Poisson")
def figure_4_bottom_proxy() -> Figure:
    """Mean test accuracy per epoch over the 5 seeds with a 3-sd band (as in the paper)."""
    runs = tr.figure_4_runs()
    fig, ax = new_figure(width=5.0, height=3.6)
    for s, rs in runs.items():
        color, label = _SCHEME[s]
        acc = np.array([r.accuracy for r in rs])
        m, sd = acc.mean(axis=0), acc.std(axis=0)
        ep = np.arange(acc.shape[1])
        (line,) = ax.plot(ep, m, color=color, label=f"{label}: final {m[-1]:.3f}")
        line.set_gid("discrete")
        ax.fill_between(ep, np.clip(m - 3 * sd, 0, 1), np.clip(m + 3 * sd, 0, 1),
                        color=color, alpha=0.15, linewidth=0)
    ax.set_xlabel("epoch")
    ax.set_ylabel("test accuracy")
    ax.set_ylim(0, 1)
    ax.set_title(rf"digits proxy, $\sigma$={tr.BASE.sigma:g}, C={tr.BASE.C:g}, "
                 f"|B|={tr.BASE.batch_size}, 5 seeds")
    ax.legend(loc="lower right")
    return fig


@figure(PAPER, "figure_5_proxy",
        "Fig. 5, CPU proxy: per-step peak memory of the per-example gradients")
def figure_5_proxy() -> Figure:
    """Left: per-step peak bytes (kB) of the per-example gradient computation (3 epochs).
    Right: the exact batch-size law (Binomial(|D|, q)) and the Poisson sizes drawn in the
    Figure 4 runs; the fixed size is the vertical line."""
    runs = tr.figure_5_runs()
    fig, (ax, bx) = new_figure(ncols=2, width=4.6, height=3.6)
    for s, r in runs.items():
        color, label = _SCHEME[s]
        kb = np.array(r.peak_bytes) / 1024
        ax.plot(np.arange(1, len(kb) + 1), kb, color=color, marker=".", markersize=3,
                linewidth=1, label=f"{label}: max {kb.max():.0f} kB")
    ax.set_xlabel("step")
    ax.set_ylabel("peak memory of per-example gradients [kB]")
    ax.set_title("memory per step")
    ax.set_ylim(top=ax.get_ylim()[1] * 1.35)
    ax.legend(loc="upper left", fontsize=8, ncols=1)
    N = len(load_data().y_train)
    law = batch_size_law("poisson", N, tr.BASE.batch_size)
    ks = np.arange(tr.BASE.batch_size - 40, tr.BASE.batch_size + 41)
    bx.bar(ks, [float(law[int(k)]) for k in ks], width=1.0, color=_SCHEME["poisson"][0],
           alpha=0.35, label=f"Poisson: Binomial({N}, {tr.BASE.batch_size}/{N})")
    sizes = np.concatenate([r.batch_sizes for r in tr.figure_4_runs()["poisson"]])
    counts = np.bincount(sizes, minlength=ks.max() + 1)[ks] / len(sizes)
    bx.plot(ks, counts, "o", color=_SCHEME["poisson"][0], markersize=3,
            label=f"Poisson: {len(sizes)} sizes drawn")
    top = max(max(float(law[int(k)]) for k in ks), float(counts.max()))
    bx.plot([tr.BASE.batch_size] * 2, [0, top], color=_SCHEME["fswor"][0])
    bx.set_xlabel("batch size (line: the fixed size)")
    bx.set_ylabel("probability")
    bx.set_title("batch-size law")
    bx.set_ylim(top=bx.get_ylim()[1] * 1.45)
    bx.legend(loc="upper left", fontsize=8)
    return fig


@figure(PAPER, "figure_10_proxy",
        "Fig. 10, CPU proxy: accuracy sensitivity to sigma and |B|, fixed size vs Poisson")
def figure_10_proxy() -> Figure:
    """Final test accuracy (mean +- sd, 3 seeds, 8 epochs): (a) over sigma at |B| = 64,
    (b) over |B| at sigma = 6."""
    res = tr.figure_10_runs()
    fig, (ax, bx) = new_figure(ncols=2, width=4.2, height=3.4)
    for panel, key, xs, xlabel in ((ax, "sigma", tr.FIGURE_10_SIGMAS, r"noise multiplier $\sigma$"),
                                   (bx, "B", tr.FIGURE_10_BATCH_SIZES, "batch size |B|")):
        for k, s in enumerate(("fswor", "poisson")):
            color, label = _SCHEME[s]
            m = [res[key][(s, x)][0] for x in xs]
            sd = [res[key][(s, x)][1] for x in xs]
            shift = (k - 0.5) * 0.03  # side by side, in log-x units
            panel.errorbar(np.array(xs) * 10**shift, m, yerr=sd, color=color, marker="o",
                           markersize=4, capsize=3, linestyle="none", label=label)
        panel.set_xscale("log")
        panel.set_xticks(xs, [f"{x:g}" for x in xs])
        panel.minorticks_off()
        panel.set_xlabel(xlabel)
        panel.set_ylabel(f"test accuracy after {tr.FIGURE_10_EPOCHS} epochs")
        panel.set_ylim(0, 1)
        panel.legend(loc="lower left", fontsize=8)
    ax.set_title(f"(a) |B| = {tr.BASE.batch_size}")
    bx.set_title(rf"(b) $\sigma$ = {tr.BASE.sigma:g}")
    return fig
