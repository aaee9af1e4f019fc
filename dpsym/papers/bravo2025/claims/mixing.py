"""Claims of Section 4 and Appendix C: the KL bound (9), Theta of (10), Lemma 4.1,
Theorem 4.2, the adaptivity in p, and the one-step constant in the proof of Lemma C.1."""

from __future__ import annotations

from mpmath import mpf

from dpsym.claims import Outcome, identity_outcome
from dpsym.numerics import agreeing_digits, nstr, precision
from dpsym.papers.bravo2025 import mixing as mix
from dpsym.papers.bravo2025.claims._common import derivations, holds, ledger
from dpsym.shifts.modulus import weakly_smooth
from dpsym.shifts.pabi import optimal_value

X = "dpsym.papers.bravo2025.mixing"
CH = "05_mixing"


def _eq9_vs_thm34(dps: int) -> Outcome:
    eta, L, D, T = "0.01", 1, 2, 60

    def resid(d: int) -> mpf:
        with precision(d + 10):
            h = weakly_smooth(eta, 0, 2 * L, dps=d + 10).h
            lhs = mix.eq_9(D, eta, T, h, form="sum", dps=d + 10)
            rhs = optimal_value(D, [1] * T, [h] * T, [2 * mpf(eta)] * T, dps=d + 10) / 2
            return lhs - rhs

    return identity_outcome(resid, None, dps, "(9) with H_T (eta = 0.01, L = 1, D = 2, T = 60) "
                            "= Theorem 3.4 value / 2 at sigma^2 = 2 eta (alpha = 1)")


ledger.add("eq9/equals-thm3.4", ref="eq. (9)", kind="identity",
           statement="The KL bound (9) is Theorem 3.4 at alpha = 1, sigma^2 = 2 eta, c = 1.",
           check=_eq9_vs_thm34, code=(f"{X}.eq_9", "dpsym.shifts.pabi.optimal_value"),
           chapter=CH)


def _eq9_weakly(dps: int) -> Outcome:
    def resid(d: int) -> mpf:
        with precision(d + 10):
            return sum(abs(weakly_smooth(eta, p, M, dps=d + 10).h / (4 * mpf(eta))
                           - mix.eq_9_weakly_smooth_printed(eta, p, M, dps=d + 10))
                       for p, M, eta in (("0.25", 3, "0.01"), ("0.5", 2, "0.1"),
                                         ("0.9", 5, "0.002")))

    return identity_outcome(resid, None, dps, "h/(4 eta) (derived h) = the printed display "
                            "(eta^((1+p)/(2(1-p))) sqrt((1-p)/(1+p)) (M/2)^(1/(1-p)))^2 at "
                            "(p, M, eta) = (0.25, 3, 0.01), (0.5, 2, 0.1), (0.9, 5, 0.002)")


ledger.add("eq9/weakly-smooth-form", ref="Sec. 4, after (9)", kind="identity",
           statement="The weakly smooth form of (9): h ln(Te)/(4 eta) = ln(Te) "
                     "(eta^((1+p)/(2(1-p))) sqrt((1-p)/(1+p)) (M/2)^(1/(1-p)))^2.",
           check=_eq9_weakly, code=(f"{X}.eq_9_weakly_smooth_printed",
                                    "dpsym.shifts.modulus.weakly_smooth"), chapter=CH)

ledger.add("eq10/limits", ref="eq. (10), after Lemma 4.1", kind="limit",
           statement="Theta -> M/2 as p -> 1 (the nonexpansive condition); Theta = (M/2)^2 "
                     "max{16 ln(sqrt(2e) D M/2), 27} at p = 0.",
           check=lambda dps: derivations(lambda: list(mix.eq_10_limits()), "limits"),
           code=(f"{X}.eq_10_limits",), chapter=CH)

ledger.add("lem4.1/inequalities", ref="Lemma 4.1 (proof)", kind="inequality",
           statement="x/4 - ln x >= x/8 for x >= 27, and F_p >= F for x >= 1.",
           check=lambda dps: derivations(mix.lem_4_1_inequalities, "Lemma 4.1"),
           code=(f"{X}.lem_4_1_inequalities",), chapter=CH)


def _lem41_sweep(dps: int) -> Outcome:
    worst, arg = mix.lem_4_1_sweep(400, seed=0, dps=20)
    return holds(worst <= mpf(1) / 2, f"max KL bound = {nstr(worst, 6)}",
                 f"400 seeded draws (seed 0), p in [0, 0.999), M, D log-uniform in [1e-3, 1e3], "
                 f"1/eta = Theta, T = ceil(D^2/eta): the KL bound (9) never exceeds 1/2 "
                 f"(largest {nstr(worst, 6)} at {arg}), so Pinsker gives TV <= 1/2")


ledger.add("lem4.1/sufficiency", ref="Lemma 4.1, eq. (10)", kind="montecarlo",
           statement="With 1/eta = Theta(p, M, D) and T = ceil(D^2/eta), (9) gives KL <= 1/2.",
           check=_lem41_sweep, code=(f"{X}.lem_4_1_sweep",), chapter=CH, headline=True)


def _lem41_p0(dps: int) -> Outcome:
    worst = mpf(1)
    with precision(dps):
        for M in ("0.01", "1", "2", "10", "300"):
            for D in ("0.01", "1", "5", "100"):
                worst = min(worst, mix.lem_4_1_p0_printed(M, D, dps=dps)
                            / mix.eq_10(0, M, D, dps=dps))
        # both are rounded up at dps digits: equality (both maxima at 27) shows as 1 - 1e-dps
        ok = worst >= 1 - mpf(10) ** (5 - dps)
    return holds(ok, f"min printed/Theta = {nstr(worst, 8)}",
                 "the p = 0 case printed after Lemma 4.1, (M/2)^2 max{16 ln(D (M/2) e), 27}, is "
                 ">= Theta(0, M, D) of (10) (e > sqrt(2e)) on M in {0.01, .., 300}, "
                 "D in {0.01, .., 100}, so it still implies Lemma 4.1")


ledger.add("lem4.1/p=0-case", ref="after Lemma 4.1", kind="inequality",
           statement="The p = 0 restriction printed after Lemma 4.1 is at least as strong as "
                     "(10) at p = 0.",
           check=_lem41_p0, code=(f"{X}.lem_4_1_p0_printed", f"{X}.eq_10"), chapter=CH)


def _thm42_mc(dps: int) -> Outcome:
    e = mix.pla_mixing_experiment()
    i108 = e.times.index(108)
    agree = all(abs(m[0] - g) <= 2 * m[1] + m[2] for m, g in zip(e.mc, e.grid_binned,
                                                                 strict=True))
    below = all(m[0] - 2 * m[1] <= min(pk, bo) for m, pk, bo in zip(e.mc, e.pinsker, e.boosted,
                                                                     strict=True))
    ok = agree and below and e.grid_full[i108] <= 0.5 and abs(e.theta - 27) < 1e-12
    return holds(ok, f"TV(108) ~ {e.mc[i108][0]:.4f} (MC), {e.grid_full[i108]:.2e} (kernel)",
                 "PLA on [-1, 1], f = |x|, eta = 1/Theta = 1/27, 20000 chains from x0 = 1 (seed "
                 "2025): the binned MC TV agrees with the discretised kernel within 2 sd + "
                 f"noise floor at every T ({agree}) and lies below (9)+Pinsker and the Thm 4.2 "
                 f"staircase ({below}); at T = ceil(D^2/eta) = 108 the distance is "
                 f"{e.grid_full[i108]:.2e} <= 1/2: the bound holds with a large margin")


ledger.add("thm4.2/pla-simulation", ref="Thm 4.2, Lemma 4.1, Thm C.2", kind="montecarlo",
           statement="Simulated PLA (f = |x| on [-1, 1], eta = 1/Theta) is within the proved "
                     "TV bounds.",
           check=_thm42_mc, code=(f"{X}.pla_mixing_experiment",), chapter=CH,
           figure="bravo2025/pla_mixing")


def _adaptivity(dps: int) -> Outcome:
    convex, best, prof = mix.sec_4_adaptivity("0.5")
    interior = 0 < best[0] < 0.5
    return holds(convex and interior, f"p* = {best[0]:.2f}",
                 "f = (2/3)|x|^(3/2) + 5 x^2/2 on [-1, 1] (grid of 401 points), eta = 0.5: "
                 f"log M(p) is convex on p in [0, 1/2] ({convex}); the weakly smooth KL term "
                 f"h(p, M(p))/(4 eta) is smallest at p* = {best[0]:.2f} ({best[2]:.4g}) against "
                 f"{prof[0][2]:.4g} at p = 0 and {prof[-1][2]:.4g} at p = 1/2: a nontrivial "
                 "optimal p exists (here in a regime where the bound itself is large)")


ledger.add("sec4/adaptivity-in-p", ref="Sec. 4, after (9)", kind="montecarlo",
           statement="M(p) is log-convex and the infimum over p of the KL bound may be "
                     "attained at a nontrivial p.",
           check=_adaptivity, code=(f"{X}.sec_4_adaptivity",), chapter=CH)


def _lemc1(dps: int) -> Outcome:
    kl, printed_bound, fixed = mix.lem_c_1_counterexample(dps=dps)
    kl2, _, _ = mix.lem_c_1_counterexample(dps=dps + 20)
    violated = kl > printed_bound and kl <= fixed
    return Outcome(
        "erratum" if violated else "failed" if kl > fixed else "reproduced",
        nstr(kl, 15), agreeing_digits(kl, kl2, cap=dps),
        "X = [-1, 1] (D = 2), f = 5|x|, eta = 1, mu = delta_{1e-9}, nu = delta_{-1e-9}: the "
        f"exact one-step KL between the projected Gaussians is {nstr(kl, 12)} > D^2/(4 eta) = "
        f"{nstr(printed_bound, 4)}; the proof's step 'Lemma 3.1 with the projection and Lemma "
        "2.5 with a = D' needs W_inf(Phi mu, Phi nu) <= D, false for the non-nonexpansive "
        "subgradient map.  The lemma's conclusion (the laws P^t(x, .) are Cauchy in TV) and "
        "Theorem C.2 still follow with the corrected constant, which is finite",
        f"KL(J mu || J nu) <= phi(D)^2/(4 eta) = (D^2 + (2 eta L)^2)/(4 eta) = {nstr(fixed, 4)} "
        "for convex L-Lipschitz f (Lemma 3.2 with delta = D, a = phi(D)); then kappa < 1 and "
        "the rest of the proof stands",
    )


ledger.add("lemC.1/constant", ref="Lemma C.1 (proof)", kind="erratum", severity="proof-gap",
           printed="KL(J mu || J nu) <= D^2/(4 eta)",
           statement="In the proof of Lemma C.1: KL(J mu || J nu) <= D^2/(4 eta) for all mu, nu "
                     "on X.",
           check=_lemc1, code=(f"{X}.lem_c_1_counterexample", f"{X}.lem_c_1_paper",
                               f"{X}.lem_c_1_corrected"), chapter=CH)
