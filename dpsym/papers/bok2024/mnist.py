"""The MNIST privacy accounting of Sec. 4.4 and App. D.2: Tables 1, 3 and 4 (no training).

Regularised logistic regression on MNIST with NoisyCGD: n = 60000, b = 1500 (l = 40
batches), eta = 0.05, sigma = 1/100, gradient sensitivity L = 10 (per-example gradients
clipped to L/2), E in {50, 100, 200} epochs, lambda in {0.002, 0.004}, delta = 1e-5.
So L/(b sigma) = 2/3 exactly.

The paper does not state the smoothness M, hence not the contraction factor c of Lemma
2.8.  The authors' script uses c = 1 - eta lambda (0.9999 and 0.9998), which is Lemma
2.8's c for m = lambda exactly when M <= 2/eta - lambda = 39.998; :func:`mnist_contraction`
makes that assumption explicit.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from mpmath import mpf

from dpsym.errors import require
from dpsym.fdp import clt_mu, gdp_epsilon
from dpsym.fdp.prv import compose_subsampled_gaussian
from dpsym.numerics import DEFAULT_DPS
from dpsym.papers.bok2024.appendix_a import app_a1_epsilon
from dpsym.papers.bok2024.noisycgd import thm_4_4, thm_4_5_from_c
from dpsym.papers.bok2024.prior import ys22_thm_3_3_rho

__all__ = [
    "MNIST",
    "mnist_contraction",
    "mnist_row",
    "table_1",
    "table_3",
    "table_4",
    "table_4_noisysgd",
]

#: The App. D.2 setting (exact rationals, so L/(b sigma) = 2/3 and c = 1 - eta lambda exactly).
MNIST = {
    "n": 60000, "b": 1500, "l": 40, "eta": Fraction("0.05"), "sigma": Fraction("0.01"),
    "L": 10, "epochs": (50, 100, 200), "lambdas": ("0.002", "0.004"), "delta": "1e-5",
}

def mnist_contraction(lam: str, M: Fraction | None = None) -> Fraction:
    """c = 1 - eta lambda, the contraction the authors' script uses (0.9999, 0.9998).

    By Lemma 2.8 c = max(|1 - eta lambda|, |1 - eta M|), which equals 1 - eta lambda iff
    M <= 2/eta - lambda.  Passing ``M`` checks that assumption.

    >>> mnist_contraction("0.002")
    Fraction(9999, 10000)
    """
    ref = "Bok et al. 2024, App. D.2 with Lemma 2.8"
    eta, lm = MNIST["eta"], Fraction(lam)
    require(lm > 0, "lambda", lam, "lambda > 0 (strong convexity)", ref)
    if M is not None:
        require(Fraction(M) <= 2 / eta - lm, "M", M,
                f"M <= 2/eta - lambda = {float(2 / eta - lm)} so that c = 1 - eta lambda", ref)
    return 1 - eta * lm


def _effective_sensitivity() -> Fraction:
    return Fraction(MNIST["L"]) / (MNIST["b"] * MNIST["sigma"])


def mnist_row(E: int, dps: int = DEFAULT_DPS) -> dict[str, object]:
    """Every NoisyCGD quantity of Tables 1, 3, 4 at ``E`` epochs, plus the NoisySGD CLT mu.

    Keys: ``mu_comp`` (Thm 4.4), ``mu_sgd_clt`` (Lemma A.5 with p = b/n, t = l E),
    ``mu_ours[lambda]`` (Thm 4.5 at c = 1 - eta lambda), ``eps_comp`` and
    ``eps_ours[lambda]`` (Lemma A.3), ``rho_ys22[lambda]`` and ``eps_rdp[lambda]`` (the
    dict of :func:`app_a1_epsilon`).

    >>> from dpsym.numerics import nstr
    >>> nstr(mnist_row(50, dps=20)["mu_ours"]["0.002"], 6)
    '0.992491'
    """
    eff, l, delta = _effective_sensitivity(), MNIST["l"], MNIST["delta"]
    row: dict[str, object] = {
        "mu_comp": thm_4_4(eff, 1, 1, E, dps=dps),
        "mu_sgd_clt": clt_mu(Fraction(MNIST["b"], MNIST["n"]), eff, l * E, dps=dps),
        "mu_ours": {}, "eps_ours": {}, "rho_ys22": {}, "eps_rdp": {},
    }
    row["eps_comp"] = gdp_epsilon(row["mu_comp"], delta, dps=dps)
    for lam in MNIST["lambdas"]:
        c = mnist_contraction(lam)
        mu = thm_4_5_from_c(c, eff, l, E, dps=dps)
        rho = ys22_thm_3_3_rho(eff, c, l, E, dps=dps)
        row["mu_ours"][lam] = mu
        row["eps_ours"][lam] = gdp_epsilon(mu, delta, dps=dps)
        row["rho_ys22"][lam] = rho
        row["eps_rdp"][lam] = app_a1_epsilon(rho, delta, dps=dps)
    return row


def table_3(dps: int = DEFAULT_DPS) -> dict[int, tuple[mpf, mpf, mpf, mpf]]:
    """Table 3 (mu): NoisyCGD composition, NoisySGD CLT, ours at lambda = 0.002, 0.004.

    >>> [round(float(v), 2) for v in table_3(dps=20)[50]]
    [4.71, 1.03, 0.99, 0.99]
    """
    out = {}
    for E in MNIST["epochs"]:
        r = mnist_row(E, dps=dps)
        out[E] = (r["mu_comp"], r["mu_sgd_clt"], *(r["mu_ours"][x] for x in MNIST["lambdas"]))
    return out


def table_4(dps: int = DEFAULT_DPS) -> dict[int, tuple[mpf, ...]]:
    """Table 4's NoisyCGD columns (eps): composition, RDP [YS22] at lambda = 0.002, 0.004,
    ours at lambda = 0.002, 0.004.

    >>> [round(float(v), 2) for v in table_4(dps=20)[50]]
    [30.51, 5.82, 5.61, 4.34, 4.32]
    """
    out = {}
    for E in MNIST["epochs"]:
        r = mnist_row(E, dps=dps)
        lams = MNIST["lambdas"]
        out[E] = (r["eps_comp"], *(r["eps_rdp"][x]["min"] for x in lams),
                  *(r["eps_ours"][x] for x in lams))
    return out


def table_1(dps: int = DEFAULT_DPS) -> dict[int, tuple[mpf, mpf, mpf]]:
    """Table 1 (eps, lambda = 0.002): GDP composition, RDP [YS22], ours.

    >>> [round(float(v), 2) for v in table_1(dps=20)[200]]
    [83.83, 9.88, 7.58]
    """
    return {E: (v[0], v[1], v[3]) for E, v in table_4(dps=dps).items()}


@cache
def table_4_noisysgd(h: float = 2e-5) -> dict[int, tuple[float, float]]:
    """Table 4's NoisySGD column: a certified interval for eps(1e-5) of C_p(G(mu))^{(x) t}
    (Thm 4.8 by composition; p = b/n = 1/40, mu = 2/3, t = 40 E), by the PRV of Prop. D.4
    composed by :mod:`dpsym.pld`'s certified scheme (:mod:`dpsym.fdp.prv`; App. D.5), width
    <= 1e-3; ``h`` is only the starting grid (clamped to >= 1e-3).  The CLT mu of
    Table 3 pushed through Lemma A.3 is *not* this value (it falls outside the interval).

    >>> lo, hi = table_4_noisysgd()[50]   # the paper prints 4.44
    >>> print(f"{float(lo):.2f} {float(hi):.2f}", float(hi - lo) <= 1e-3)
    4.44 4.44 True
    """
    p = MNIST["b"] / MNIST["n"]
    mu = float(_effective_sensitivity())
    delta = float(MNIST["delta"])
    law = compose_subsampled_gaussian(p, mu, MNIST["l"] * MNIST["epochs"][0], h=h)
    out = {}
    for E in MNIST["epochs"]:
        while law.t < MNIST["l"] * E:
            law = law.doubled()
        out[E] = law.epsilon_interval(delta)
    return out
