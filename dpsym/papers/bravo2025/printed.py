"""What Bravo, Flores-Mella & Guzman 2025 (arXiv:2501.04134) prints, as data.

Every value a claim or a chapter compares with lives here, as :class:`Printed` (the value
as printed, and where).  Formulas are written in sympy syntax with the paper's symbols
(``alpha, D, T, sigma, c, h, eta, L, kappa, beta, lambda, p, M``), so that
:mod:`dpsym.papers.bravo2025.shift_problem` can parse them and compare them with what it
derives; nothing here is used to compute a bound.
"""

from __future__ import annotations

import sympy as sp

from dpsym.claims import Printed

#: The paper's symbols (positive reals; T a positive integer), for :func:`formula`; lambda is
#: written ``lam`` in the strings below.
SYMBOLS = {name: sp.Symbol(name, positive=True)
           for name in ("alpha", "D", "sigma", "eta", "c", "h", "L", "kappa", "beta", "p", "M",
                        "s")}
SYMBOLS["lam"] = sp.Symbol("lambda", positive=True)  # "lambda" is a Python keyword
SYMBOLS["T"] = sp.Symbol("T", integer=True, positive=True)
SYMBOLS.update({name: sp.Symbol(name, real=True) for name in ("x", "y")})
SYMBOLS.update({name: sp.Symbol(name, integer=True, nonnegative=True) for name in ("t", "j")})


def formula(value: Printed | str, **at: int) -> sp.Expr:
    """A printed formula as a sympy expression in :data:`SYMBOLS` (a comparison target).

    Keywords fix integer symbols (``T=3``); sums whose limits are then numbers are written
    out term by term, outermost first.
    """
    expr = sp.sympify(str(value), locals=SYMBOLS).subs({SYMBOLS[k]: v for k, v in at.items()})
    return _unroll(expr) if at else expr


def _unroll(expr: sp.Expr) -> sp.Expr:
    if isinstance(expr, sp.Sum):
        (var, lo, hi), = expr.limits
        return sp.Add(*[_unroll(expr.function.subs(var, k)) for k in range(int(lo), int(hi) + 1)])
    if not expr.args:
        return expr
    return expr.func(*[_unroll(a) for a in expr.args])

# --- Table 1 (Sec. 1.1): hypotheses, Renyi divergence of order alpha, c, h, condition on eta ---

#: Table 1, row by row: (key, hypotheses, Renyi bound, c, h, condition on eta).
TABLE_1: tuple[tuple[str, str, Printed, Printed, Printed, str], ...] = (
    ("lipschitz", "Convex, Lipschitz",
     Printed("alpha/(2*sigma**2)*(D**2/T + h*harmonic(T))", "Table 1, row 1"),
     Printed("1", "Table 1, row 1"), Printed("(2*eta*L)**2", "Table 1, row 1"), "None"),
    ("weakly_smooth", "Convex, (p, M)-weakly smooth",
     Printed("alpha/(2*sigma**2)*(D**2/T + h*harmonic(T))", "Table 1, row 2"),
     Printed("1", "Table 1, row 2"),
     Printed("(2*eta**(1/(1 - p))*sqrt((1 - p)/(1 + p))*(M/2)**(1/(1 - p)))**2",
             "Table 1, row 2"), "None"),
    ("strongly_convex_smooth", "kappa-str. convex, beta-smooth",
     Printed("alpha*D**2*c**T*(1 - c)/(2*sigma**2*(1 - c**T))", "Table 1, row 3"),
     Printed("1 - 2*eta*kappa + eta**2*beta**2", "Table 1, row 3"),
     Printed("0", "Table 1, row 3"), "None"),
    ("convex_smooth", "Convex, beta-smooth",
     Printed("alpha*D**2/(2*sigma**2*T)", "Table 1, row 4"),
     Printed("1", "Table 1, row 4"), Printed("0", "Table 1, row 4"), "eta <= 2/beta"),
    ("nonconvex_smooth", "Nonconvex, beta-smooth",
     Printed("alpha*D**2*c**T*(c - 1)/(2*sigma**2*(c**T - 1))", "Table 1, row 5"),
     Printed("(1 + eta*beta)**2", "Table 1, row 5"), Printed("0", "Table 1, row 5"), "None"),
    ("strongly_dissipative", "Str. dissip., beta-smooth",
     Printed("alpha/(2*sigma**2)*(D**2*c**T*(1 - c)/(1 - c**T) + h*log((1 - c**T)/(1 - c)*E))",
             "Table 1, row 6"),
     Printed("1 - 2*eta*kappa + eta**2*beta**2", "Table 1, row 6"),
     Printed("2*eta*lam", "Table 1, row 6"), "None"),
)

# --- Section 3.3 -------------------------------------------------------------------------

#: Corollary 3.7, eq. (6), first form (the sum).
COR_3_7 = Printed("alpha/(2*sigma**2)*(D**2/T + h*Sum(1/t, (t, 1, T)))", "Cor. 3.7, eq. (6)")
#: Corollary 3.9, first inequality ("a direct application of Theorem 3.4").
COR_3_9 = Printed("alpha/(2*sigma**2)*(D**2*c**T/Sum(c**t, (t, 0, T - 1))"
                  " + h*Sum(c**t/Sum(c**j, (j, 0, t)), (t, 0, T - 1)))", "Cor. 3.9")

#: Corollary 3.8, eq. (7) (c != 1); the same expression as Table 1, rows 3 and 5.
EQ_7 = Printed("alpha*D**2*c**T*(1 - c)/(2*sigma**2*(1 - c**T))", "Cor. 3.8, eq. (7)")
#: The limit the paper takes after (7): "(7) provides the right transition to (8) as c -> 1".
EQ_7_LIMIT = Printed("1/T", "after Cor. 3.8: lim_{c->1} (1-c)/(1-c^T)")

# --- Appendix B ------------------------------------------------------------------------------

#: Proposition B.1, for g(x, y) = (sqrt(x^2 + h) - y)^2 (x = u_{t-1}, y = u_t).
PROP_B_1 = {
    "hessian": Printed("Matrix([[2 - 2*h*y/(x**2 + h)**(3/2), -2*x/sqrt(x**2 + h)],"
                       " [-2*x/sqrt(x**2 + h), 2]])", "Prop. B.1"),
    "det": Printed("4*h*(sqrt(x**2 + h) - y)/(x**2 + h)**(3/2)", "Prop. B.1"),
    "trace": Printed("4 - 2*h*y/(x**2 + h)**(3/2)", "Prop. B.1"),
}

#: Figure 2's caption: "E: R^2 -> R with D = 5, eta = 1, L = 1, sigma_0 = 1, sigma_1 = 0.01,
#: sigma_2 = 0.4" (convex Lipschitz, so c = 1 and h = (2 eta L)^2 = 4; T = 3).
FIGURE_2 = {"D": "5", "eta": "1", "L": "1", "sigma": ("1", "0.01", "0.4"),
            "where": "App. B, Figure 2 (caption)"}

# --- Section 4 -------------------------------------------------------------------------------

#: The display after (9): KL <= D^2/(4 eta T) + ln(T e) (eta^((1+p)/(2(1-p)))
#: sqrt((1-p)/(1+p)) (M/2)^(1/(1-p)))^2; this is its second term per unit ln(T e).
EQ_9_WEAKLY_SMOOTH = Printed(
    "(eta**((1 + p)/(2*(1 - p)))*sqrt((1 - p)/(1 + p))*(M/2)**(1/(1 - p)))**2",
    "Sec. 4, display after (9)")
#: After Lemma 4.1, the Lipschitz case p = 0: 1/eta >= (M/2)^2 max{16 ln(D (M/2) e), 27}.
LEM_4_1_P0 = Printed("(M/2)**2*Max(16*log(D*(M/2)*E), 27)", "Sec. 4, after Lemma 4.1")

# --- Section 5 -------------------------------------------------------------------------------

#: Figure 1's caption: 2 Tbar + V "in logarithmic scale", n = 1000, L = 1, M = 2, D = 1,
#: curves p in {0, 0.2, 0.4, 0.6, 1}; the y ticks printed on the figure.
FIGURE_1 = {"n": 1000, "L": "1", "M": "2", "D": "1", "p": ("0", "0.2", "0.4", "0.6", "1"),
            "where": "Sec. 5.1, Figure 1 (caption)"}
FIGURE_1_TICKS = Printed("10^0.9, 10^1, 10^1.2", "Sec. 5.1, Figure 1 (y ticks)")
#: Remark 5.3: p = 0.8 is omitted "as it is indistinguishable from that of p = 1".
REM_5_3_OMITTED_P = Printed("0.8", "Remark 5.3")

#: After (23): alpha* = b^2 sigma^2 ln(n/b)/(16 L^2) >= 3 under Theorem 5.4's hypotheses.
EQ_23_ALPHA_STAR_LOWER = Printed("3", "Sec. 5.2, before (23)")
#: "If we now use the fact that sigma >= 40 L^2/b^2, we get that a sufficient condition for
#: (23) to hold is ln(1/delta) < 6.25 (52 L^2 Tbar/n^2 + 4 D^2 beta/eta + 2 D^2 beta^2) ln(n/b)^2."
EQ_23_CONSTANT = Printed("6.25", "Sec. 5.2, after (23)")
#: The step before it: ln(1/delta) <= b^4 sigma^2 ln(n/b)^2 A / (256 L^4).
EQ_23_DENOMINATOR = Printed("256", "Sec. 5.2, after (23)")
#: The assumption used for 6.25, as printed: sigma >= 40 L^2/b^2.
EQ_23_SIGMA_ASSUMPTION = Printed("sigma >= 40*L**2/b**2", "Sec. 5.2, after (23)")
