"""Tran & Cutkosky 2022 ledger: Sec. 3, App. D (Alg. 1, Thms 4, 6, Lemmas 5, 11, 12)."""

from __future__ import annotations

from functools import cache

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.aggregation import (
    Node,
    sigma_for_gdp,
    sigma_for_zcdp,
)
from dpsym.claims import Outcome
from dpsym.numerics import nstr
from dpsym.papers.tran2022 import dp_nsgd as a1
from dpsym.papers.tran2022 import printed as pr
from dpsym.papers.tran2022 import rates
from dpsym.papers.tran2022 import sensitivity_reduced as a2
from dpsym.papers.tran2022.claims.common import (
    M,
    erratum,
    ledger,
    passed,
)

# === 02 DP-NSGD (Sec. 3, App. D) ============================================================

CH2 = "02_dp_nsgd"


def _thm4_accounting(dps: int) -> Outcome:
    s = a1.thm_4_sigma(1, "1e-5", dps=dps)
    g = a1.thm_4(s, dps=dps)
    e = {r: g.epsilon("1e-5", r) for r in ("zcdp", "rdp", "gdp")}
    ok = e["gdp"] < e["rdp"] < e["zcdp"] <= 1
    return passed(ok, f"eps = {nstr(e['gdp'], 6)} (GDP)",
               f"sigma = 2 sqrt(log 1e5) = {nstr(s, 8)}: mu = 1/sigma = {nstr(g.mu, 6)}, "
               f"rho = 1/(2 sigma^2); eps at delta = 1e-5: {nstr(e['zcdp'], 6)} (the paper's "
               f"route, Mironov at the best order), {nstr(e['rdp'], 6)} (Balle et al. 2020 at "
               f"the best order), {nstr(e['gdp'], 6)} (exact Gaussian tradeoff): all <= 1")


ledger.add("thm4/accounting", ref="Thm 4; Thm 10; App. D.1", kind="inequality",
           statement="With sigma = 2 sqrt(log(1/delta))/eps Algorithm 1 is (eps, delta)-DP "
                     "(here eps = 1, delta = 1e-5), by three conversions of the same "
                     "guarantee (z, z/(2 sigma^2))-RDP = 1/sigma-GDP.",
           printed=pr.THM_4_RDP, check=_thm4_accounting,
           code=(f"{M}.dp_nsgd.thm_4", f"{M}.dp_nsgd.thm_4_sigma",
                 "dpsym.aggregation.GaussianGuarantee.epsilon"), chapter=CH2, headline=True)


def _thm4_threshold(dps: int) -> Outcome:
    worst = mpf(0)
    cases = [(1, "1e-5"), ("0.5", "1e-8"), (3, "1e-3"), ("0.1", "0.5")]
    for e, d in cases:
        t = a1.thm_4_sigma_threshold(e, d, dps=dps)
        z = sigma_for_zcdp(e, d, dps=dps)
        with mpmath.workdps(dps):
            worst = max(worst, abs(t - z) / z)
        worst = worst if a1.thm_4_sigma_simplified(e, d, dps=dps) >= t else mpf(1)
    return passed(worst < mpf(10) ** (-dps + 8), f"max rel. gap {nstr(worst, 2)}",
               f"1/(sqrt(2 ell + 2 eps) - sqrt(2 ell)) equals the root of "
               f"1/(2 sigma^2) + 2 sqrt(ell/(2 sigma^2)) = eps (root finding on "
               f"dpsym.rdp.conversions.zcdp_to_epsilon) at (eps, delta) in {cases}; "
               f"sqrt(2 ell + 2 eps)/eps is above it in every case")


ledger.add("thm4/sigma-threshold", ref="App. D.1", kind="identity",
           statement="The quadratic formula gives the exact noise threshold of the RDP route, "
                     "and sqrt(2 log(1/delta) + 2 eps)/eps suffices for every delta.",
           printed=pr.THM_4_THRESHOLD, check=_thm4_threshold,
           code=(f"{M}.dp_nsgd.thm_4_sigma_threshold", f"{M}.dp_nsgd.thm_4_sigma_simplified",
                 "dpsym.aggregation.sigma_for_zcdp"), chapter=CH2)


def _tight_sigma(dps: int) -> Outcome:
    rows = []
    for k, paper_sigma in ((1, a1.thm_4_sigma(1, "1e-5", dps=dps)),
                           (3, a2.thm_8_sigma(1, "1e-5", dps=dps)),
                           (4, a2.thm_8_sigma(1, "1e-5", dps=dps))):
        g = sigma_for_gdp(1, "1e-5", k, dps=dps)
        z = sigma_for_zcdp(1, "1e-5", k, dps=dps)
        rows.append((k, paper_sigma, z, g))
    ok = all(g < z < p for _, p, z, g in rows)
    ev = "; ".join(f"k = {k}: paper {nstr(p, 6)}, RDP route {nstr(z, 6)}, exact GDP "
                   f"{nstr(g, 6)} ({nstr(100 * (1 - g / p), 3)}% smaller)" for k, p, z, g in rows)
    return passed(ok, f"{nstr(rows[0][3], 6)} vs {nstr(rows[0][1], 6)}",
               "smallest sigma meeting (eps, delta) = (1, 1e-5) with k budgets of "
               f"(z, z/(2 sigma^2))-RDP: {ev}")


ledger.add("thm4/tight-sigma", ref="Thm 4; Thm 8; Thm 10", kind="optimum",
           statement="How much smaller sigma can be than the paper's at (eps, delta) = "
                     "(1, 1e-5) when the guarantee is converted exactly (GDP).",
           check=_tight_sigma, code=("dpsym.aggregation.sigma_for_gdp",
                                     "dpsym.aggregation.sigma_for_zcdp"),
           chapter=CH2, headline=True)


def _delta_condition(dps: int) -> Outcome:
    bad = a1.thm_4_rdp_epsilon_at_printed_sigma(1, "0.99", dps=dps)
    g20 = a1.thm_4(a1.thm_4_sigma(20, "0.5", dps=dps), dps=dps).epsilon("0.5")
    c1, c3 = a1.thm_4_delta_threshold(1, 2), a1.thm_4_delta_threshold(3, 4)
    found = bad > 1 and g20 > 20
    return erratum(found, f"eps_RDP = {nstr(bad, 6)} at (1, 0.99)",
                    f"App. D.1's last step sqrt(2 ell + 2 eps)/eps <= 2 sqrt(ell)/eps needs "
                    f"ell >= eps. At eps = 1, delta = 0.99 (delta >= e^-eps as printed) the RDP "
                    f"route certifies eps = {nstr(bad, 6)}, not 1; at eps = 20, delta = 0.5 even "
                    f"the exact Gaussian tradeoff of the noise (mu = 1/sigma) gives eps = "
                    f"{nstr(g20, 6)} > 20, so no accounting of the noise certifies the printed "
                    f"range. Exact condition (sympy): ell >= ({c1}) eps = {nstr(float(c1), 6)} "
                    f"eps for Thm 4, ell >= ({c3}) eps = {nstr(float(c3), 6)} eps for Thm 8 "
                    f"(k = 3); App. E.1 repeats the printed direction",
                    "delta <= exp(-eps) (the exact sufficient condition is log(1/delta) >= "
                    "(1/4 + sqrt(2)/8) eps for Thm 4)")


ledger.add("thm4/delta-condition", ref="Thm 4; App. D.1; App. E.1", kind="erratum",
           severity="misprint",
           statement="If delta >= exp(-eps), sigma >= 2 sqrt(log(1/delta))/eps makes "
                     "Algorithm 1 (eps, delta)-DP.",
           printed=pr.THM_4_CONDITION, check=_delta_condition,
           code=(f"{M}.dp_nsgd.thm_4_rdp_epsilon_at_printed_sigma",
                 f"{M}.dp_nsgd.thm_4_delta_threshold", f"{M}.dp_nsgd.thm_4"), chapter=CH2,
           headline=True)


def _node_sensitivity(dps: int) -> Outcome:
    v, N = Node(1, 64), 7
    with mpmath.workdps(dps):
        a = mpf(1) / N
    pr = a1.thm_4_node_sensitivity(v, N, a, dps=dps)
    wc = a1.thm_4_node_sensitivity_worst(v, N, a, dps=dps)
    leaf = a1.thm_4_node_sensitivity(Node(1, 1), 3, "0.5", dps=dps)
    budgets = [a1.thm_4_record_budget(n, t, mpf(1) / n) for n, t in
               ((2, 16), (3, 12), (4, 16), (5, 20))]
    found = wc > 4 * a and leaf == 0
    ev = ", ".join(f"(N, T) = ({b.N}, {b.T}): {nstr(b.used, 4)} of V = {nstr(b.granted, 4)}"
                   for b in budgets)
    return erratum(found and all(b.holds for b in budgets),
                    f"{nstr(wc / a, 5)} alpha G > 4 alpha G",
                    f"a record recurs once per epoch at any slot, so a node can hold "
                    f"ceil(|z-y|/N) + 1 occurrences, consecutive ones a single step apart: the "
                    f"printed count is 0 at a leaf, and node [1, 64] with N = 7, alpha = 1/7 "
                    f"has printed sensitivity {nstr(pr / a, 5)} alpha G but worst case "
                    f"{nstr(wc / a, 5)} alpha G > 4 alpha G. The theorem itself holds on the "
                    f"instances checked: the budget one record uses, maximised over all its "
                    f"placements (exhaustive), is {ev} (sum_nu (Delta_nu/4 alpha G)^2 <= V)",
                    "per-node sensitivity <= 2 alpha G (1 + (1-alpha) / (1 - (1-alpha)^N)); "
                    "Thm 4's RDP bound needs the per-record sum over nodes, not a per-node bound")


ledger.add("thm4/node-sensitivity", ref="Sec. 3 (proof sketch of Thm 4); App. D.1",
           kind="erratum", severity="proof-gap",
           statement="Each node f_[y,z] has sensitivity 2 alpha G sum_{j<ceil(|y-z|/N)} "
                     "(1-alpha)^{jN} <= 4 alpha G.",
           printed=pr.THM_4_NODE_SENSITIVITY, check=_node_sensitivity,
           code=(f"{M}.dp_nsgd.thm_4_node_sensitivity", f"{M}.dp_nsgd.thm_4_node_sensitivity_worst",
                 f"{M}.dp_nsgd.thm_4_record_budget"), chapter=CH2)


def _v_bounds(dps: int) -> Outcome:
    worst = mpf(0)
    n = 0
    for N in (2, 3, 5, 8, 17, 64, 100, 1000):
        for m in (1, 2, 3, 7, 16, 50):
            T = N * m
            V = a1.alg_1_V(N, T)
            with mpmath.workdps(30):
                v = mpf(V.numerator) / V.denominator
                worst = max(worst, v / (4 * mpf(T) / N * mpmath.log(N, 2)))
            n += 1
    return passed(worst <= 1, f"max V / (4 (T/N) log2 N) = {nstr(worst, 5)}",
               f"{n} pairs N in 2..1000, T = N..50N: V <= 4 (T/N) log2 N <= 4 log2(T) T/N "
               f"(the largest ratio {nstr(worst, 5)}, at N = 2); at N = 1 the first bound is 0 "
               f"while V = 2T - 1")


ledger.add("alg1/V", ref="Alg. 1; App. D.2; App. E.1", kind="inequality",
           statement="Algorithm 1's node count V is at most 4 log2(T) T/N (and 4 (T/N) log2 N).",
           printed=pr.THM_4_V, check=_v_bounds, code=(f"{M}.dp_nsgd.alg_1_V",), chapter=CH2)


def _lemma5(dps: int) -> Outcome:
    st = a1.lem_5_step(np.array([1.0, 0.0]), np.array([-2.0, 0.0]))
    scan = a1.lem_5_scan(200000, seed=0)
    found = (not st.case2_claim) and st.final_holds and scan.final_violations == 0
    return erratum(found, f"{scan.case2_violations} of {scan.samples}",
                    f"grad F = (1, 0), eps_hat = (-2, 0): -<grad F, m_hat/||m_hat||> = "
                    f"{st.lhs:g} > 0 although ||eps_hat|| > ||grad F||/2; the case-2 claim "
                    f"fails in {scan.case2_violations} of {scan.samples} seeded random pairs, "
                    f"the lemma's inequality -<g, m/|m|> <= -2/3|g| + 2|e| in none (largest "
                    f"lhs - rhs {scan.max_final_gap:.2e}). Repair: if ||e|| < ||g|| then "
                    f"<g, g + e> > 0; if ||e|| >= ||g||, lhs <= ||g|| <= -2/3||g|| + 2||e||. "
                    f"The smoothness display also prints +eta<...> for -eta<...>",
                    "case 2 splits: ||e|| < ||g|| gives lhs <= 0; ||e|| >= ||g|| gives "
                    "lhs <= ||g|| <= -2/3 ||g|| + 2 ||e||; Lemma 5 holds as stated")


ledger.add("lem5/case-analysis", ref="Lemma 5; App. F (proof)", kind="erratum",
           severity="proof-gap",
           statement="In the proof of Lemma 5, ||eps_hat|| > ||grad F||/2 implies "
                     "-<grad F, m_hat/||m_hat||> <= 0.",
           printed=pr.LEM_5_CASE_2, check=_lemma5,
           code=(f"{M}.dp_nsgd.lem_5_step", f"{M}.dp_nsgd.lem_5_scan"), chapter=CH2)


def _lemma11(dps: int) -> Outcome:
    err = a1.lem_11_initial_error("0.01", 1, dps=dps)
    bound = a1.lem_11(1, "0.01", "1e-9", 100, 0, dps=dps)
    late = a1.lem_11_initial_error("0.01", 1000, dps=dps)
    return erratum(err > bound, f"{nstr(err, 6)} > {nstr(bound, 6)}",
                    f"every record with f(w, x) = <g, w>, ||g|| = G = 1 (L = 0), m_0 = 0 as in "
                    f"Alg. 1, alpha = 0.01 = 1/N, N = 100, eta = 1e-9: ||m_1 - grad F(w_1)|| = "
                    f"(1 - alpha) G = {nstr(err, 6)} while the bound is {nstr(bound, 6)}. The "
                    f"missing term is (1-alpha)^t G ({nstr(late, 3)} at t = 1000): the proof "
                    f"unrolls g_t from g_1 = grad F(w_1) although m_0 = 0",
                    "E||eps_t|| <= 2 G sqrt(alpha) + 2 eta N L + eta L/alpha + (1-alpha)^t G; "
                    "averaged over t the extra term is <= G/(alpha T)")


ledger.add("lem11/initialisation", ref="Lemma 11 (App. D.2); Alg. 1 (m_0 = 0)",
           kind="erratum", severity="false-statement",
           statement="E||m_t - grad F(w_t)|| <= 2 G sqrt(alpha) + 2 eta N L + eta L / alpha.",
           printed=pr.LEM_11, check=_lemma11,
           code=(f"{M}.dp_nsgd.lem_11", f"{M}.dp_nsgd.lem_11_initial_error"), chapter=CH2)


def _lemma12(dps: int) -> Outcome:
    V = a1.alg_1_V(100, 3)
    kw = {"alpha": "0.01", "G": 1, "sigma": 1, "d": 3, "V": V}
    exact = a1.lem_12_exact(t=3, dps=dps, **kw)
    bound = a1.lem_12(T=3, dps=dps, **kw)
    return erratum(exact > bound, f"{nstr(exact, 6)} > {nstr(bound, 6)}",
                   f"COMPOSE(1, t) has popcount(t) nodes, which exceeds log2 T at t = T = 3 "
                   f"(2 > 1.585) and at every T = 2^k - 1. Algorithm 1 with N = 100, T = 3, "
                   f"alpha = 0.01 = 1/N, G = sigma = 1, d = 3 (V = {V} from Alg. 1): exact "
                   f"E||m_hat_3 - m_3|| = node std x sqrt(1 + 0.99^2) x E||N(0, I_3)|| = "
                   f"{nstr(exact, 8)} > 4 alpha G sigma sqrt(3 V log2 3) = {nstr(bound, 8)} "
                   f"(E||N(0, I_d)|| = sqrt(2) Gamma((d+1)/2)/Gamma(d/2); the ratio does not "
                   f"depend on V, G or sigma)",
                   "E||m_hat_t - m_t|| <= 4 alpha G sigma sqrt(d V (1 + floor(log2 T)))")


ledger.add("lem12/count", ref="Lemma 12 and its proof (App. D.2)", kind="erratum",
           severity="false-statement",
           statement="E||m_hat_t - m_t|| <= 4 alpha G sigma sqrt(d V log2 T), COMPOSE(1, t) "
                     "having at most log2 T intervals.",
           printed=pr.LEM_12, check=_lemma12,
           code=(f"{M}.dp_nsgd.lem_12", f"{M}.dp_nsgd.lem_12_exact", f"{M}.dp_nsgd.alg_1_V",
                 f"{M}.dp_nsgd.expected_gaussian_norm"), chapter=CH2)


@cache
def _thm6_steps() -> dict[str, rates.Step]:
    return {s.name: s for s in rates.thm_6_steps()}


def _thm6_48(dps: int) -> Outcome:
    s = _thm6_steps()["Lemma 5 + Lemma 11 + Lemma 12 (V <= 4 lg T/N) = display 1"]
    return erratum(not s.holds, "48 vs 12",
                    f"Lemma 5 + Lemma 11 + Lemma 12 with V <= 4 log2(T) T/N and sigma = "
                    f"2 sqrt(ell)/eps (sympy): derived minus printed display = "
                    f"{s.difference}, i.e. the noise term is 3 x 4 alpha G sigma sqrt(dV lg) = "
                    f"48 alpha G lg sqrt(dT ell)/(eps sqrt N)",
                    "48 alpha G log2(T) sqrt(d T log(1/delta))/(eps sqrt(N))")


ledger.add("thm6/noise-coefficient", ref="Thm 6, App. D.2 (first display)", kind="erratum",
           severity="proof-gap",
           statement="Lemma 12 with V <= 4 log2(T) T/N and sigma = 2 sqrt(log(1/delta))/eps "
                     "contributes 12 alpha G log2(T) sqrt(dT log(1/delta))/(eps sqrt N).",
           printed=pr.THM_6_NOISE, check=_thm6_48,
           code=(f"{M}.rates.thm_6_steps",), chapter=CH2)


def _thm6_final(dps: int) -> Outcome:
    steps = _thm6_steps()
    last = steps["display 4 at T = eps N^2/(lg sqrt(d ell)) = Theorem 6"]
    mid = steps["display 3 at alpha = eps N/(T lg sqrt(d ell)) = display 4"]
    derived = rates.thm_6_derived_bound(48)
    return erratum(mid.holds and not last.holds, "R coefficient x sqrt(lg) ell^(1/4)",
                    f"display 3 -> 4 (alpha substituted) holds exactly, but display 4 at "
                    f"T = eps N^2/(lg sqrt(d ell)) minus the printed theorem is {last.difference}: "
                    f"the R term lacks sqrt(log2 T) log(1/delta)^(1/4), the L terms should read "
                    f"12 L sqrt(lg) ell^(1/4) d^(1/4)/sqrt(eps N) (printed 6 L sqrt(lg ell) ... + "
                    f"3 eta L/4), and 6G/(alpha T) appears at display 3 from nowhere (it is the "
                    f"m_0 = 0 term, see lem11/initialisation). With Lemma 12's 48 the proof gives "
                    f"{sp.sstr(derived)}; the rate d^(1/4)/sqrt(eps N) + 1/sqrt(N) is unchanged",
                    f"E||grad F(w_hat)|| <= {sp.sstr(derived)}")


ledger.add("thm6/final-display", ref="Thm 6; App. D.2", kind="erratum", severity="proof-gap",
           statement="The bound of Theorem 6 follows from the last display of its proof at "
                     "T = eps N^2/(log2(T) sqrt(d log(1/delta))).",
           printed=pr.THM_6, check=_thm6_final,
           code=(f"{M}.rates.thm_6_steps", f"{M}.rates.thm_6_derived_bound"), chapter=CH2)


def _thm6_params(dps: int) -> Outcome:
    p = a1.thm_6_parameters(1000, 1, "1e-6", 10, dps=dps)
    with mpmath.workdps(dps + 10):
        c = mpf(10) ** 6 / mpmath.sqrt(10 * p.ell)
        resid = abs(p.T * mpmath.log(p.T, 2) / c - 1)
        a_err = abs(p.alpha * 1000 - 1)
    return passed(resid < mpf(10) ** (-dps + 8) and a_err < mpf(10) ** (-dps + 8),
               f"T = {nstr(p.T, 10)}",
               f"N = 1000, eps = 1, delta = 1e-6, d = 10: T = c ln 2 / W(c ln 2) with "
               f"c = eps N^2/sqrt(d ell) gives T = {nstr(p.T, 12)}, |T log2 T / c - 1| = "
               f"{nstr(resid, 2)}, and alpha = eps N/(T lg sqrt(d ell)) = 1/N to "
               f"{nstr(a_err, 2)} (so 'alpha >= 1/N' is tight at Thm 6's T)")


ledger.add("thm6/parameters", ref="Thm 6", kind="identity",
           statement="T = eps N^2/(log2(T) sqrt(d log(1/delta))) is solved by Lambert W, and "
                     "alpha = 1/N there.",
           printed=pr.THM_6_T, check=_thm6_params, code=(f"{M}.dp_nsgd.thm_6_parameters",),
           chapter=CH2)


