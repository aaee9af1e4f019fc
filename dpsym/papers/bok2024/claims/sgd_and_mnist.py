"""Claims on subsampling (Lemma A.5, App. D; chapter 07) and the MNIST accounting of Sec. 4.4
and App. D.2 (Tables 1, 3, 4; chapter 08)."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from mpmath import mpf

from dpsym.claims import Ledger, Outcome, compare_printed
from dpsym.fdp import clt_K, clt_mu, gdp_epsilon
from dpsym.fdp.clt import clt_K_series
from dpsym.numerics import nstr, precision
from dpsym.papers.bok2024 import appendix_d, mnist, printed
from dpsym.papers.bok2024.appendix_a import app_a1_epsilon
from dpsym.papers.bok2024.noisycgd import thm_4_4, thm_4_5_from_c
from dpsym.papers.bok2024.prior import ys22_thm_3_3_rho

ledger = Ledger("bok2024")
P = "dpsym.papers.bok2024."
CH7, CH8 = "07_noisysgd_subsampling", "11_mnist_accounting"

# --- Lemma A.5, the PRVs of App. D, Table 4's NoisySGD column (chapter 07) ---------------


def _clt_series(dps: int) -> Outcome:
    series = clt_K_series(6)
    (mu,) = series.free_symbols
    lead = sp.limit(series / mu**2, mu, 0)
    # second method: the mpmath K (cancellation-aware) against the series at small mu
    with precision(dps + 10):
        worst = max(abs(clt_K(x, dps=dps + 10) - sp.lambdify(mu, series, "mpmath")(mpf(x)))
                    / mpf(x) ** 6 for x in ("1e-3", "1e-2"))
    ok = lead == sp.Rational(1, 2) and worst < 10
    return Outcome("reproduced" if ok else "failed", f"K(mu) = {series} + O(mu^6)", None,
                   f"sympy series of K from its definition; leading coefficient {lead}, so the "
                   "CLT mu -> sqrt(2) p sqrt(t) sqrt(mu^2/2) = p sqrt(t) mu for small mu (the "
                   "Poisson GDP limit); the mpmath K agrees with the series to O(mu^6) at "
                   f"mu = 1e-3, 1e-2 (|K - series|/mu^6 <= {nstr(worst, 3)})")


ledger.add(
    "lemA.5/K-series", ref="Lemma A.5", kind="identity",
    statement="K(mu) = e^{mu^2} Phi(1.5 mu) + 3 Phi(-0.5 mu) - 2 = mu^2/2 + O(mu^3), so the CLT "
              "mu ~ p sqrt(t) mu for small mu.",
    check=_clt_series, code=("dpsym.fdp.clt.clt_K_series", "dpsym.fdp.clt.clt_K"), chapter=CH7,
)

_EFF = Fraction(mnist.MNIST["L"]) / (mnist.MNIST["b"] * mnist.MNIST["sigma"])
_L, _DELTA = mnist.MNIST["l"], mnist.MNIST["delta"]


def _noisysgd_cell(E: int, shown: str):
    def check(dps: int) -> Outcome:
        lo, hi = mnist.table_4_noisysgd()[E]
        places = len(shown.split(".")[1])
        ok = round(lo, places) <= float(shown) <= round(hi, places)
        clt = gdp_epsilon(clt_mu(Fraction(1, 40), _EFF, _L * E, dps=20), _DELTA, dps=20)
        return Outcome("reproduced" if ok else "failed", f"[{lo:.4f}, {hi:.4f}]", None,
                       f"certified interval for eps(1e-5) of C_(1/40)(G(2/3))^(x){_L * E} by the "
                       f"PRV of Prop. D.4 composed by dpsym.pld (width <= 1e-3): [{lo:.4f}, "
                       f"{hi:.4f}] contains the printed {shown}; the CLT mu of Table 3 through "
                       f"Lemma A.3 gives {nstr(clt, 4)}, outside it")
    return check


for _E in mnist.MNIST["epochs"]:
    _p = printed.TABLE_4[_E][1]
    ledger.add(
        f"table4/E={_E},noisysgd-gdp-composition", ref="Table 4", kind="table", printed=_p,
        statement=f"MNIST NoisySGD, E={_E}: eps at delta=1e-5 of GDP composition "
                  "C_p(G(mu))^(x)t (Thm 4.8), computed exactly in the paper by PRV (App. D.5)",
        check=_noisysgd_cell(_E, _p.value), code=(P + "table_4_noisysgd",), chapter=CH7,
    )


def _d2_sign(dps: int) -> Outcome:
    r = appendix_d.lem_d_2()
    ok = r.y_residual == 0 and r.x_printed_residual != 0 and r.x_corrected_residual == 0
    return Outcome("erratum" if ok else "failed",
                   f"e^t form - X density = {r.x_printed_residual}", None,
                   "sympy on G(mu), whose PRVs are Y ~ N(mu^2/2, mu^2), X ~ N(-mu^2/2, mu^2): "
                   "delta'' - delta' equals the density of Y (as printed), and "
                   "e^{-t}(delta'' - delta') equals the density of X exactly while the printed "
                   "e^{t}(delta'' - delta') does not (Def. D.1 has Y(t) = e^t X(t))",
                   corrected="X(t) = e^{-t} (delta''(t) - delta'(t))")


ledger.add(
    "lemD.2/sign", ref="Lemma D.2", kind="erratum", severity="misprint",
    printed=printed.LEM_D_2_X,
    statement="PRV densities from a privacy curve: Y(t) = delta''(t) - delta'(t) and "
              "X(t) = e^{t} (delta''(t) - delta'(t)).",
    check=_d2_sign, code=(P + "lem_d_2",), chapter=CH7,
)

# --- Tables 1, 3, 4: the MNIST accounting (chapter 08) ------------------------------------


def _mu_comp(E: int):
    return lambda d: thm_4_4(_EFF, 1, 1, E, dps=d)


def _mu_ours(E: int, lam: str):
    return lambda d: thm_4_5_from_c(mnist.mnist_contraction(lam), _EFF, _L, E, dps=d)


def _mu_sgd_clt(E: int):
    return lambda d: clt_mu(Fraction(mnist.MNIST["b"], mnist.MNIST["n"]), _EFF, _L * E, dps=d)


def _eps_of(mu_fn):
    return lambda d: gdp_epsilon(mu_fn(d), _DELTA, dps=d)


def _eps_rdp(E: int, lam: str):
    def f(d: int) -> mpf:
        rho = ys22_thm_3_3_rho(_EFF, mnist.mnist_contraction(lam), _L, E, dps=d)
        return app_a1_epsilon(rho, _DELTA, dps=d)["min"]
    return f


def _cells(table: str, ref: str, E: int, rows: list, headline: bool = False) -> None:
    for name, what, fn, shown, code in rows:
        ledger.add(
            f"{table}/E={E},{name}", ref=ref, kind="table", printed=shown,
            statement=f"MNIST NoisyCGD (App. D.2), E={E}: {what}",
            check=lambda dps, fn=fn, p=shown: compare_printed(fn, p.value, dps),
            code=tuple(P + c for c in code), chapter=CH8, headline=headline,
        )


for _E in mnist.MNIST["epochs"]:
    p1, p3, p4 = printed.TABLE_1[_E], printed.TABLE_3[_E], printed.TABLE_4[_E]
    _cells("table3", "Table 3", _E, [
        ("gdp-composition", "mu of GDP composition (Thm 4.4, L/(b sigma) = 2/3)",
         _mu_comp(_E), p3[0], ("thm_4_4",)),
        ("noisysgd-clt", "NoisySGD mu by the CLT (Lemma A.5, p = 1/40, t = 40E)",
         _mu_sgd_clt(_E), p3[1], ("mnist_row",)),
        ("ours,lambda=0.002", "mu of Thm 4.5 at c = 1 - eta lambda = 0.9999",
         _mu_ours(_E, "0.002"), p3[2], ("thm_4_5_from_c", "mnist_contraction")),
        ("ours,lambda=0.004", "mu of Thm 4.5 at c = 1 - eta lambda = 0.9998",
         _mu_ours(_E, "0.004"), p3[3], ("thm_4_5_from_c", "mnist_contraction")),
    ])
    # Table 1 is Table 4's lambda = 0.002 columns: one claim per number, under Table 1.
    _cells("table1", "Table 1; Table 4", _E, [
        ("gdp-composition", "eps at delta=1e-5 of GDP composition (Thm 4.4 + Lemma A.3)",
         _eps_of(_mu_comp(_E)), p1[0], ("thm_4_4",)),
        ("rdp", "eps of [YS22, Thm 3.3] via App. A.1, lambda = 0.002", _eps_rdp(_E, "0.002"),
         p1[1], ("ys22_thm_3_3_rho", "app_a1_epsilon")),
        ("ours", "eps of Thm 4.5 + Lemma A.3, lambda = 0.002", _eps_of(_mu_ours(_E, "0.002")),
         p1[2], ("thm_4_5_from_c",)),
    ], headline=True)
    _cells("table4", "Table 4", _E, [
        ("rdp,lambda=0.004", "eps of the prior RDP bound [YS22, Thm 3.3] via App. A.1",
         _eps_rdp(_E, "0.004"), p4[3], ("ys22_thm_3_3_rho", "app_a1_epsilon")),
        ("ours,lambda=0.004", "eps of Thm 4.5 + Lemma A.3", _eps_of(_mu_ours(_E, "0.004")),
         p4[5], ("thm_4_5_from_c",)),
    ])


# --- the authors' code (a code/text mismatch, shown in the errata-and-summary chapter) ------

from dpsym.papers.bok2024 import authors_code  # noqa: E402  (after the chapter's own rows)

authors_code.register_claims(ledger, chapter="14_errata_and_summary")
