"""Claims about the foundational results every paper uses."""

from __future__ import annotations

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.claims import Claim, Outcome, identity_outcome, register, stable_value, symbolic_outcome
from dpsym.fdp import compose_gdp, gdp_delta, gdp_epsilon
from dpsym.fdp.gdp import gdp_mu_from_epsilon_delta
from dpsym.fdp.symbolic import balle_equals_cks
from dpsym.numerics import Phi_inv, nstr, precision, round_down, round_up
from dpsym.rdp import poisson_gaussian_rdp
from dpsym.rdp.conversions import delta_from_rdp, epsilon_from_rdp, optimal_delta
from dpsym.soundness import oracle_gdp_delta, oracle_optimal_delta, oracle_poisson_rdp


def _balle_cks(dps: int) -> Outcome:
    """The sympy identity, then the *code*: epsilon_from_rdp("balle2020") against CKS20's
    formula solved for eps by sympy and lambdified (an oracle that shares no code with it)."""
    sym = symbolic_outcome(balle_equals_cks)
    oracle = sp.lambdify(sorted(balle_equals_cks().derived.free_symbols, key=str),
                         balle_equals_cks().derived, "mpmath")
    points = [(2, "0.1", "1e-5"), (8, "0.4", "1e-5"), ("32.5", "3", "1e-10"), (64, "0.05", "0.3")]
    worst, rows = mpf(0), []
    for a, t, d in points:
        code = epsilon_from_rdp(a, t, d, "balle2020", dps=dps)
        with precision(dps + 10):
            ref = max(oracle(mpf(a), mpf(d), mpf(t)), mpf(0))  # alpha, delta, tau (sorted)
            worst = max(worst, abs(code - ref) / max(abs(ref), mpf(10) ** -dps))
            below = code < ref * (1 - mpf(10) ** -(dps - 3))
        rows.append(f"alpha={a}, tau={t}, delta={d}: {nstr(code, 12)}"
                    + (" BELOW" if below else ""))
        if below:  # the code's eps under the formula: unsafe
            worst = max(worst, mpf(1))
    ok = sym.verdict == "reproduced" and worst <= mpf(10) ** -(dps - 5)
    return Outcome("reproduced" if ok else "failed", nstr(worst, 3), None,
                   f"sympy: {sym.value}; epsilon_from_rdp(balle2020) vs the CKS20 formula "
                   f"(oracle) at {len(points)} points, max relative gap {nstr(worst, 3)}: "
                   + "; ".join(rows))


register(Claim(
    id="core/balle2020=cks2020", paper="core", kind="identity",
    ref="Balle et al. 2020 Thm 21; CKS20 Prop. 12",
    statement="The two RDP->(eps, delta) conversions are the same formula (sympy), and "
              "dpsym's balle2020 conversion computes it (against the CKS20 formula).",
    check=_balle_cks,
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


_GDP_POINTS = [("1", "1"), ("0.5", "0.1"), ("3", "10"), ("0.01", "0.05"), ("10", "5"),
               ("2", "0")]


def _gdp_vs_integral(dps: int) -> Outcome:
    """gdp_delta against the direct integral (oracle); a smaller value is unsafe."""
    worst, unsafe = mpf(0), []
    for mu, eps in _GDP_POINTS:
        code = gdp_delta(mu, eps, dps=dps)
        ref = oracle_gdp_delta(mu, eps, dps=dps + 5)
        with precision(dps + 10):
            rel = abs(code - ref) / ref
            if code < ref * (1 - mpf(10) ** -(dps + 2)):
                unsafe.append((mu, eps))
        worst = max(worst, rel)
    ok = not unsafe and worst <= mpf(10) ** -(dps - 5)
    return Outcome("reproduced" if ok else "failed", nstr(worst, 3), None,
                   f"gdp_delta vs int (p - e^eps q)_+ by quadrature at (mu, eps) in "
                   f"{_GDP_POINTS}: max relative gap {nstr(worst, 3)}; below the integral "
                   f"(unsafe) at {unsafe or 'none'}")


register(Claim(
    id="core/gdp/delta=integral", paper="core", kind="identity",
    ref="Dong, Roth & Su 2022, Cor. 2.13",
    statement="gdp_delta (closed form, certified ball) equals the hockey-stick integral of "
              "N(mu, 1) against N(0, 1), and is never below it.",
    check=_gdp_vs_integral,
))


def _composition(dps: int) -> Outcome:
    """compose_gdp on Pythagorean mus, whose composition is an exact integer (DRS22, Cor. 3.3:
    the composed mechanism is the Gaussian shift of length sqrt(sum mu_i^2)); a smaller mu is
    unsafe.  The delta curve at the composed mu is then checked by direct integration."""
    cases = [((3, 4), 5), ((5, 12), 13), ((1, 1, 1, 1), 2), (("0.3", "0.4"), "0.5")]
    bad = []
    for mus, exact in cases:
        got = compose_gdp(*mus, dps=dps)
        with precision(dps + 10):
            ex = mpf(exact)
            if got < ex or got > ex * (1 + mpf(10) ** -(dps - 5)):
                bad.append(f"{mus}: {nstr(got, 20)}")
    d = gdp_delta(compose_gdp(3, 4, dps=dps), 1, dps=dps)
    ref = oracle_gdp_delta(5, 1, dps=dps + 5)
    with precision(dps + 10):
        ok_curve = ref <= d <= ref * (1 + mpf(10) ** -(dps - 5))
    ok = not bad and ok_curve
    return Outcome("reproduced" if ok else "failed", nstr(compose_gdp(3, 4, dps=dps), 10), None,
                   f"compose_gdp on {[c[0] for c in cases]} equals {[c[1] for c in cases]} "
                   f"(wrong: {bad or 'none'}); delta(1) at compose_gdp(3, 4) vs the integral "
                   f"at mu = 5: {nstr(d, 15)} vs {nstr(ref, 15)} (ok {ok_curve})")


register(Claim(
    id="core/gdp/composition", paper="core", kind="identity",
    ref="Dong, Roth & Su 2022, Cor. 3.3",
    statement="compose_gdp gives sqrt(sum mu_i^2), never less, and its delta curve is the "
              "integral's at the composed mu.",
    check=_composition,
))


def _gdp_epsilon_valid(dps: int) -> Outcome:
    """gdp_epsilon(mu, delta) = e: the integral at e is <= delta (valid) and at e shrunk by
    10^-(dps-8) relative it is > delta (tight).  An eps too small is unsafe."""
    rows, ok = [], True
    for mu, delta in [("3", "1e-5"), ("1", "1e-5"), ("0.5", "1e-10"), ("10", "0.01")]:
        e = gdp_epsilon(mu, delta, dps=dps)
        with precision(dps + 10):
            smaller = e * (1 - mpf(10) ** -(dps - 8))
            at_e = oracle_gdp_delta(mu, e, dps=dps + 5)
            at_smaller = oracle_gdp_delta(mu, smaller, dps=dps + 5)
            valid, tight = at_e <= mpf(delta), at_smaller > mpf(delta)
        ok &= valid and tight
        rows.append(f"mu={mu}, delta={delta}: eps={nstr(e, 15)} valid {valid}, tight {tight}")
    return Outcome("reproduced" if ok else "failed", rows[0].split("eps=")[1].split()[0], None,
                   "; ".join(rows))


register(Claim(
    id="core/gdp/epsilon-valid-and-tight", paper="core", kind="inequality",
    ref="Dong, Roth & Su 2022, Cor. 2.13",
    statement="gdp_epsilon's eps meets delta by the direct integral, and no eps smaller by "
              "10^-(dps-8) relative does.",
    check=_gdp_epsilon_valid,
))


def _optimal_vs_brute(dps: int) -> Outcome:
    """delta_from_rdp("asoodeh2021") against a brute force over two-point pairs (oracle,
    a lower bound on the supremum): below it is unsafe; far above it, not optimal."""
    d = min(dps, 30)
    rows, ok = [], True
    for a, t, e in [(8, "0.4", 1), (2, "0.05", "0.5"), ("3.5", "1", "2")]:
        code = delta_from_rdp(a, t, e, "asoodeh2021", dps=d)
        brute = oracle_optimal_delta(a, t, e, grid=40, dps=d)
        with precision(d + 10):
            safe = code >= brute * (1 - mpf(10) ** -(d - 2))
            tight = code <= brute * (1 + mpf(10) ** -(d - 8))
        ok &= safe and tight
        rows.append(f"alpha={a}, tau={t}, eps={e}: {nstr(code, 15)} vs brute force "
                    f"{nstr(brute, 15)} (safe {safe}, tight {tight})")
    return Outcome("reproduced" if ok else "failed", rows[0].split(": ")[1].split()[0], None,
                   "; ".join(rows))


register(Claim(
    id="core/conversions/optimal=brute-force", paper="core", kind="optimum",
    ref="Asoodeh et al. 2021",
    statement="The optimal RDP->(eps, delta) conversion is never below, and agrees with, a "
              "brute-force search over two-point distributions on the RDP boundary.",
    check=_optimal_vs_brute,
))


def _accountant_sandwich(dps: int) -> Outcome:
    """RdpAccountant's certified upper bound and its worst-case lower bound against the exact
    finite binomial sum (oracle): lower <= exact <= upper, and the gap is rounding only (the
    Poisson add/remove bound is attained).  A lower bound above the exact value would make
    ``dpsym account`` print a "worst case >=" that no run attains."""
    from dpsym.accounting import (
        GaussianEvent,
        PoissonSampledEvent,
        RdpAccountant,
        SelfComposedEvent,
    )

    d = min(dps, 40)
    rows, ok, worst = [], True, mpf(0)
    for q, sigma, steps in [("0.01", "1", 100), ("0.25", "0.7", 3), ("1", "2", 5)]:
        ev = SelfComposedEvent(PoissonSampledEvent(q, GaussianEvent(sigma)), steps)
        acc = RdpAccountant(orders=[2, 8, 32], dps=d).compose(ev)
        rep = acc.get_epsilon("1e-5", lower=True)
        for (a, up), (_, lo) in zip(rep.rdp, rep.rdp_lower, strict=True):
            with precision(d + 10):
                exact = steps * oracle_poisson_rdp(q, sigma, int(a), dps=d + 5)
                # the oracle is a plain sum at d + 25 digits: allow its rounding, 10^-(d+8)
                slack = exact * mpf(10) ** -(d + 8)
                fine = lo is not None and lo <= exact + slack and exact - slack <= up
                gap = (up - lo) / exact if lo is not None else mpf(1)
            worst = max(worst, gap)
            ok &= fine and gap <= mpf(10) ** -(d - 5)
            if not fine:
                rows.append(f"q={q}, sigma={sigma}, T={steps}, alpha={a}: lower {nstr(lo, 12)}"
                            f", exact {nstr(exact, 12)}, upper {nstr(up, 12)}")
    return Outcome("reproduced" if ok else "failed", nstr(worst, 3), None,
                   f"lower <= exact <= upper at 9 (run, order) pairs, max (upper - lower)/exact "
                   f"= {nstr(worst, 3)}; violations: {'; '.join(rows) or 'none'}")


register(Claim(
    id="core/accountant/lower<=exact<=upper", paper="core", kind="inequality",
    ref="Mironov, Talwar & Zhang 2019, Sec. 3.3",
    statement="The accountant's worst-case RDP lower bound is below the exact RDP of the run, "
              "its certified upper bound above it, and the two agree up to rounding.",
    check=_accountant_sandwich,
))


def _rounding_direction(dps: int) -> Outcome:
    """round_up / round_down against the value they round, and public bounds at ``dps``
    against the same bound at dps + 30: an upper bound must not drop below its own more
    precise value, a lower bound must not rise above it."""
    bad = []
    d = min(dps, 30)
    with precision(d + 40):
        xs = [mpmath.mpf(k) / 7 ** j for k in range(1, 12) for j in range(1, 6)]
        xs += [-x for x in xs[:10]]
    for x in xs:
        if not round_down(x, d) <= x <= round_up(x, d):
            bad.append(f"round({nstr(x, 20)})")
    for k in range(1, 13):
        eps = mpf(k) / 4
        lo_prec, hi_prec = gdp_delta(2, eps, dps=d), gdp_delta(2, eps, dps=d + 30)
        if lo_prec < hi_prec:
            bad.append(f"gdp_delta(2, {eps})")
        r1, r2 = (poisson_gaussian_rdp("0.01", "0.9", mpf(k) / 3 + 1, dps=p) for p in (d, d + 30))
        if r1 < r2:
            bad.append(f"poisson_gaussian_rdp(alpha={nstr(mpf(k) / 3 + 1, 5)})")
        m1, m2 = (gdp_mu_from_epsilon_delta(eps, "1e-5", dps=p) for p in (d, d + 30))
        if m1 > m2:
            bad.append(f"gdp_mu_from_epsilon_delta({eps})")
    ok = not bad
    return Outcome("reproduced" if ok else "failed", f"{len(bad)} on the unsafe side", None,
                   f"{len(xs)} round_up/round_down values and 12 x 3 public bounds at dps={d} "
                   f"vs dps={d + 30}; on the unsafe side: {bad or 'none'}")


register(Claim(
    id="core/numerics/rounding-direction", paper="core", kind="inequality",
    ref="dpsym precision policy",
    statement="Upper bounds are rounded up and lower bounds down: none lies on the unsafe "
              "side of its own value at 30 more digits.",
    check=_rounding_direction,
))


def _pld_contains_exact(dps: int) -> Outcome:
    """The certified PLD interval of T Gaussian steps (sigma, no subsampling) against the exact
    eps of that mechanism, which is mu-GDP with mu = sqrt(T)/sigma (DRS22, Cor. 3.3): the
    interval must contain it; an upper end below it is unsafe."""
    from dpsym.accounting import GaussianEvent, PldAccountant

    rows, ok = [], True
    for sigma, steps in [(2, 10), (5, 100)]:
        iv = PldAccountant(width=1e-3).compose(GaussianEvent(sigma), steps).get_epsilon("1e-5")
        with precision(30):
            mu = mpmath.sqrt(mpf(steps)) / sigma
        exact = gdp_epsilon(mu, "1e-5", dps=30)
        inside = iv.lower <= exact <= iv.upper
        ok &= inside
        rows.append(f"sigma={sigma}, T={steps}: [{nstr(iv.lower, 10)}, {nstr(iv.upper, 10)}] "
                    f"vs exact {nstr(exact, 12)} (inside {inside})")
    return Outcome("reproduced" if ok else "failed", rows[0].split(": ")[1].split(" vs")[0],
                   None, "; ".join(rows))


register(Claim(
    id="core/pld/interval-contains-exact", paper="core", kind="inequality",
    ref="Dong, Roth & Su 2022, Cor. 2.13 and 3.3",
    statement="The certified PLD interval of a composed Gaussian mechanism contains its exact "
              "eps (from GDP).",
    check=_pld_contains_exact,
))


def _calibration(dps: int) -> Outcome:
    """calibrate_noise's sigma meets the target (eps recomputed by a fresh accountant) and one
    grid step less does not: a sigma that misses the target is unsafe."""
    from fractions import Fraction

    from dpsym.accounting import (
        GaussianEvent,
        PoissonSampledEvent,
        RdpAccountant,
        SelfComposedEvent,
        calibrate_noise,
    )

    def make(s: Fraction) -> object:
        return SelfComposedEvent(PoissonSampledEvent("0.01", GaussianEvent(s)), 1000)

    cal = calibrate_noise(make, 2, "1e-5", sigma_step="0.01")
    eps_at = RdpAccountant(dps=30).compose(make(cal.sigma)).get_epsilon("1e-5").value
    below = cal.sigma - Fraction(1, 100)
    eps_below = RdpAccountant(dps=30).compose(make(below)).get_epsilon("1e-5").value
    ok = eps_at <= 2 < eps_below
    return Outcome("reproduced" if ok else "failed", str(cal.sigma), None,
                   f"q = 0.01, T = 1000, delta = 1e-5, target eps = 2, step 0.01: sigma = "
                   f"{cal.sigma} gives eps = {nstr(eps_at, 10)} <= 2; sigma - 0.01 gives "
                   f"{nstr(eps_below, 10)} > 2 (minimal: {eps_below > 2})")


register(Claim(
    id="core/accounting/calibration-meets-target", paper="core", kind="optimum",
    ref="dpsym.accounting.calibrate",
    statement="The calibrated noise multiplier meets the eps target by an independent "
              "accountant evaluation, and the next smaller grid value does not.",
    check=_calibration,
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
