"""Claims on Sec. 2 and App. A (chapter 01): GDP conversions, Figure 2, App. A.1."""

from __future__ import annotations

from mpmath import mpf

from dpsym.claims import Ledger, Outcome, identity_outcome, symbolic_outcome
from dpsym.fdp.symbolic import gaussian_renyi_divergence, gdp_delta_from_conjugate
from dpsym.numerics import Phi, nstr, precision
from dpsym.papers.bok2024 import appendix_a
from dpsym.rdp.conversions import epsilon_from_rdp

ledger = Ledger("bok2024")
CH = "01_fdp_and_gdp"

ledger.add(
    "lemA.3/conjugate", ref="Lemma A.3", kind="identity",
    statement="delta(eps) = 1 + G(mu)*(-e^eps) reproduces Phi(-eps/mu+mu/2) - "
              "e^eps Phi(-eps/mu-mu/2) (sympy, from the convex conjugate).",
    check=lambda dps: symbolic_outcome(gdp_delta_from_conjugate),
    code=("dpsym.fdp.symbolic.gdp_delta_from_conjugate",), chapter=CH,
)


def _delta_at_zero(dps: int) -> Outcome:
    def resid(d: int) -> mpf:
        with precision(d + 10):
            return appendix_a.lem_a_3(1, 0, dps=d + 10) - (2 * Phi(mpf(1) / 2) - 1)

    return identity_outcome(resid, None, dps, "delta(0) - (2 Phi(mu/2) - 1) at mu = 1")


ledger.add(
    "lemA.3/delta(0)", ref="Lemma A.3", kind="identity",
    statement="delta(0) = 2 Phi(mu/2) - 1 (the total variation of G(mu)).",
    check=_delta_at_zero, code=("dpsym.papers.bok2024.lem_a_3",), chapter=CH,
)

ledger.add(
    "lemA.4/gaussian-renyi", ref="Lemma A.4", kind="identity",
    statement="D_alpha(N(mu,1) || N(0,1)) = alpha mu^2 / 2 (sympy integral).",
    check=lambda dps: symbolic_outcome(gaussian_renyi_divergence),
    code=("dpsym.fdp.symbolic.gaussian_renyi_divergence",), chapter=CH,
)


def _figure_2(dps: int) -> Outcome:
    g1, g05 = appendix_a.figure_2_gap(1, dps=dps), appendix_a.figure_2_gap("0.5", dps=dps)
    ok = g1 >= 0 and g05 < 0
    return Outcome("reproduced" if ok else "failed",
                   f"min(f-G(1)) = {nstr(g1, 6)}, min(f-G(0.5)) = {nstr(g05, 6)}", None,
                   "f - G(mu) is concave on each linear piece, so its minimum is at a breakpoint: "
                   f"f >= G(1) everywhere, f(0.37) < G(0.5)(0.37) by {nstr(-g05, 6)}")


ledger.add(
    "fig2/1-GDP-not-0.5-GDP", ref="Figure 2", kind="figure",
    statement="The mechanism A of Figure 2 is 1-GDP but not 0.5-GDP.",
    check=_figure_2, code=("dpsym.papers.bok2024.figure_2_gap",), chapter=CH,
    figure="bok2024/figure_2",
)


def _alc_valid(dps: int) -> Outcome:
    grid = [(a, t, d) for a in ("1.5", "8") for t in ("0.01", "2") for d in ("1e-2", "1e-6")]
    with precision(dps):
        worst = min(epsilon_from_rdp(a, t, d, "alc2021_lemma1", dps=20)
                    - epsilon_from_rdp(a, t, d, "asoodeh2021", dps=20) for a, t, d in grid)
    return Outcome("reproduced" if worst >= 0 else "failed", nstr(worst, 5), None,
                   f"min over {len(grid)} (alpha, tau, delta) of eps_ALC - eps_optimal = "
                   f"{nstr(worst, 5)} (>= 0: the script's [ALC+21, L1] form is a valid, "
                   "never-better conversion)")


ledger.add(
    "appA.1/alc-valid", ref="App. A.1", kind="inequality",
    statement="The [ALC+21, Lemma 1] conversion as coded, eps = log((e^{(a-1)tau}-1)/(a delta)"
              "+1)/(a-1), is never below the optimal single-order RDP -> DP conversion.",
    check=_alc_valid, code=("dpsym.rdp.conversions.epsilon_from_rdp",), chapter=CH,
)
