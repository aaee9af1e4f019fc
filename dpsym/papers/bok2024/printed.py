"""What Bok, Su & Altschuler 2024 (arXiv:2403.00278) prints, as data.

Numbers are kept verbatim as :class:`dpsym.claims.Printed` (value, where). Closed forms the
paper prints are kept as sympy-parsable strings in the paper's symbols and turned into
expressions by :func:`formula`, so a printed formula is typed once, here, and compared with
what sympy derives.

Tables carry their printed row and column labels (``*_STEPS``, ``*_C``, ...), which are the
parameters the statements are evaluated at.
"""

from __future__ import annotations

import sympy as sp

from dpsym.claims import Printed

__all__ = [
    "APP_D4_THRESHOLD",
    "LEM_C_6",
    "LEM_C_8",
    "LEM_C_10_DISPLAY",
    "LEM_C_11_SHIFT",
    "LEM_D_2_X",
    "PROP_5_1",
    "SEC_4_1_DOMINANCE",
    "SEC_5_THRESHOLD",
    "TABLES_10_12",
    "TABLES_10_12_ETA",
    "TABLES_10_12_L",
    "TABLES_10_12_L_OVER_B",
    "TABLE_1",
    "TABLE_3",
    "TABLE_4",
    "TABLE_7",
    "TABLE_7_C",
    "TABLE_7_STEPS",
    "TABLE_8",
    "TABLE_8_ETA",
    "TABLE_8_L_OVER_N",
    "TABLE_9",
    "TABLE_9_COLUMNS",
    "TABLE_9_EPOCHS",
    "THM_4_5",
    "THM_4_6_DISPLAY",
    "THM_C_16_CONDITION",
    "THM_C_16_EXPONENT",
    "THM_C_17",
    "formula",
]


def formula(p: Printed, **symbols: sp.Symbol) -> sp.Expr:
    """The printed formula ``p`` as a sympy expression in the given ``symbols``; decimals
    are read as exact rationals ("0.9/5.6" is 9/56).

    >>> c = sp.Symbol("c", positive=True)
    >>> formula(Printed("(1 + c)/(1 - c)", "x"), c=c).subs(c, sp.Rational(1, 2))
    3
    >>> formula(THM_C_16_EXPONENT)
    9/56
    """
    return sp.sympify(p.value, locals=dict(symbols), rational=True)


def _rows(where: str, rows: dict) -> dict:
    return {key: tuple(Printed(v, f"{where}, row {key}, column {j + 1}")
                       for j, v in enumerate(vals)) for key, vals in rows.items()}


# --- Sec. 4.1 and App. C.2: NoisyGD ------------------------------------------------------

#: Lemma C.6 (proof of Thm C.5, App. C.2.1): the optimal value and sequences.
LEM_C_6 = {
    "value": Printed("(1 - c**t)/(1 + c**t) * (1 + c)/(1 - c) * s**2", "Lemma C.6 (App. C.2.1)"),
    "z_k": Printed("(1 - c**k)*(1 - c**(t - k))/((1 + c**t)*(1 - c)) * s", "Lemma C.6, proof"),
    "a_k": Printed("c**(t - k)*(1 + c)/(1 + c**t) * s", "Lemma C.6, proof"),
    "lambda_k": Printed("c**(t - k)*(1 - c**2)/(1 - c**(t - k + 2) - c**k + c**t)",
                        "Lemma C.6, proof"),
}

#: Lemma C.8 (App. C.2.2), with N = t - tau and R = D/N.
LEM_C_8 = {
    "value": Printed("(s + D/N)**2 * N", "Lemma C.8"),
    "argmin": Printed("D/s", "Lemma C.8"),
    "a_k": Printed("s + D/N", "Lemma C.8, proof"),
    "z_k": Printed("D/N * (N - i)", "Lemma C.8, proof (z_k = R (t - k), i = k - tau)"),
    "lambda_k": Printed("(s + D/N)/(s + D/N*(N - i + 1))", "Lemma C.8, proof"),
}

#: Table 7 (App. D.3.1): mu at L/(n sigma) = 0.1; columns GDP composition, then c.
TABLE_7_STEPS = (10, 100, 1000)
TABLE_7_C = ("0.92", "0.96", "0.98", "0.99", "0.995")
TABLE_7 = _rows("Table 7", {
    10: ("0.316", "0.308", "0.314", "0.316", "0.316", "0.316"),
    100: ("1.000", "0.490", "0.688", "0.871", "0.961", "0.990"),
    1000: ("3.162", "0.490", "0.700", "0.995", "1.411", "1.984"),
})

#: Table 8 (App. D.3.1): (t*, mu*) for D = 1, sigma = 8; rows L/n, columns eta.
TABLE_8_L_OVER_N = ("0.25", "0.5", "1")
TABLE_8_ETA = ("0.2", "0.1", "0.05")
TABLE_8 = {ln: tuple((Printed(t, f"Table 8, L/n = {ln}, eta = {e}"),
                      Printed(m, f"Table 8, L/n = {ln}, eta = {e}"))
                     for e, (t, m) in zip(TABLE_8_ETA, cells, strict=True))
           for ln, cells in {
               "0.25": (("80", "0.280"), ("160", "0.395"), ("320", "0.559")),
               "0.5": (("40", "0.395"), ("80", "0.559"), ("160", "0.791")),
               "1": (("20", "0.559"), ("40", "0.791"), ("80", "1.118")),
           }.items()}

#: The text after Thm 4.3 (Sec. 4.1): when Thm 4.3 dominates Thm 4.1.
SEC_4_1_DOMINANCE = Printed("t > 4Dn/(eta L)", "Sec. 4.1, after Thm 4.3")

#: Proof of Thm C.16 (a): the bound on Phi(0.3 mu_0 / sqrt(2.8)), and the condition on c_1.
THM_C_16_EXPONENT = Printed("0.9/5.6", "Thm C.16, proof of (a): exp(-(0.9/5.6) mu_0^2)")
THM_C_16_CONDITION = Printed("sqrt(0.01/5.6)", "Thm C.16, proof of (a): c_1 < sqrt(0.01/5.6)")

# --- Sec. 4.2 and App. C.3: NoisyCGD -----------------------------------------------------

#: Thm 4.5: (mu b sigma / L)^2 - 1, the window part of the bound.
THM_4_5 = Printed("c**(2*l - 2)*(1 - c**2)/(1 - c**l)**2"
                  " * (1 - c**(l*(E - 1)))/(1 + c**(l*(E - 1)))", "Thm 4.5")

#: The last display of the proof of Lemma C.10 (App. C.3), with q the epoch index.
LEM_C_10_DISPLAY = {
    "lhs": Printed("c**(l - 1)*(1 - c**(l*q))/(1 - c**l)"
                   " - c**(l*(E - q) - 1)*(1 - c**(2*l*q))/((1 - c**l)*(1 + c**(l*E - l)))",
                   "Lemma C.10, proof, last display (middle)"),
    "rhs": Printed("c**(l - 1)*(1 - c**(l*q))/(1 - c**l) * (1 - c**(l*(E - q - 1)))"
                   "/(1 + c**(E*(l - 1)))", "Lemma C.10, proof, last display (right)"),
}

#: Thm C.17: the lower bound (mu b sigma / L)^2.
THM_C_17 = Printed("(1 - c**(l*E))/(1 + c**(l*E)) * (1 - c**2)/(1 - c**l)**2", "Thm C.17")

#: Table 9 (App. D.3.2): mu at L/(b sigma) = 0.2; columns GDP composition, then (l, c).
TABLE_9_EPOCHS = (5, 50, 500)
TABLE_9_COLUMNS = tuple((lv, c) for lv in (10, 20, 40) for c in ("0.98", "0.99", "0.995"))
TABLE_9 = _rows("Table 9", {
    5: ("0.447", "0.229", "0.233", "0.235", "0.211", "0.215", "0.217", "0.202", "0.205",
        "0.208"),
    50: ("1.414", "0.270", "0.334", "0.410", "0.216", "0.237", "0.275", "0.203", "0.208",
         "0.219"),
    500: ("4.472", "0.270", "0.336", "0.439", "0.216", "0.237", "0.276", "0.203", "0.208",
          "0.219"),
})

#: Lemma C.11: the constant shift, in the window of K = E - tau epochs.
LEM_C_11_SHIFT = Printed("(D + s*K)/(l*K)", "Lemma C.11: a_k = (D + s(E - tau))/(l(E - tau))")
#: The proof of Thm 4.6: the window's cost, in units of eta^2 (s = eta L / b).
THM_4_6_DISPLAY = Printed("(D + s*K)**2/(l*K)",
                          "Thm 4.6, proof: (D/eta + L(E - tau)/b)^2 / (l (E - tau))")

#: Tables 10-12 (App. D.3.2): (E*, mu*) for NoisyCGD on a set of diameter D = 1, sigma = 3.
TABLES_10_12_L = {10: "Table 10", 20: "Table 11", 40: "Table 12"}
TABLES_10_12_L_OVER_B = ("0.25", "0.5", "1")
TABLES_10_12_ETA = ("0.04", "0.02", "0.01")
TABLES_10_12 = {
    lv: {lb: tuple((Printed(e, f"{TABLES_10_12_L[lv]}, L/b = {lb}, eta = {eta}"),
                    Printed(m, f"{TABLES_10_12_L[lv]}, L/b = {lb}, eta = {eta}"))
                   for eta, (e, m) in zip(TABLES_10_12_ETA, cells, strict=True))
         for lb, cells in rows.items()}
    for lv, rows in {
        10: {"0.25": (("31", "0.534"), ("62", "0.750"), ("123", "1.057")),
             "0.5": (("17", "0.764"), ("33", "1.067"), ("65", "1.500")),
             "1": (("10", "1.106"), ("20", "1.528"), ("40", "2.134"))},
        20: {"0.25": (("16", "0.382"), ("31", "0.534"), ("62", "0.750")),
             "0.5": (("9", "0.553"), ("17", "0.764"), ("33", "1.067")),
             "1": (("5", "0.816"), ("10", "1.106"), ("20", "1.528"))},
        40: {"0.25": (("8", "0.276"), ("16", "0.382"), ("31", "0.534")),
             "0.5": (("5", "0.408"), ("9", "0.553"), ("17", "0.764")),
             "1": (("3", "0.624"), ("5", "0.816"), ("10", "1.106"))},
    }.items()
}

# --- Sec. 4.4 and App. D.2: the MNIST experiment -----------------------------------------

#: Table 1 (eps at delta = 1e-5, lambda = 0.002): GDP composition, RDP [YS22], ours.
TABLE_1 = _rows("Table 1", {50: ("30.51", "5.82", "4.34"), 100: ("49.88", "7.61", "5.60"),
                            200: ("83.83", "9.88", "7.58")})
#: Table 3 (mu): GDP comp. NoisyCGD, GDP comp. NoisySGD (CLT), ours lambda = 0.002, 0.004.
TABLE_3 = _rows("Table 3", {50: ("4.71", "1.03", "0.99", "0.99"),
                            100: ("6.67", "1.45", "1.24", "1.22"),
                            200: ("9.43", "2.05", "1.59", "1.51")})
#: Table 4 (eps at delta = 1e-5): GDP comp. NoisyCGD, GDP comp. NoisySGD, RDP lambda = 0.002,
#: 0.004, ours lambda = 0.002, 0.004.
TABLE_4 = _rows("Table 4", {50: ("30.51", "4.44", "5.82", "5.61", "4.34", "4.32"),
                            100: ("49.88", "6.65", "7.61", "7.00", "5.60", "5.51"),
                            200: ("83.83", "10.11", "9.88", "8.38", "7.58", "7.09")})

# --- Sec. 5 and App. D: Langevin, the exponential mechanism, PRVs ------------------------

#: Prop. 5.1: mu of LMC.
PROP_5_1 = Printed("sqrt((2 - eta*m)/2) * L/sqrt(m)", "Prop. 5.1")
#: Sec. 5.2, after Cor. 5.4: "nontrivial improvement in privacy when LD > 0.677".
SEC_5_THRESHOLD = Printed("0.677", "Sec. 5.2, after Cor. 5.4")
#: App. D.4: "this holds iff LD <= c* where c* ~ 0.676".
APP_D4_THRESHOLD = Printed("0.676", "App. D.4")
#: Lemma D.2: the density of X in terms of the privacy curve delta.
LEM_D_2_X = Printed("exp(t)*(d2 - d1)", "Lemma D.2: X(t) = e^t (delta''(t) - delta'(t))")
