"""Liang et al. 2025, Sec. 3.2 and App. C: utility bounds, the corollaries, and C.1's steps.

The utility results are O(.) bounds; each is represented by the list of its terms (unit
constants), as sympy expressions in the paper's symbols plus ``mu`` (strong convexity,
Assumption 3.8), ``sigma_g`` (sigma_SGD, Assumption 3.6), ``d`` (dimension) and ``eps``
(the RDP level):

* Lemma 3.7 (Koloskova et al. 2023), eq. (17): DPSGD-GC, ``eta <= 1/(9L)``;
* Theorem 3.9, eq. (19): DPSGD-DC, L-smooth and mu-strongly convex, ``theta* in int K``,
  ``eta <= 9/(20L)``;
* Corollaries 3.11 / 3.12, eqs. (20)-(23): (17) / (19) with sigma^2 set by the privacy
  bound.  :func:`corollary_derivation` solves (12)-(15) for sigma^2 with sympy and
  substitutes; the result matches the printed terms up to factors depending on beta only.
* Remark 3.13: every D-dependent term of (22) increases with D (sympy derivative signs).

App. C.1 (proof of Thm 3.9): :func:`c1_constants` re-does the arithmetic of (51)-(66)
exactly; the evidence functions show where steps fail (a step-size gap in case (2.1), the
first step of (65), the misprint in (63)) and that the conclusions survive in the
instances examined, so these are proof gaps, not counterexamples to Theorem 3.9.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.errors import require
from dpsym.fdp.symbolic import Derivation
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, to_mpf
from dpsym.papers.liang2025._common import PAPER, S
from dpsym.papers.liang2025.privacy import eq_12_expr, eq_13_expr, eq_14_expr, eq_15_expr
from dpsym.papers.registry import cite

__all__ = [
    "CorollaryCheck",
    "U",
    "c1_constants",
    "case_sequence",
    "cor_3_11_terms",
    "cor_3_12_terms",
    "cor_n2_noise",
    "corollary_derivation",
    "eq_55_case_2_1",
    "eq_60_scan",
    "eq_63_instance",
    "eq_65_instance",
    "lem_3_7_terms",
    "rem_3_13_signs",
    "thm_3_9_terms",
]


class _UtilitySymbols:
    mu = sp.Symbol("mu", positive=True)
    sigma_g = sp.Symbol("sigma_g", positive=True)
    d = sp.Symbol("d", positive=True)
    eps = sp.Symbol("eps", positive=True)


U = _UtilitySymbols()


def _min(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    return sp.Min(a, b)


def lem_3_7_terms() -> list[sp.Expr]:
    """Lemma 3.7, eq. (17), the six terms inside O(.) (as printed)."""
    L, C, eta, T, b, sg, sig, d = S.L, S.C, S.eta, S.T, S.b, U.sigma_g, S.sigma, U.d
    return [1 / (eta * C * T), 1 / sp.sqrt(eta * T), _min(sg, sg ** 2 / C),
            sp.sqrt(eta * L) * sg / sp.sqrt(b), d * L * eta * sig ** 2 / C,
            sp.sqrt(d * L * eta) * sig]


def thm_3_9_terms() -> list[sp.Expr]:
    """Theorem 3.9, eq. (19), the six terms inside O(.) (as printed)."""
    L, C, eta, T, b, D, sg, sig, d, mu = (S.L, S.C, S.eta, S.T, S.b, S.D, U.sigma_g, S.sigma,
                                          U.d, U.mu)
    return [sp.sqrt(L) * D ** 2 / (eta * C * T), D / sp.sqrt(eta * T),
            _min(L ** sp.Rational(3, 4) / mu ** sp.Rational(5, 4) * sg,
                 sp.sqrt(sg ** 3 / (mu * C))),
            sp.sqrt(eta) * sg / sp.sqrt(b), d * eta * sig ** 2 * sp.sqrt(L) / C,
            sp.sqrt(d * eta) * sig]


def cor_3_11_terms(variant: str = "nb") -> list[sp.Expr]:
    """Corollary 3.11, eq. (20) ("nb") / (21) ("n2"), the six printed terms."""
    L, C, eta, T, b, n, d, a, e = S.L, S.C, S.eta, S.T, S.b, S.n, U.d, S.alpha, U.eps
    m = n * b if variant == "nb" else n ** 2
    return [*lem_3_7_terms()[:4], d * a * C * L * eta * T / (e * m),
            sp.sqrt(d * a * L * eta * T) * C / sp.sqrt(e * m)]


def cor_3_12_terms(variant: str = "nb") -> list[sp.Expr]:
    """Corollary 3.12, eq. (22) ("nb") / (23) ("n2"), the six printed terms."""
    L, C, eta, b, n, D, d, a, e = S.L, S.C, S.eta, S.b, S.n, S.D, U.d, S.alpha, U.eps
    m = n * b if variant == "nb" else n ** 2
    inner = (1 + eta * L) ** 2 * D ** 2 / eta ** 2 + C ** 2 / m
    return [*thm_3_9_terms()[:4], d * a * eta * sp.sqrt(L) / (e * C) * inner,
            sp.sqrt(d * a * eta / e * inner)]


@dataclass(frozen=True)
class CorollaryCheck:
    """A corollary re-derived: ``sigma2`` solves the privacy bound = eps for sigma^2;
    ``derived`` the last two terms with it substituted; ``printed`` the printed terms;
    ``ratios`` the (min, max) over each term of derived/printed -- free of every symbol but
    beta when the corollary holds up to constants."""

    name: str
    sigma2: sp.Expr
    derived: tuple[sp.Expr, sp.Expr]
    printed: tuple[sp.Expr, sp.Expr]
    ratios: tuple[tuple[sp.Expr, sp.Expr], tuple[sp.Expr, sp.Expr]]

    @property
    def holds(self) -> bool:
        """Every ratio bound depends on beta only (constants of the O(.))."""
        return all(r.free_symbols <= {S.beta} for pair in self.ratios for r in pair)


@functools.cache
def corollary_derivation(name: str) -> CorollaryCheck:
    """Re-derive ``name`` in {"cor3.11/nb", "cor3.11/n2", "cor3.12/nb", "cor3.12/n2"}.

    sympy solves eps = (12) (resp. (13), (14), (15)) for sigma^2 and substitutes into the
    two DP-noise terms of (17) (resp. (19)).  For 3.12, sigma^2 = (alpha/eps)(k1 X + k2 Y)
    with X = C^2/(n b) (or C^2/n^2), Y = (1 + eta L)^2 D^2/eta^2; the printed corollary
    uses X + Y, so derived/printed lies between min and max of (k1, k2) (and their square
    roots for the second term).
    """
    table = {"cor3.11/nb": (eq_12_expr, lem_3_7_terms, cor_3_11_terms, "nb"),
             "cor3.11/n2": (eq_13_expr, lem_3_7_terms, cor_3_11_terms, "n2"),
             "cor3.12/nb": (eq_14_expr, thm_3_9_terms, cor_3_12_terms, "nb"),
             "cor3.12/n2": (eq_15_expr, thm_3_9_terms, cor_3_12_terms, "n2")}
    require(name in table, "name", name, f"one of {sorted(table)}", cite(PAPER, "Cors 3.11, 3.12"))
    bound, base, printed_fn, variant = table[name]
    s2 = sp.Symbol("s2", positive=True)
    (sol,) = sp.solve(sp.Eq(bound().subs(S.sigma, sp.sqrt(s2)), U.eps), s2)
    derived = tuple(sp.simplify(t.subs(S.sigma, sp.sqrt(sol))) for t in base()[4:])
    printed = tuple(printed_fn(variant)[4:])
    ratios = []
    for dv, pv in zip(derived, printed, strict=True):
        r = sp.simplify(dv / pv)
        if name.startswith("cor3.12"):
            # extremes of the ratio: one of the two summands of sigma^2 vanishing
            lo = sp.simplify(sp.limit(r, S.D, 0))
            hi = sp.simplify(sp.limit(r, S.C, 0))
            ratios.append((lo, hi))
        else:
            ratios.append((r, r))
    return CorollaryCheck(name, sp.simplify(sol), derived, printed, tuple(ratios))


def rem_3_13_signs(variant: str = "nb") -> list[tuple[sp.Expr, bool]]:
    """Remark 3.13: ``(term, d term/dD > 0)`` for every D-dependent term of (22)/(23).

    Smaller D lowers each term, as the remark says -- provided theta* stays in int K,
    which bounds D from below (Theorem 3.9's hypothesis); the remark's "under certain
    conditions".
    """
    out = []
    for t in cor_3_12_terms(variant):
        if S.D in t.free_symbols:
            dt = sp.simplify(sp.diff(t, S.D))
            out.append((t, bool(dt.is_positive)))
    return out


def c1_constants() -> list[Derivation]:
    """The arithmetic of App. C.1 redone exactly; each residual simplifies to 0.

    ``r = sqrt(mu/L)`` in (0, 1]; coefficients are in units of ``eta C sqrt(Delta)/sqrt(2L)``
    (``Delta = l(theta_t) - l(theta*)``).  (51)'s last step needs ``r <= 1``, i.e. mu <= L,
    which holds for every L-smooth mu-strongly convex l: implied, not an extra hypothesis.
    """
    r = sp.Symbol("r", positive=True)
    L, mu, sg, C, eta = S.L, U.mu, U.sigma_g, S.C, S.eta
    s = L / mu
    out = []
    step = (2 * eta * C * sg * s ** sp.Rational(1, 4)
            / (7 * sg * s ** sp.Rational(3, 4) - sg * s ** sp.Rational(1, 4)) * sp.sqrt(2 / mu))
    target = 4 * eta * C / (sp.sqrt(2) * (7 * sp.sqrt(L) - sp.sqrt(mu)))
    out.append(Derivation(step, target, sp.simplify(step - target), "(51), fourth step"))
    # (51) last step: -7/4 + 4/(7 - r) <= -13/12  <=>  r <= 1 (slack as a function of r)
    slack = sp.factor(sp.Rational(-13, 12) - (sp.Rational(-7, 4) + 4 / (7 - r)))
    out.append(Derivation(slack, 2 * (1 - r) / (3 * (7 - r)),
                          sp.simplify(slack - 2 * (1 - r) / (3 * (7 - r))),
                          "(51) last step: slack = 2(1-r)/(3(7-r)) >= 0 iff r <= 1 (mu <= L)"))
    checks = {
        "(53): 1 - (1/25) r >= 24/25 at r = 1": (1 - sp.Rational(1, 25), sp.Rational(24, 25)),
        "(54): -(13/12)(24/25) + 4/25 = -22/25": (sp.Rational(-13, 12) * sp.Rational(24, 25)
                                                  + sp.Rational(4, 25), sp.Rational(-22, 25)),
        "(56): -22/25 + 2/5 = -12/25": (sp.Rational(-22, 25) + sp.Rational(2, 5),
                                        sp.Rational(-12, 25)),
        "(59): -1 + 2/5 = -3/5": (-1 + sp.Rational(2, 5), sp.Rational(-3, 5)),
        "(60): -3/5 + 2/5 = -1/5": (sp.Rational(-3, 5) + sp.Rational(2, 5), sp.Rational(-1, 5)),
        "(64): 2 - 4/25 = 46/25": (2 - sp.Rational(4, 25), sp.Rational(46, 25)),
        "(66): -46/25 + 9/5 = -1/25": (sp.Rational(-46, 25) + sp.Rational(9, 5),
                                       sp.Rational(-1, 25)),
    }
    for note, (dv, tv) in checks.items():
        out.append(Derivation(dv, tv, sp.simplify(dv - tv), note))
    # (59): 2 sigma_g sqrt(2/mu) <= (2/5) C/sqrt(2L)  <=>  C >= 10 sigma_g sqrt(L/mu) (case 2)
    thr = sp.solve(sp.Eq(2 * sg * sp.sqrt(2 / mu), sp.Rational(2, 5) * C / sp.sqrt(2 * L)), C)[0]
    out.append(Derivation(thr, 10 * sg * sp.sqrt(L / mu), sp.simplify(thr - 10 * sg
                                                                       * sp.sqrt(L / mu)),
                          "(59): needs C >= 10 sigma_SGD sqrt(L/mu), the case-(2) condition"))
    # (64): 16 sigma^2/C^2 sqrt(L/mu) <= (4/25) sqrt(mu/L) <=> C >= 10 sigma sqrt(L/mu)
    thr = sp.solve(sp.Eq(16 * sg ** 2 / C ** 2 * sp.sqrt(L / mu),
                         sp.Rational(4, 25) * sp.sqrt(mu / L)), C)[0]
    out.append(Derivation(thr, 10 * sg * sp.sqrt(L / mu), sp.simplify(thr - 10 * sg
                                                                       * sp.sqrt(L / mu)),
                          "(64): needs C >= 10 sigma_SGD sqrt(L/mu), the case-(2) condition"))
    # (65): 2 eta^2 ||grad l||^2 <= 2 eta^2 (2 L Delta) <= (9/5) eta Delta iff eta <= 9/(20L)
    thr = sp.solve(sp.Eq(4 * eta ** 2 * L, sp.Rational(9, 5) * eta), eta)
    thr = next(t for t in thr if t != 0)
    out.append(Derivation(thr, sp.Rational(9, 20) / L, sp.simplify(thr - sp.Rational(9, 20) / L),
                          "(65): 4 eta^2 L <= 9 eta/5 iff eta <= 9/(20L), Thm 3.9's step size"))
    return out


# --- evidence for the gaps of C.1 -------------------------------------------------------------

@dataclass(frozen=True)
class StepCheck:
    """An inequality of the proof at one instance: ``lhs <= rhs`` is what the step asserts;
    ``holds`` whether it does; ``conclusion_lhs <= conclusion_rhs`` the inequality the step
    serves (e.g. (60) itself), with ``conclusion_holds``."""

    lhs: mpf
    rhs: mpf
    holds: bool
    conclusion_lhs: mpf
    conclusion_rhs: mpf
    conclusion_holds: bool


def eq_55_case_2_1(*, L: Number = 1, C: Number = 1, ratio: Number = "0.51",
                   eta: Number | None = None, dps: int = DEFAULT_DPS) -> StepCheck:
    """Case (2.1) of C.1 reuses (55), ``eta^2 C^2 <= (eta C/sqrt(2L)) (2/5) sqrt(Delta)``.

    (55) was derived in case (1.1) from ``||grad l|| >= 3.5 C (L/mu)^(1/4)``; case (2.1)
    only has ``||grad l|| > C/2``, and then (55) needs ``eta <= ||grad l||/(5 L C)``, i.e.
    ``eta <= 1/(10L)`` in the worst case, not Thm 3.9's ``eta <= 9/(20L)``.  Instance:
    l(theta) = L theta^2/2 in d = 1 (mu = L, sigma_SGD = 0, so every C is in case (2)),
    ``||grad l|| = ratio C`` with ratio in (1/2, 1], eta = 9/(20L) by default.

    The conclusion checked is (60) itself (noise terms cancel on both sides):
    ``(1 - eta L)^2 theta^2 <= theta^2 - (eta C/(5 sqrt(2L))) sqrt(Delta)`` (no clipping
    since ||grad l|| < C; no projection for a large K).
    """
    ref = cite(PAPER, "App. C.1, eqs. (55), (60)")
    with precision(dps + GUARD_DPS):
        Lv, Cv, rv = to_mpf(L, "L", ref), to_mpf(C, "C", ref), to_mpf(ratio, "ratio", ref)
        require(Lv > 0, "L", L, "L > 0", ref)
        require(Cv > 0, "C", C, "C > 0", ref)
        require(mpf(1) / 2 < rv <= 1, "ratio", ratio, "1/2 < ||grad l||/C <= 1 (case 2.1)", ref)
        e = mpf(9) / (20 * Lv) if eta is None else to_mpf(eta, "eta", ref)
        require(0 < e <= mpf(9) / (20 * Lv), "eta", eta, "0 < eta <= 9/(20L)", ref)
        theta = rv * Cv / Lv
        delta = Lv * theta ** 2 / 2
        lhs = e ** 2 * Cv ** 2
        rhs = e * Cv / mpmath.sqrt(2 * Lv) * mpf(2) / 5 * mpmath.sqrt(delta)
        c_lhs = (1 - e * Lv) ** 2 * theta ** 2
        c_rhs = theta ** 2 - e * Cv / (5 * mpmath.sqrt(2 * Lv)) * mpmath.sqrt(delta)
        return StepCheck(lhs, rhs, lhs <= rhs, c_lhs, c_rhs, c_lhs <= c_rhs)


@functools.cache
def eq_60_scan(*, points: int = 40, dps: int = 30) -> tuple[int, int, int]:
    """Scan case (2.1) of the quadratic instance of :func:`eq_55_case_2_1` over
    ``ratio in (1/2, 1]`` and ``eta L in (0, 9/20]`` (points x points grid).

    Returns ``(instances, (55) fails, (60) fails)``: (55) fails on a large part of the grid
    and (60) on none, so the gap is in the proof, not (in this family) in the conclusion.
    """
    fails55 = fails60 = total = 0
    for i in range(1, points + 1):
        ratio = Fraction(1, 2) + Fraction(i, 2 * points)
        for j in range(1, points + 1):
            eta = Fraction(9 * j, 20 * points)
            c = eq_55_case_2_1(ratio=ratio, eta=eta, dps=dps)
            total += 1
            fails55 += not c.holds
            fails60 += not c.conclusion_holds
    return total, fails55, fails60


def eq_63_instance(*, C: Number = "0.5", sigma_g: Number = "0.1", eps: Number = "1e-6",
                   dps: int = 30) -> tuple[mpf, mpf, mpf]:
    """(63) prints ``Pr[||grad l_xi|| > C] <= 4 sigma_SGD^2 / C``; Markov gives ``/ C^2``.

    Instance (d = 1, grad l = 0): ``grad l_xi - grad l = +-(C/2 + eps)`` with probability
    ``p/2`` each, 0 otherwise, ``p = sigma^2/(C/2 + eps)^2``, so the variance is sigma^2 and
    Pr[||grad l_xi|| > C/2] = p -> 4 sigma^2/C^2.  Returns (probability, printed bound,
    Markov bound); for C < 1 the printed bound is exceeded.  (64) uses ``/C^2``: a misprint.
    """
    ref = cite(PAPER, "App. C.1, eq. (63)")
    with precision(dps + GUARD_DPS):
        Cv, sv, ev = to_mpf(C, "C", ref), to_mpf(sigma_g, "sigma_g", ref), to_mpf(eps, "eps", ref)
        require(Cv > 0 and sv > 0 and ev > 0, "C", C, "C, sigma_g, eps > 0", ref)
        p = sv ** 2 / (Cv / 2 + ev) ** 2
        require(p <= 1, "sigma_g", sigma_g, "sigma_g <= C/2 (a probability p <= 1)", ref)
        return p, 4 * sv ** 2 / Cv, 4 * sv ** 2 / Cv ** 2


def eq_65_instance(*, n: int = 20000, b: int = 4000, C: Number = 1, L: Number = 1,
                   dps: int = 30) -> StepCheck:
    """(65) at theta_t = theta* (Delta = 0) in case (2.2): it asserts E||g||^2 <= 2 sigma^2/b.

    Data (d = 1): l_xi(theta) = L theta^2/2 + u_xi theta, so grad l = L theta, mu = L and
    theta* = 0; u = 2C on a fraction p = 1/401 of the n points and -2C p/(1 - p) on the rest
    (mean 0, sigma_SGD^2 = 4 C^2 p/(1 - p) = C^2/100, so C = 10 sigma_SGD sqrt(L/mu):
    case (2); ||grad l(theta*)|| = 0 <= C/2: case (2.2)).  Clipping biases the mean of the
    clipped gradients to -pC, and under Poisson sampling with divisor b

        E||g||^2 = E[g_xi^2] (1/b - 1/n) + (E g_xi)^2,

    which exceeds 2 sigma^2/b once b > 2 sigma^2/(pC)^2 (about 3216 here): the first step of
    (65), ``E||(1/b) sum g_xi||^2 <= (1/b^2) sum E||g_xi||^2``, drops the cross terms, and
    the clipping bias is never accounted for.  The conclusion checked is (66) at theta_t =
    theta* (noise terms cancel): ``eta^2 E||g||^2 <= 4 eta sigma^3/(mu C) + 2 eta^2 sigma^2/b``
    at eta = 9/(20L); it holds, by the 4 eta sigma^3/(mu C) term.
    """
    ref = cite(PAPER, "App. C.1, eq. (65)")
    with precision(dps + GUARD_DPS):
        Cv, Lv = to_mpf(C, "C", ref), to_mpf(L, "L", ref)
        require(isinstance(n, int) and isinstance(b, int) and 1 <= b <= n, "b", b,
                "integers 1 <= b <= n", ref)
        p = mpf(1) / 401
        u_hi, u_lo = 2 * Cv, -2 * Cv * p / (1 - p)
        s2 = p * u_hi ** 2 + (1 - p) * u_lo ** 2
        g_hi, g_lo = min(u_hi, Cv), u_lo  # clip_C; |u_lo| < C
        m = p * g_hi + (1 - p) * g_lo
        m2 = p * g_hi ** 2 + (1 - p) * g_lo ** 2
        lhs = m2 * (mpf(1) / b - mpf(1) / n) + m ** 2
        rhs = 2 * s2 / b
        eta = mpf(9) / (20 * Lv)
        c_lhs = eta ** 2 * lhs
        c_rhs = 4 * eta * mpmath.sqrt(s2) ** 3 / (Lv * Cv) + 2 * eta ** 2 * s2 / b
        return StepCheck(lhs, rhs, lhs <= rhs, c_lhs, c_rhs, c_lhs <= c_rhs)


def case_sequence(*, L: Number = 1, C: Number = 1, theta0: Number = 3, eta: Number = "0.4",
                  steps: int = 12) -> list[str]:
    """Which case of C.1 each iterate of deterministic clipped GD is in (l = L theta^2/2,
    sigma_SGD = 0, so case (2)): "2.1" while ||grad l|| > C/2, then "2.2".

    The proof bounds each case separately, (61) and (69) averaging over *all* t as if every
    iterate were in the same case; here one run visits both, which the final "summing up
    all the cases" (70) does not address.
    """
    Lf, Cf, th, e = float(L), float(C), float(theta0), float(eta)
    out = []
    for _ in range(steps):
        g = Lf * th
        out.append("2.1" if abs(g) > Cf / 2 else "2.2")
        th -= e * g * min(1.0, Cf / abs(g)) if g != 0 else 0.0
    return out


def cor_n2_noise(*, alpha: Number, eps: Number, T: int, n: int, b: int, C: Number,
                 beta: Number, dps: int = 30) -> tuple[mpf, mpf]:
    """``(sigma, 8C/(b sqrt(beta)))``: the noise Cor. 3.11's n^2 bullet sets, sigma^2 solving
    eps = (13) (:func:`corollary_derivation`), next to the side condition it must exceed.

    The corollary states both the side condition and sigma^2 = O(alpha C^2 T/(eps n^2)); at
    practical (eps, T, n, b) the second violates the first, so the bullet does not apply.
    """
    ref = cite(PAPER, "Cor. 3.11, eq. (21)")
    c = corollary_derivation("cor3.11/n2")
    f = sp.lambdify((S.alpha, U.eps, S.T, S.n, S.C, S.beta), c.sigma2, "mpmath")
    with precision(dps + GUARD_DPS):
        vals = [to_mpf(v, k, ref) for k, v in (("alpha", alpha), ("eps", eps), ("C", C),
                                                ("beta", beta))]
        a, e, Cv, bt = vals
        require(a > 1 and e > 0 and Cv > 0 and 0 < bt < 1, "alpha", alpha,
                "alpha > 1, eps > 0, C > 0, 0 < beta < 1", ref)
        sigma = mpmath.sqrt(f(a, e, T, n, Cv, bt))
        thresh = 8 * Cv / (b * mpmath.sqrt(bt))
        return +sigma, +thresh
