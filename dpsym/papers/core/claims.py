"""Claims about the foundational results every paper uses."""

from __future__ import annotations

import mpmath
from mpmath import mpf

from dpsym.claims import Claim, Outcome, identity_outcome, register, stable_value, symbolic_outcome
from dpsym.fdp import gdp_delta, gdp_epsilon
from dpsym.fdp.symbolic import balle_equals_cks
from dpsym.numerics import Phi_inv, nstr, precision
from dpsym.rdp import poisson_gaussian_rdp
from dpsym.rdp.conversions import epsilon_from_rdp, optimal_delta

register(Claim(
    id="core/balle2020=cks2020", paper="core", kind="identity",
    ref="Balle et al. 2020 Thm 21; CKS20 Prop. 12",
    statement="The two RDP->(eps, delta) conversions are the same formula (sympy).",
    check=lambda dps: symbolic_outcome(balle_equals_cks),
))


def _int_vs_quad(dps: int) -> Outcome:
    cases = [("0.01", "1", 3), ("1e-7", "0.5", 8), ("0.2", "2", 20)]
    worst = mpf(0)
    for q, s, a in cases:
        v_int = poisson_gaussian_rdp(q, s, a, dps=dps, method="int")
        v_quad = poisson_gaussian_rdp(q, s, a, dps=dps, method="quad")
        with precision(dps + 10):
            worst = max(worst, abs(v_int - v_quad) / v_int)
    return identity_outcome(lambda _: worst, None, dps,
                            f"max relative gap over (q, sigma, alpha) in {cases}")


register(Claim(
    id="core/mtz19/binomial=quadrature", paper="core", kind="identity",
    ref="Mironov, Talwar & Zhang 2019, Sec. 3",
    statement="At integer alpha the exact binomial sum equals the split quadrature.",
    check=_int_vs_quad,
))


def _ordering(dps: int) -> Outcome:
    rows = []
    ok = True
    for a, t, d in [(10, "0.5", "1e-5"), (2, "0.05", "1e-3"), (64, "3", "1e-10")]:
        e = [epsilon_from_rdp(a, t, d, c, dps=dps) for c in ("asoodeh2021", "balle2020",
                                                              "mironov2017")]
        ok &= e[0] <= e[1] <= e[2]
        rows.append(f"alpha={a}, tau={t}, delta={d}: " + " <= ".join(nstr(x, 8) for x in e))
    return Outcome("reproduced" if ok else "failed", rows[0].split(": ")[1], None,
                   "; ".join(rows))


register(Claim(
    id="core/conversions/optimal<=balle<=mironov", paper="core", kind="optimum",
    ref="Asoodeh et al. 2021; Balle et al. 2020; Mironov 2017",
    statement="The optimal single-order conversion is never worse than Balle et al., "
              "which is never worse than Mironov.",
    check=_ordering,
))


def _attained(dps: int) -> Outcome:
    """Certificate that the optimal delta is attained by an explicit two-point pair.

    At the maximiser the test A has Q(A) = q and P(A) = delta + e^eps q.  If that pair
    satisfies D_alpha(P || Q) <= tau, it is a feasible point with E_{e^eps} = delta, so no
    valid conversion can report a smaller delta.
    """
    from dpsym.rdp.conversions import optimal_witness

    alpha, tau, eps = mpf(8), mpf("0.4"), mpf(1)
    with precision(dps + 10):
        delta, q = optimal_witness(alpha, tau, eps)
        P = delta + mpmath.exp(eps) * q
        H = P**alpha * q ** (1 - alpha) + (1 - P) ** alpha * (1 - q) ** (1 - alpha)
        slack = mpmath.log(H) / (alpha - 1) - tau
    ok = slack <= mpf(10) ** (-(dps - 5)) and P <= 1
    _, shown, digits = stable_value(
        _delta_at, dps)
    return Outcome("reproduced" if ok else "failed", shown, digits,
                   f"pair P(A)={nstr(P, 12)}, Q(A)={nstr(q, 12)} has D_alpha - tau = "
                   f"{nstr(slack, 3)} and E_gamma = delta: the supremum is attained (tight)")


def _delta_at(d: int) -> mpf:
    with precision(d):
        return optimal_delta(mpf(8), mpf("0.4"), mpf(1))


register(Claim(
    id="core/conversions/optimal-is-attained", paper="core", kind="optimum",
    ref="Asoodeh et al. 2021",
    statement="The optimal conversion's delta is achieved by a two-point pair on the RDP "
              "boundary (alpha=8, tau=0.4, eps=1), so no conversion can do better.",
    check=_attained,
))


def _phi_inv_tail(dps: int) -> Outcome:
    def resid(d: int) -> mpf:
        with precision(d + 10):
            p = mpf("1e-300")
            return (mpmath.ncdf(Phi_inv(p)) - p) / p

    return identity_outcome(resid, None, dps, "Phi(Phi^-1(1e-300)) = 1e-300, relative")


register(Claim(
    id="core/numerics/Phi_inv-deep-tail", paper="core", kind="identity",
    ref="dpsym.numerics",
    statement="Phi^-1 keeps full relative precision at p = 1e-300.",
    check=_phi_inv_tail,
))


def _roundtrip(dps: int) -> Outcome:
    def resid(d: int) -> mpf:
        e = gdp_epsilon(3, gdp_delta(3, 2, dps=d + 10), dps=d + 10)
        return e - 2

    out = identity_outcome(resid, None, dps, "eps(delta(eps)) - eps at mu=3, eps=2")
    _, shown, digits = stable_value(lambda d: gdp_epsilon(3, gdp_delta(3, 2, dps=d), dps=d), dps)
    return Outcome(out.verdict, shown, digits, out.evidence)


register(Claim(
    id="core/gdp/roundtrip", paper="core", kind="identity",
    ref="Dong, Roth & Su 2022, Cor. 2.13",
    statement="gdp_epsilon inverts gdp_delta (mu = 3, eps = 2).",
    check=_roundtrip,
))
