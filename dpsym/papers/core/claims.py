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


# --- the peer audit (chapter 01_peer_audit) ------------------------------------------------
# dpsym recomputes a recorded peer value's case live and compares; the peer's value is read
# from tests/reference/peers (library, version, exact call), shown, never trusted.

_DPA_TEST = "rdp/q=0.01,sigma=2.5,alpha=1.5,steps=50"


def _dpa_fractional(dps: int) -> Outcome:
    from dpsym.peers.audit import find_record, library_versions
    from dpsym.peers.exact import oracle_poisson_rdp

    rec = find_record("dp-accounting", _DPA_TEST)
    p = rec["params"]

    def composed(d: int) -> mpf:
        one = poisson_gaussian_rdp(str(p["q"]), str(p["sigma"]), str(p["alpha"]), dps=d + 5)
        with precision(d + 5):
            return p["steps"] * one

    v, shown, digits = stable_value(composed, dps)
    with precision(dps + 10):
        oracle = oracle_poisson_rdp(str(p["q"]), str(p["sigma"]), str(p["alpha"]),
                                    steps=p["steps"], dps=dps)
        rel = (mpf(rec["value"]) - v) / v
    ok = mpmath.almosteq(v, oracle, rel_eps=mpf(10) ** (5 - dps)) and rel > mpf("0.03")
    return Outcome("reproduced" if ok else "failed", shown, digits,
                   f"dp-accounting {library_versions()['dp-accounting']} "
                   f"({rec['call']}) gives {rec['value']}; the exact RDP (dpsym, and the "
                   f"independent oracle: {nstr(oracle, 12)}) is {nstr(v, 12)}: the peer is "
                   f"{nstr(100 * rel, 4)}% above it (|C(alpha, i)| summed without signs)")


register(Claim(
    id="core/peers/dp-accounting-fractional-rdp", paper="core", kind="inequality",
    ref="Mironov, Talwar & Zhang 2019, Sec. 3.3; dp-accounting 0.6.0 rdp_privacy_accountant",
    statement="dp-accounting 0.6.0's RDP of its own test case (q = 0.01, sigma = 2.5, 50 "
              "steps, alpha = 1.5) is more than 3% above the exact RDP.",
    check=_dpa_fractional,
    code=("dpsym.rdp.poisson_gaussian_rdp", "dpsym.peers.exact.oracle_poisson_rdp",
          "dpsym.peers.audit.find_record"),
    chapter="01_peer_audit",
))


def _gdp_extreme(dps: int) -> Outcome:
    from dpsym.peers.audit import find_record
    from dpsym.peers.exact import oracle_gdp_epsilon

    dpa = find_record("dp-accounting", "epsilon_gdp/mu=50.0,delta=1e-100")
    opa = find_record("opacus", "epsilon_gdp/mu=50.0,delta=1e-100")
    v, shown, digits = stable_value(lambda d: gdp_epsilon(50, "1e-100", dps=d), dps)
    oracle = oracle_gdp_epsilon(50, "1e-100", dps=dps)
    ok = mpmath.isfinite(v) and mpmath.almosteq(v, oracle, rel_eps=mpf(10) ** (5 - dps))
    return Outcome("reproduced" if ok else "failed", shown, digits,
                   f"exact eps {nstr(v, 12)} (oracle {nstr(oracle, 12)}); dp-accounting's "
                   f"PLD returns {dpa['value'] or dpa['error']}, Opacus raises "
                   f"{opa['error'] or opa['value']}")


register(Claim(
    id="core/peers/gdp-extremes", paper="core", kind="identity",
    ref="Dong, Roth & Su 2022, Cor. 2.13",
    statement="At mu = 50, delta = 1e-100 the exact GDP eps is finite (2312.84) and dpsym "
              "computes it; the peers give inf (dp-accounting) or an exception (Opacus).",
    check=_gdp_extreme,
    code=("dpsym.fdp.gdp_epsilon", "dpsym.peers.exact.oracle_gdp_epsilon"),
    chapter="01_peer_audit",
))


def _oracle_agreement(dps: int) -> Outcome:
    from dpsym.peers.audit import agreement_summary

    summary = agreement_summary()
    worst = min(row["min_digits"] for row in summary.values() if row["dpsym"])
    cases = sum(row["dpsym"] for row in summary.values())
    return Outcome("reproduced" if worst >= 28 else "failed", str(worst), None,
                   f"dpsym against the independent oracles on {cases} recorded peer cases: "
                   f"at least {worst} agreeing digits (per quantity: "
                   + ", ".join(f"{q} {r['min_digits']}" for q, r in summary.items()
                               if r["dpsym"]) + "); recomputed by tests/test_peers_exact.py")


register(Claim(
    id="core/peers/dpsym=oracles", paper="core", kind="identity",
    ref="Mironov, Talwar & Zhang 2019; Dong, Roth & Su 2022; Balle et al. 2020",
    statement="On every recorded peer case that dpsym computes, dpsym agrees with the "
              "independent oracles to at least 28 digits (38 for one-step quantities).",
    check=_oracle_agreement,
    code=("dpsym.peers.audit.agreement_summary", "dpsym.peers.exact.oracle_poisson_rdp"),
    chapter="01_peer_audit",
))
