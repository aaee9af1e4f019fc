"""Appendix D: privacy-loss random variables (Def. D.1, Lemma D.2) checked on G(mu).

Def. D.1 calls (X, Y) the PRVs of a privacy curve delta when delta is their hockey-stick
curve and their densities satisfy Y(t) = e^t X(t). For G(mu) they are Gaussian:
Y ~ N(mu^2/2, mu^2) and X ~ N(-mu^2/2, mu^2), so Lemma D.2's two formulas can be checked
exactly with sympy on the curve of Lemma A.3.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import sympy as sp

from dpsym.fdp.symbolic import gdp_delta_curve, std_normal_pdf
from dpsym.papers.bok2024 import printed

__all__ = ["LemD2", "lem_d_2"]

PAPER = "bok2024"


@dataclass(frozen=True)
class LemD2:
    """Lemma D.2 on G(mu), by sympy: residuals (0 when the formula gives the density).

    ``y_residual`` = (delta'' - delta') - density of Y; ``x_printed_residual`` =
    e^t (delta'' - delta') - density of X (as printed); ``x_corrected_residual`` =
    e^{-t} (delta'' - delta') - density of X.
    """

    y_residual: sp.Expr
    x_printed_residual: sp.Expr
    x_corrected_residual: sp.Expr


@cache
def lem_d_2() -> LemD2:
    """Lemma D.2 (PRV densities from a privacy curve) on G(mu), whose PRVs are
    Y ~ N(mu^2/2, mu^2), X ~ N(-mu^2/2, mu^2): sympy differentiates the curve of Lemma A.3
    and compares with the densities.

    >>> r = lem_d_2()
    >>> r.y_residual, r.x_corrected_residual, r.x_printed_residual == 0
    (0, 0, False)
    """
    t = sp.Symbol("t", real=True)
    mu = sp.Symbol("mu", positive=True)
    delta = gdp_delta_curve(mu, t)
    d1, d2 = sp.diff(delta, t), sp.diff(delta, t, 2)
    y_density = std_normal_pdf((t - mu**2 / 2) / mu) / mu
    x_density = std_normal_pdf((t + mu**2 / 2) / mu) / mu
    x_printed = printed.formula(printed.LEM_D_2_X, t=t, d1=d1, d2=d2)
    return LemD2(
        y_residual=sp.simplify(d2 - d1 - y_density),
        x_printed_residual=sp.simplify(x_printed - x_density),
        x_corrected_residual=sp.simplify(sp.exp(-t) * (d2 - d1) - x_density),
    )
