"""What Liang, Zhang, He, Wu & Xing 2025 (arXiv:2502.17772v2) print, as data.

Formulas are the strings the paper prints, in sympy syntax and the paper's symbols
(:mod:`._common`), parsed by :func:`formula`; the package *assembles* the same bounds from
the lemmas they are proved from, and the ledger compares the two.  Numbers are the
experiment parameters of Sec. 4.  The paper prints no numerical result in its text: its
two figures are images of membership-inference estimates.
"""

from __future__ import annotations

import functools

import sympy as sp

from dpsym.claims import Printed
from dpsym.papers.liang2025._common import S

__all__ = [
    "ALG_1_STOP",
    "EQ_10",
    "EQ_11",
    "EQ_12",
    "EQ_13",
    "EQ_14",
    "EQ_15",
    "EQ_63",
    "FORMULAS",
    "SEC_4",
    "THM_3_4_ALGORITHM",
    "formula",
]

EQ_10 = Printed("2*alpha*C**2/(beta*n*b*sigma**2)", where="Lemma 3.2, eq. (10)")
EQ_11 = Printed("8*alpha*C**2/(beta*n**2*sigma**2)", where="Lemma 3.2, eq. (11)")
EQ_12 = Printed("2*alpha*C**2/(beta*n*b*sigma**2)*T", where="Thm 3.3, eq. (12)")
EQ_13 = Printed("8*alpha*C**2/(beta*n**2*sigma**2)*T", where="Thm 3.3, eq. (13)")
EQ_14 = Printed("2*alpha*C**2/(beta*n*b*sigma**2)"
                " + alpha*(1 + eta*L)**2*D**2/(2*eta**2*sigma**2*(1 - beta))",
                where="Thm 3.4, eq. (14)")
EQ_15 = Printed("8*alpha*C**2/(beta*n**2*sigma**2)"
                " + alpha*(1 + eta*L)**2*D**2/(2*eta**2*sigma**2*(1 - beta))",
                where="Thm 3.4, eq. (15)")

FORMULAS: dict[str, Printed] = {"eq10": EQ_10, "eq11": EQ_11, "eq12": EQ_12, "eq13": EQ_13,
                                "eq14": EQ_14, "eq15": EQ_15}

#: Theorem 3.4's statement names the algorithm it bounds.
THM_3_4_ALGORITHM = Printed("DPSGD-GC", where="Thm 3.4, statement")
#: Algorithm 1's loop: "t <- 0; repeat ... t <- t + 1 until t > T; output theta_T".
ALG_1_STOP = Printed("until t > T", where="Algorithm 1")
#: App. C.1, eq. (63): Pr[kappa = 1] <= 4 sigma_SGD^2 / C.
EQ_63 = Printed("4*sigma_g**2/C", where="App. C.1, eq. (63)")

#: The experiments' parameters (Sec. 4): value as printed.
SEC_4: dict[str, Printed] = {
    "sigma": Printed("0.002", where="Sec. 4, sigma_DP"),
    "C": Printed("20", where="Sec. 4, clipping threshold"),
    "eta": Printed("0.1", where="Sec. 4, learning rate"),
    "n": Printed("10000", where="Sec. 4, training-set size"),
    "delta": Printed("1e-5", where="Sec. 4, delta"),
    "b_gc": Printed("100, 200, 300, 400, 600, 1000", where="Sec. 4.1, batch sizes"),
    "b_dc": Printed("100, 400", where="Sec. 4.2, batch sizes"),
    "D": Printed("20, 60, 100", where="Sec. 4.2, diameters"),
}


@functools.cache
def formula(key: str) -> sp.Expr:
    """The printed formula ``key`` (``"eq10"`` .. ``"eq15"``) as a sympy expression."""
    names = {name: getattr(S, name) for name in vars(S)}
    return sp.sympify(FORMULAS[key].value, locals=names)
