"""What Liang, Zhang, He, Wu & Xing 2025 (arXiv:2502.17772v2) print, as data.

Formulas are kept as the strings the paper prints (in sympy syntax, the paper's symbols of
:mod:`._common`) and parsed on demand; the package *assembles* the same bounds from the
lemmas they are proved from, and the ledger compares the two.  Numbers printed in the text
are here too, each with where it is printed.
"""

from __future__ import annotations

import functools

import sympy as sp

from dpsym.papers.liang2025._common import S

__all__ = ["FORMULAS", "NUMBERS", "formula"]

#: Printed formulas: key -> (sympy string, where printed).
FORMULAS: dict[str, tuple[str, str]] = {
    "eq10": ("2*alpha*C**2/(beta*n*b*sigma**2)", "Lemma 3.2, eq. (10)"),
    "eq11": ("8*alpha*C**2/(beta*n**2*sigma**2)", "Lemma 3.2, eq. (11)"),
    "eq12": ("2*alpha*C**2/(beta*n*b*sigma**2)*T", "Thm 3.3, eq. (12)"),
    "eq13": ("8*alpha*C**2/(beta*n**2*sigma**2)*T", "Thm 3.3, eq. (13)"),
    "eq14": ("2*alpha*C**2/(beta*n*b*sigma**2)"
             " + alpha*(1 + eta*L)**2*D**2/(2*eta**2*sigma**2*(1 - beta))",
             "Thm 3.4, eq. (14)"),
    "eq15": ("8*alpha*C**2/(beta*n**2*sigma**2)"
             " + alpha*(1 + eta*L)**2*D**2/(2*eta**2*sigma**2*(1 - beta))",
             "Thm 3.4, eq. (15)"),
    # the side condition sigma_DP > 8C/(b sqrt(beta)) and the SGM noise b sqrt(beta) sigma/(2C)
    "sgm_sigma": ("b*sqrt(beta)*sigma/(2*C)", "Lemma 3.2 / Thm 3.3, alpha*(b/n, .)"),
    "sgm_condition": ("8*C/(b*sqrt(beta))", "Lemma 3.2 / Thm 3.3"),
}

#: Numbers printed in the text: key -> (value as printed, where).
NUMBERS: dict[str, tuple[str, str]] = {
    "fig2_sigma": ("0.002", "Sec. 4: sigma_DP"),
    "fig2_C": ("20", "Sec. 4: clipping threshold C"),
    "fig2_eta": ("0.1", "Sec. 4: learning rate"),
    "fig2_n": ("10000", "Sec. 4: training-set size"),
    "fig2_delta": ("1e-5", "Sec. 4: delta"),
    "sgm_b_fraction": ("5", "Thm 3.3: b <= n/5"),
}


@functools.cache
def formula(key: str) -> sp.Expr:
    """The printed formula ``key`` as a sympy expression in the symbols of ``S``."""
    text, _ = FORMULAS[key]
    names = {name: getattr(S, name) for name in vars(S)}
    return sp.sympify(text, locals=names)
