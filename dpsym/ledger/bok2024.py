"""Claims of Bok, Su & Altschuler 2024 (foundation part: App. A conversions, Figure 2)."""

from __future__ import annotations

import mpmath
from mpmath import mpf

from dpsym.claims import Claim, Outcome, identity_outcome, register, symbolic_outcome
from dpsym.fdp.symbolic import gaussian_renyi_divergence, gdp_delta_from_conjugate
from dpsym.numerics import nstr, precision
from dpsym.papers import bok2024 as paper

register(Claim(
    id="bok2024/lemA.3/conjugate", paper="bok2024", kind="identity", ref="Lemma A.3",
    statement="delta(eps) = 1 + G(mu)*(-e^eps) reproduces Phi(-eps/mu+mu/2) - "
              "e^eps Phi(-eps/mu-mu/2) (sympy, from the convex conjugate).",
    check=lambda dps: symbolic_outcome(gdp_delta_from_conjugate),
))


def _delta_at_zero(dps: int) -> Outcome:
    def resid(d: int) -> mpf:
        with precision(d + 10):
            return paper.lem_a_3(1, 0, dps=d + 10) - (2 * mpmath.ncdf(mpf(1) / 2) - 1)

    return identity_outcome(resid, None, dps, "delta(0) - (2 Phi(mu/2) - 1) at mu = 1")


register(Claim(
    id="bok2024/lemA.3/delta(0)", paper="bok2024", kind="identity", ref="Lemma A.3",
    statement="delta(0) = 2 Phi(mu/2) - 1 (the total variation of G(mu)).",
    check=_delta_at_zero,
))

register(Claim(
    id="bok2024/lemA.4/gaussian-renyi", paper="bok2024", kind="identity", ref="Lemma A.4",
    statement="D_alpha(N(mu,1) || N(0,1)) = alpha mu^2 / 2 (sympy integral).",
    check=lambda dps: symbolic_outcome(gaussian_renyi_divergence),
))


def _figure_2(dps: int) -> Outcome:
    g1 = paper.figure_2_gap(1, dps=dps)
    g05 = paper.figure_2_gap("0.5", dps=dps)
    ok = g1 >= 0 and g05 < 0
    return Outcome(
        "reproduced" if ok else "failed",
        f"min(f-G(1)) = {nstr(g1, 6)}, min(f-G(0.5)) = {nstr(g05, 6)}",
        None,
        "f - G(mu) is concave on each linear piece, so its minimum is at a breakpoint: "
        f"f >= G(1) everywhere, f(0.37) < G(0.5)(0.37) by {nstr(-g05, 6)}",
    )


register(Claim(
    id="bok2024/figure2/1-GDP-not-0.5-GDP", paper="bok2024", kind="figure", ref="Figure 2",
    statement="The mechanism A of Figure 2 is 1-GDP but not 0.5-GDP.",
    check=_figure_2,
))
