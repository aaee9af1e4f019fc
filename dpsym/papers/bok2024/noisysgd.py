"""NoisySGD (Sec. 4.3, App. C.4): Def. 4.7, Thms 4.8-4.10, Lemma C.12, Thm C.13, Props C.14 and
C.15, and the text around them.

NoisySGD draws a batch of size b uniformly from the n examples at every step, so the example
that differs between neighbouring datasets is used with probability p = b/n.  Symbols are the
paper's: L (gradient sensitivity, Def. 2.10), n, b, p = b/n, sigma (noise: the update is
x - eta (mean gradient + N(0, sigma^2 I))), eta (step size), m, M (strong convexity,
smoothness), c = max(|1 - eta m|, |1 - eta M|) (Lemma 2.8), t (steps), tau (the step from
which the shifted interpolation starts), D (diameter of the constraint set), a_k and z_k
(Thm C.13's shift budgets and distances), alpha_sq = alpha^2 for the noise split of
footnotes 10 and 11 (1/alpha^2 + 1/beta^2 = 1; the printed statements have alpha_sq = 2).

Every bound of this section has the form

    f = G(mu_0) (x) C_p(G(mu_1))^{(x) k_1} (x) ... (x) C_p(G(mu_r))^{(x) k_r}

(:class:`NoisySGDTradeoff`); the statement functions return that form with its parameters
rounded towards more privacy loss (mu and p up).  Composing it is numerical
(:mod:`dpsym.papers.bok2024.noisysgd_accounting`).

**Erratum T49** (Thm 4.9): the printed range tau = 0, 1, ..., t - 1 starts one too low.  At
tau = 0 the argument of the GDP factor, (2 sqrt 2 L/(b sigma)) (c^{t+1} - c^t)/(1 - c) =
-(2 sqrt 2 L/(b sigma)) c^t, is negative, so G of it is not a tradeoff function; the proof
(Thm C.13 with a_k = eta L/b for tau <= k <= t - 1 and a_k = 0 for 1 <= k < tau) gives
exactly tau = 1, ..., t.  :func:`thm_4_9` takes that range; :func:`thm_4_9_gdp_argument`
evaluates the printed argument at any tau, 0 included.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer, require_sequence
from dpsym.fdp import Gaussian, TradeoffFunction, clt_K
from dpsym.fdp.clt import clt_K_symbolic
from dpsym.fdp.neyman_pearson import mixture_delta
from dpsym.fdp.subsampling import SubsampledEnvelope, SubsampledGaussian, subsample
from dpsym.fdp.symbolic import Derivation, std_normal_cdf
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, Phi, precision, round_up, to_mpf
from dpsym.papers.bok2024 import printed
from dpsym.papers.bok2024.noisygd import lem_2_8
from dpsym.papers.registry import cite

__all__ = [
    "FIGURE_4",
    "LEM_C_12_PAIRS",
    "EnvelopeAgreement",
    "LemmaC12Scan",
    "NoisySGDTradeoff",
    "OneStepFacts",
    "def_4_7",
    "def_4_7_agreement",
    "def_4_7_gaussian",
    "lem_c_12",
    "lem_c_12_pair_delta",
    "lem_c_12_scan",
    "one_step_tradeoff",
    "prop_c_14",
    "prop_c_14_mu",
    "prop_c_14_symbolic",
    "prop_c_15",
    "prop_c_15_mu",
    "prop_c_15_symbolic",
    "thm_4_8",
    "thm_4_8_fact_c",
    "thm_4_8_one_step_facts",
    "thm_4_8_tangency",
    "thm_4_8_tangency_symbolic",
    "thm_4_9",
    "thm_4_9_gdp_argument",
    "thm_4_10",
    "thm_4_10_at22_scaling",
    "thm_c_13",
    "thm_c_13_distances",
]

PAPER = "bok2024"

#: Figure 4 (App. C.4.1): p = 0.25, L/(b sigma) = 2.5, lambda in {0, 0.5, 1}.
FIGURE_4 = {"p": "0.25", "mu": "2.5", "lambdas": ("0", "0.5", "1")}


@dataclass(frozen=True)
class NoisySGDTradeoff:
    """f = G(gdp) (x) C_p(G(mu_1))^{(x) k_1} (x) ... : the form of Thms 4.8-4.10 and C.13.

    ``factors`` holds (mu_j, k_j) with k_j >= 1 and mu_j > 0 (C_p(G(0)) = Id is dropped);
    ``gdp`` is 0 when there is no GDP factor.  All values are rounded up at ``dps`` digits.
    """

    p: mpf
    gdp: mpf
    factors: tuple[tuple[mpf, int], ...]
    statement: str

    @property
    def steps(self) -> int:
        """Number of subsampled factors, sum k_j."""
        return sum(k for _, k in self.factors)

    def clt_mu(self, dps: int = DEFAULT_DPS) -> mpf:
        """The CLT approximation sqrt(gdp^2 + sum_j 2 p^2 k_j K(mu_j)) (Lemma A.5 on each block,
        GDP composition across blocks, as in the proofs of Props C.14, C.15).  Not a bound."""
        with precision(dps + GUARD_DPS):
            tot = self.gdp**2 + mpmath.fsum(2 * self.p**2 * k * _clt_K(m, dps + GUARD_DPS)
                                            for m, k in self.factors)
            return mpmath.sqrt(tot)


@lru_cache(maxsize=256)
def _clt_K(mu: mpf, dps: int) -> mpf:
    """Lemma A.5's K at mu (:func:`dpsym.fdp.clt_K`), memoised: Figure 10 evaluates the CLT of
    one factor at thousands of t - tau."""
    return clt_K(mu, dps=dps)


def _ref(where: str) -> str:
    return cite(PAPER, where)


def _pos(x: Number, name: str, ref: str, strict: bool = True) -> mpf:
    v = to_mpf(x, name, ref)
    require(v > 0 if strict else v >= 0, name, x, f"{name} > 0" if strict else f"{name} >= 0",
            ref)
    return v


def _rate(b: Number, n: Number, ref: str) -> mpf:
    bv, nv = _pos(b, "b", ref), _pos(n, "n", ref)
    require(bv <= nv, "b", b, f"b <= n = {n} (batch inside the dataset)", ref)
    return bv / nv


def _grouped(mus: Sequence[mpf], dps: int) -> tuple[tuple[mpf, int], ...]:
    """(mu, count) for the positive mus, in order of first appearance, rounded up."""
    out: dict[mpf, int] = {}
    for m in mus:
        if m > 0:
            key = round_up(m, dps)
            out[key] = out.get(key, 0) + 1
    return tuple(out.items())


def _split(alpha_sq: Number, ref: str) -> tuple[mpf, mpf]:
    """alpha, beta with 1/alpha^2 + 1/beta^2 = 1 (footnotes 10, 11); alpha_sq = 2 is the text."""
    a2 = to_mpf(alpha_sq, "alpha_sq", ref)
    require(a2 > 1, "alpha_sq", alpha_sq, "alpha^2 > 1 (so that 1/alpha^2 + 1/beta^2 = 1)", ref)
    return mpmath.sqrt(a2), mpmath.sqrt(a2 / (a2 - 1))


# --- Definition 4.7: the subsampling operator ----------------------------------------------


def def_4_7(f: TradeoffFunction, p: Number, n: int = 1000, dps: int = 30) -> SubsampledEnvelope:
    """Def. 4.7: C_p(f) = min{f_p, f_p^-1}**, f_p = p f + (1 - p) Id, for any tradeoff f.

    A certified enclosure H - omega <= C_p(f) <= H from n sampled type-I errors
    (:func:`dpsym.fdp.subsampling.subsample`).
    """
    return subsample(f, p, n=n, dps=dps)


def def_4_7_gaussian(p: Number, mu: Number) -> SubsampledGaussian:
    """Def. 4.7 for f = G(mu) in closed form (App. C.4.1 (a)-(c)): f_p up to alpha_1 =
    Phi(-mu/2), the slope -1 segment to alpha_2 = f_p(alpha_1), then f_p^-1."""
    return SubsampledGaussian(p, mu)


@dataclass(frozen=True)
class EnvelopeAgreement:
    """Def. 4.7 two ways: the certified numeric envelope (H - omega <= C_p(G(mu)) <= H) and
    the closed form, compared at ``points`` type-I errors."""

    omega: mpf
    max_gap: mpf          # max |H(x) - closed(x)|
    contained: bool       # closed(x) in [H(x) - omega, H(x)] at every point
    points: int


def def_4_7_agreement(p: Number, mu: Number, n: int = 600, points: int = 199, dps: int = 30
                      ) -> EnvelopeAgreement:
    """Compare :func:`def_4_7` (numeric, any f) with :func:`def_4_7_gaussian` (closed form)."""
    env = def_4_7(Gaussian(mu), p, n=n, dps=dps)
    closed = def_4_7_gaussian(p, mu)
    with precision(dps):
        gap, inside = mpf(0), True
        for i in range(1, points + 1):
            x = mpf(i) / (points + 1)
            lo, hi = env.bounds(x)
            c = closed(x)
            gap = max(gap, abs(hi - c))
            inside = inside and lo <= c <= hi
    return EnvelopeAgreement(env.omega, gap, inside, points)


# --- Theorem 4.8 -----------------------------------------------------------------------------


def thm_4_8(L: Number, b: Number, n: Number, sigma: Number, t: int,
            dps: int = DEFAULT_DPS) -> NoisySGDTradeoff:
    """Thm 4.8 ([DRS22, Thm 9]): NoisySGD is f-DP with f = C_{b/n}(G(L/(b sigma)))^{(x) t}.

    >>> f = thm_4_8(L=10, b=1500, n=60000, sigma="0.01", t=2000)
    >>> from dpsym.numerics import nstr
    >>> nstr(f.p, 6), nstr(f.factors[0][0], 6), f.factors[0][1]
    ('0.025', '0.666667', 2000)
    """
    ref = _ref("Thm 4.8")
    t = require_integer("t", t, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        Lv, sg = _pos(L, "L", ref), _pos(sigma, "sigma", ref)
        p = _rate(b, n, ref)
        mu = Lv / (to_mpf(b) * sg)
    return NoisySGDTradeoff(round_up(p, dps), mpf(0), ((round_up(mu, dps), t),), "Thm 4.8")


def one_step_tradeoff(p: Number, mu: Number, lam: Number, z: Number, dps: int = DEFAULT_DPS
                      ) -> tuple[mpf, mpf]:
    """The point (alpha(z), f^(lambda)(alpha(z))) of the one-step instance of App. C.4.1.

    With grad f_i = grad f'_i = 0 (i != i*), grad f_{i*} = (1 - lambda) L u and grad f'_{i*} =
    -lambda L u, one step gives T(X_1, X'_1) = f^(lambda) = T(-(1 - lambda) mu V + N(0, 1),
    lambda mu V' + N(0, 1)), V, V' ~ Ber(p), mu = L/(b sigma).  The likelihood ratio is
    monotone, so the most powerful tests reject above a threshold z:

        alpha(z) = 1 - (1 - p) Phi(z) - p Phi(z + (1 - lambda) mu),
        f^(lambda)(alpha(z)) = (1 - p) Phi(z) + p Phi(z - lambda mu)

    (the tails as Phi of the negated argument).
    """
    ref = _ref("App. C.4.1, one-step optimality")
    with precision(dps + GUARD_DPS):
        pv, mv, lv, zv = (to_mpf(x, k, ref) for x, k in ((p, "p"), (mu, "mu"), (lam, "lambda"),
                                                           (z, "z")))
        require(0 <= pv <= 1, "p", p, "0 <= p <= 1", ref)
        require(0 <= lv <= 1, "lambda", lam, "0 <= lambda <= 1", ref)
        alpha = (1 - pv) * Phi(-zv) + pv * Phi(-zv - (1 - lv) * mv)
        beta = (1 - pv) * Phi(zv) + pv * Phi(zv - lv * mv)
    with precision(dps):
        return +alpha, +beta


def thm_4_8_fact_c(p: Number, mu: Number, lam: Number, dps: int = DEFAULT_DPS
                   ) -> tuple[mpf, mpf]:
    """Fact (c) of App. C.4.1 as printed: f^(lambda) touches C_p(G(mu)) at
    alpha = p Phi(-mu/2) + (1 - p) Phi((1/2 - lambda) mu), where
    alpha + f^(lambda)(alpha) = (1 + p) Phi(-mu/2) + (1 - p) Phi(mu/2).  Returns both."""
    ref = _ref("App. C.4.1, fact (c)")
    with precision(dps + GUARD_DPS):
        pv, mv, lv = (to_mpf(x, k, ref) for x, k in ((p, "p"), (mu, "mu"), (lam, "lam")))
        require(0 <= pv <= 1, "p", p, "0 <= p <= 1 (a sampling rate)", ref)
        require(mv >= 0, "mu", mu, "mu >= 0", ref)
        alpha = pv * Phi(-mv / 2) + (1 - pv) * Phi((mpf(1) / 2 - lv) * mv)
        total = (1 + pv) * Phi(-mv / 2) + (1 - pv) * Phi(mv / 2)
    with precision(dps):
        return +alpha, +total


def thm_4_8_tangency(p: Number, mu: Number, lam: Number, dps: int = DEFAULT_DPS
                     ) -> dict[str, mpf]:
    """Where f^(lambda) has slope -1, from its parametrisation (evidence for fact (c)).

    d f^(lambda)/d alpha = (d beta/dz)/(d alpha/dz) = -((1-p) phi(z) + p phi(z - lambda mu)) /
    ((1-p) phi(z) + p phi(z + (1 - lambda) mu)), which is -1 at z* = (lambda - 1/2) mu, where
    phi(z* - lambda mu) = phi(-mu/2) = phi(mu/2) = phi(z* + (1 - lambda) mu).  Returns alpha,
    f^(lambda)(alpha), the slope there, and C_p(G(mu)) at alpha (closed form).
    """
    ref = _ref("App. C.4.1, fact (c)")
    with precision(dps + GUARD_DPS):
        pv, mv, lv = (to_mpf(x, k, ref) for x, k in ((p, "p"), (mu, "mu"), (lam, "lambda")))
        z = (lv - mpf(1) / 2) * mv
        alpha, beta = one_step_tradeoff(pv, mv, lv, z, dps=dps + GUARD_DPS)
        num = (1 - pv) * mpmath.npdf(z) + pv * mpmath.npdf(z - lv * mv)
        den = (1 - pv) * mpmath.npdf(z) + pv * mpmath.npdf(z + (1 - lv) * mv)
        slope = -num / den
        cp = SubsampledGaussian(pv, mv)(alpha)
    with precision(dps):
        return {"alpha": +alpha, "f": +beta, "slope": +slope, "C_p": +cp}


@dataclass(frozen=True)
class OneStepFacts:
    """Facts (a)-(c) of App. C.4.1 on a grid of the threshold z: the largest |f^(1) - C_p| on
    [0, alpha_1] (a), |f^(0) - C_p| on [alpha_2, 1] (b), and min over lambda and z of
    f^(lambda) - C_p (>= 0: each instance respects Thm 4.8 at t = 1)."""

    fact_a: mpf
    fact_b: mpf
    min_gap: mpf


def thm_4_8_one_step_facts(p: Number, mu: Number, lambdas: Sequence[Number] = ("0", "0.25",
                           "0.5", "0.75", "1"), zs: int = 41, dps: int = 30) -> OneStepFacts:
    """Evaluate facts (a), (b) and Thm 4.8's inequality at t = 1 on the one-step instance
    (:func:`one_step_tradeoff`) against the closed form of C_p(G(mu))."""
    cp = SubsampledGaussian(p, mu)
    with precision(dps + GUARD_DPS):
        a1, a2 = cp.alpha_1, cp.alpha_2
        fa = fb = mpf(0)
        gap = mpf("inf")
        for lam in lambdas:
            for i in range(zs):
                z = -8 + 16 * mpf(i) / (zs - 1)
                a, b = one_step_tradeoff(p, mu, lam, z, dps=dps + GUARD_DPS)
                d = b - cp(a)
                gap = min(gap, d)
                if to_mpf(lam) == 1 and a <= a1:
                    fa = max(fa, abs(d))
                if to_mpf(lam) == 0 and a >= a2:
                    fb = max(fb, abs(d))
    with precision(dps):
        return OneStepFacts(+fa, +fb, +gap)


@cache
def thm_4_8_tangency_symbolic() -> Derivation:
    """Fact (c) by sympy: at z* = (lambda - 1/2) mu the slope of f^(lambda) is exactly -1, and
    alpha + f^(lambda)(alpha) is the printed constant (1 + p) Phi(-mu/2) + (1 - p) Phi(mu/2);
    the residual is the pair (slope + 1, sum - printed) simplified (0 when fact (c) holds)."""
    z, lam = sp.Symbol("z", real=True), sp.Symbol("lambda", positive=True)
    p, mu = sp.symbols("p mu", positive=True)
    Phi_ = std_normal_cdf
    alpha = 1 - (1 - p) * Phi_(z) - p * Phi_(z + (1 - lam) * mu)
    beta = (1 - p) * Phi_(z) + p * Phi_(z - lam * mu)
    zs = (lam - sp.Rational(1, 2)) * mu
    slope = sp.simplify((sp.diff(beta, z) / sp.diff(alpha, z)).subs(z, zs))
    total = sp.simplify((alpha + beta).subs(z, zs))
    printed_sum = (1 + p) * Phi_(-mu / 2) + (1 - p) * Phi_(mu / 2)
    printed_alpha = p * Phi_(-mu / 2) + (1 - p) * Phi_((sp.Rational(1, 2) - lam) * mu)
    parts = [sp.simplify(slope + 1), sp.simplify(sp.expand(total - printed_sum)),
             sp.simplify(sp.expand(alpha.subs(z, zs) - printed_alpha))]
    res = sp.Add(*(r**2 for r in parts))  # zero iff every part is
    return Derivation(sp.Matrix([slope, total, alpha.subs(z, zs)]),
                      sp.Matrix([-1, printed_sum, printed_alpha]), res,
                      f"z* = {zs}; slope there = {slope}")


# --- Lemma C.12 ------------------------------------------------------------------------------


def lem_c_12(s: Number, sigma: Number, p: Number, dps: int = DEFAULT_DPS) -> SubsampledGaussian:
    """Lemma C.12: R(s, sigma, p) >= C_p(G(2 s/sigma)), where R is the pointwise infimum of
    T(V W + Z, V W' + Z) over independent V ~ Ber(p), |W|, |W'| <= s, Z ~ N(0, sigma^2 I).
    Returns the lower bound C_p(G(2 s/sigma)) (mu rounded up)."""
    ref = _ref("Lemma C.12")
    with precision(dps + GUARD_DPS):
        sv, sg = _pos(s, "s", ref, strict=False), _pos(sigma, "sigma", ref)
        pv = to_mpf(p, "p", ref)
        require(0 <= pv <= 1, "p", p, "0 <= p <= 1", ref)
        mu = 2 * sv / sg
    return SubsampledGaussian(pv, round_up(mu, dps))


def lem_c_12_pair_delta(eps: Number, s: Number, sigma: Number, p: Number,
                        W: tuple[Sequence[Number], Sequence[Number]],
                        W_prime: tuple[Sequence[Number], Sequence[Number]],
                        cells: int = 600, dps: int = 30) -> mpf:
    """delta(P || Q)(eps) for P = law of V W + Z, Q = law of V W' + Z in one dimension, with
    W, W' given as (weights, atoms) in [-s, s] (evidence for Lemma C.12 and footnote 9).

    Conditionally on V = 1, V W + Z is the mixture sum_j w_j N(x_j, sigma^2); so P, Q are
    location mixtures of N(., 1) after scaling by sigma (:func:`mixture_delta`).
    """
    ref = _ref("Lemma C.12")
    with precision(dps + GUARD_DPS):
        sv, sg, pv = to_mpf(s, "s", ref), to_mpf(sigma, "sigma", ref), to_mpf(p, "p", ref)
        for name, (w, x) in (("W", W), ("W'", W_prime)):
            require(all(abs(to_mpf(v)) <= sv for v in x), name, x, f"|{name}| <= s = {s}", ref)
            require(len(w) == len(x), name, w, "one weight per atom", ref)

        def law(wx: tuple[Sequence[Number], Sequence[Number]]
                ) -> tuple[list[mpf], list[mpf]]:
            w, x = wx
            return ([pv * to_mpf(v) for v in w] + [1 - pv],
                    [to_mpf(v) / sg for v in x] + [mpf(0)])

        out = mixture_delta(eps, law(W), law(W_prime), cells=cells)
    with precision(dps):
        return +out


#: The pairs (W, W') of Lemma C.12's evidence, in units of s: constant and two-point laws.
LEM_C_12_PAIRS = {
    "opposite (footnote 9)": (([1], [-1]), ([1], [1])),
    "same": (([1], [1]), ([1], [1])),
    "one at 0": (([1], [0]), ([1], [1])),
    "half and full": (([1], ["-0.5"]), ([1], [1])),
    "two-point laws": ((["0.4", "0.6"], [-1, "0.4"]), (["0.5", "0.5"], ["0.6", "-0.2"])),
}


@dataclass(frozen=True)
class LemmaC12Scan:
    """Largest delta(P || Q)(eps) - delta_{C_p(G(2s/sigma))}(eps) over the pairs and eps
    (<= 0: Lemma C.12 holds on them), the pair with the largest delta at every eps, and the
    smallest gap between the opposite pair and the bound away from eps = 0."""

    worst_excess: mpf
    worst_pairs: tuple[str, ...]
    opposite_gap: mpf


@lru_cache(maxsize=8)
def lem_c_12_scan(s: Number = "0.5", sigma: Number = 1, p: Number = "0.3",
                  eps: Sequence[Number] = ("-0.6", "-0.3", "0", "0.2", "0.6", "1.2"),
                  cells: int = 200, dps: int = 20) -> LemmaC12Scan:
    """Lemma C.12 and footnote 9 on :data:`LEM_C_12_PAIRS` (:func:`lem_c_12_pair_delta`).

    At eps = 0 the opposite pair and the bound have the same total variation,
    p (2 Phi(s/sigma) - 1), so the gap is measured at eps != 0 only.
    """
    from dpsym.fdp.duality import delta_of_tradeoff

    cp = lem_c_12(s, sigma, p, dps=dps)
    with precision(dps + GUARD_DPS):
        sv = to_mpf(s, "s")
        excess, gap, worst = mpf("-inf"), mpf("inf"), []
        for e in eps:
            bound = delta_of_tradeoff(cp, e)
            vals = {}
            for name, ((w, x), (w2, x2)) in LEM_C_12_PAIRS.items():
                vals[name] = lem_c_12_pair_delta(
                    e, sv, sigma, p, (w, [sv * to_mpf(v) for v in x]),
                    (w2, [sv * to_mpf(v) for v in x2]), cells=cells, dps=dps + GUARD_DPS)
            excess = max(excess, max(vals.values()) - bound)
            worst.append(max(vals, key=vals.get))
            if to_mpf(e) != 0:
                gap = min(gap, bound - vals["opposite (footnote 9)"])
    with precision(dps):
        return LemmaC12Scan(+excess, tuple(worst), +gap)


# --- Theorem C.13, Theorem 4.9 ---------------------------------------------------------------


def thm_c_13_distances(c: Number, s: Number, a: Sequence[Number]) -> list[mpf]:
    """z_0, ..., z_{t-1} of Thm C.13: z_0 = 0, z_{k+1} = c z_k + s - a_{k+1} (s = eta L/b),
    for a = (a_1, ..., a_{t-1}); z_{t-1} = s (1 - c^{t-1})/(1 - c) - sum c^{t-k-1} a_k.
    Hypotheses as in Thm C.13: 0 <= c < 1 (Lemma 2.8), s > 0 and 0 <= a_k <= s."""
    ref = _ref("Thm C.13")
    cv, sv = to_mpf(c, "c", ref), to_mpf(s, "s", ref)
    require(0 <= cv < 1, "c", c, "0 <= c < 1 (the contraction factor of Lemma 2.8)", ref)
    require(sv > 0, "s", s, "s = eta L/b > 0", ref)
    av = [to_mpf(x, "a", ref) for x in require_sequence("a", a, ref, nonempty=False)]
    for k, x in enumerate(av, start=1):
        require(0 <= x <= sv, "a", a[k - 1], f"0 <= a_{k} <= s = {mpmath.nstr(sv, 8)}", ref)
    z = [mpf(0)]
    for ak in av:
        z.append(cv * z[-1] + sv - ak)
    return z


def thm_c_13(L: Number, b: Number, n: Number, sigma: Number, eta: Number, m: Number, M: Number,
             a: Sequence[Number], alpha_sq: Number = 2, dps: int = DEFAULT_DPS
             ) -> NoisySGDTradeoff:
    """Thm C.13: for any 0 <= a_k <= eta L/b (k = 1, ..., t-1; a = (a_1, ..., a_{t-1})),
    NoisySGD on m-strongly convex, M-smooth losses (eta in (0, 2/M)) is f-DP with

        f = G(2 alpha c z_{t-1}/(eta sigma)) (x) C_{b/n}(G(2 beta L/(b sigma)))
            (x) (x)_{k=1}^{t-1} C_{b/n}(G(2 a_k/(eta sigma))),

    z_{t-1} as in :func:`thm_c_13_distances`; alpha = beta = sqrt 2 in the statement, any
    1/alpha^2 + 1/beta^2 = 1 by footnote 10 (``alpha_sq``).  The printed statement writes the
    last factor as a_0 = sqrt 2 eta L/b inside the product.  a_k >= 0 is implicit (G of a
    negative argument is not a tradeoff function) and required here.
    """
    ref = _ref("Thm C.13")
    t = len(a) + 1
    c = lem_2_8(eta, m, M, dps=dps + GUARD_DPS)
    with precision(dps + GUARD_DPS):
        Lv, sg, ev = _pos(L, "L", ref), _pos(sigma, "sigma", ref), _pos(eta, "eta", ref)
        p = _rate(b, n, ref)
        al, be = _split(alpha_sq, ref)
        s = ev * Lv / to_mpf(b)
        av = [to_mpf(x, "a_k", ref) for x in a]
        for k, x in enumerate(av, start=1):
            require(0 <= x <= s, f"a_{k}", a[k - 1], f"0 <= a_k <= eta L/b = {mpmath.nstr(s, 8)}",
                    ref)
        z = thm_c_13_distances(c, s, av)[-1] if t > 1 else mpf(0)
        gdp = 2 * al * c * z / (ev * sg)
        mus = [2 * be * Lv / (to_mpf(b) * sg)] + [2 * x / (ev * sg) for x in av]
    return NoisySGDTradeoff(round_up(p, dps), round_up(gdp, dps), _grouped(mus, dps),
                            f"Thm C.13 (t = {t})")


def thm_4_9_gdp_argument(L: Number, b: Number, sigma: Number, eta: Number, m: Number, M: Number,
                         t: int, tau: int, alpha_sq: Number = 2, dps: int = DEFAULT_DPS) -> mpf:
    """The argument of Thm 4.9's GDP factor as printed, (2 alpha L/(b sigma)) (c^{t-tau+1} -
    c^t)/(1 - c) with alpha = sqrt 2, at any integer tau (0 included: erratum T49, where it is
    -(2 sqrt 2 L/(b sigma)) c^t < 0).  Not rounded: it is evidence, not a bound."""
    ref = _ref("Thm 4.9")
    t = require_integer("t", t, ref, minimum=1)
    tau = require_integer("tau", tau, ref, minimum=0)
    c = lem_2_8(eta, m, M, dps=dps + GUARD_DPS)
    with precision(dps + GUARD_DPS):
        Lv, sg = _pos(L, "L", ref), _pos(sigma, "sigma", ref)
        al, _ = _split(alpha_sq, ref)
        bv = _pos(b, "b", ref)
        require(c < 1, "eta", eta, f"eta m large enough that c = {mpmath.nstr(c, 8)} < 1 at "
                f"{mpmath.mp.dps} digits (Lemma 2.8's contraction)", ref)
        arg = 2 * al * Lv / (bv * sg) * (c ** (t - tau + 1) - c**t) / (1 - c)
    with precision(dps):
        return +arg


def thm_4_9(L: Number, b: Number, n: Number, sigma: Number, eta: Number, m: Number, M: Number,
            t: int, tau: int, alpha_sq: Number = 2, dps: int = DEFAULT_DPS) -> NoisySGDTradeoff:
    """Thm 4.9: NoisySGD on m-strongly convex, M-smooth losses (eta in (0, 2/M)) is f-DP with

        f = G((2 sqrt2 L/(b sigma)) (c^{t-tau+1} - c^t)/(1 - c)) (x) C_{b/n}(G(2 sqrt2 L/(b sigma)))
            (x) C_{b/n}(G(2 L/(b sigma)))^{(x)(t - tau)}

    for tau = 1, ..., t (erratum T49: printed "tau = 0, 1, ..., t - 1"; see the module
    docstring).  ``alpha_sq`` is footnote 10's split (2 in the statement).

    >>> f = thm_4_9(L=1, b=10, n=1000, sigma=1, eta="0.1", m=1, M=2, t=50, tau=40)
    >>> from dpsym.numerics import nstr
    >>> nstr(f.gdp, 8), [(nstr(mu, 6), k) for mu, k in f.factors]
    ('0.87301332', [('0.282843', 1), ('0.2', 10)])
    """
    ref = _ref("Thm 4.9 (range tau = 1..t: erratum T49)")
    t = require_integer("t", t, ref, minimum=1)
    tau = require_integer("tau", tau, ref)
    require(1 <= tau <= t, "tau", tau,
            f"1 <= tau <= t = {t} (at tau = 0 the GDP factor's argument is "
            "-(2 sqrt2 L/(b sigma)) c^t < 0; the printed range 0..t-1 is erratum T49)", ref)
    gdp = thm_4_9_gdp_argument(L, b, sigma, eta, m, M, t, tau, alpha_sq, dps=dps + GUARD_DPS)
    with precision(dps + GUARD_DPS):
        Lv, sg = _pos(L, "L", ref), _pos(sigma, "sigma", ref)
        p = _rate(b, n, ref)
        _, be = _split(alpha_sq, ref)
        mu_last = 2 * be * Lv / (to_mpf(b) * sg)
        mu_step = 2 * Lv / (to_mpf(b) * sg)
    factors = ((round_up(mu_last, dps), 1),)
    if t > tau:
        factors += ((round_up(mu_step, dps), t - tau),)
    return NoisySGDTradeoff(round_up(p, dps), round_up(max(gdp, mpf(0)), dps), factors,
                            f"Thm 4.9 (t = {t}, tau = {tau})")


# --- Theorem 4.10 ----------------------------------------------------------------------------


def thm_4_10(L: Number, b: Number, n: Number, sigma: Number, eta: Number, D: Number, t: int,
             tau: int, alpha_sq: Number = 2, M: Number | None = None, dps: int = DEFAULT_DPS
             ) -> NoisySGDTradeoff:
    """Thm 4.10: NoisySGD on convex, M-smooth losses over a set of diameter D (eta in [0, 2/M])
    is f-DP, for any tau = 0, ..., t - 1, with

        f = G(alpha D/(eta sigma sqrt(t - tau))) (x) C_{b/n}(G(2 beta L/(b sigma)))^{(x)(t - tau)},

    alpha = beta = sqrt 2 in the statement; footnote 11 allows any 1/alpha^2 + 1/beta^2 = 1
    (``alpha_sq``; Figure 10 uses alpha^2 = 10, beta^2 = 10/9).  Each of the t - tau steps
    costs G(alpha D/((t - tau) eta sigma)) (x) C_{b/n}(G(2 beta L/(b sigma))) (proof of Thm
    4.10), and t - tau copies of the first compose to the GDP factor above.

    >>> f = thm_4_10(L=1, b=10, n=1000, sigma=3, eta="0.1", D=1, t=1000, tau=900)
    >>> from dpsym.numerics import nstr
    >>> nstr(f.gdp, 8), [(nstr(mu, 6), k) for mu, k in f.factors]
    ('0.47140452', [('0.0942809', 100)])
    """
    ref = _ref("Thm 4.10")
    t = require_integer("t", t, ref, minimum=1)
    tau = require_integer("tau", tau, ref)
    require(0 <= tau <= t - 1, "tau", tau, f"0 <= tau <= t - 1 = {t - 1}", ref)
    with precision(dps + GUARD_DPS):
        Lv, sg, Dv = _pos(L, "L", ref), _pos(sigma, "sigma", ref), _pos(D, "D", ref)
        ev = _pos(eta, "eta", ref)
        if M is not None:
            require(ev <= 2 / _pos(M, "M", ref), "eta", eta, f"eta <= 2/M = {2 / to_mpf(M)}",
                    ref)
        p = _rate(b, n, ref)
        al, be = _split(alpha_sq, ref)
        gdp = al * Dv / (ev * sg * mpmath.sqrt(t - tau))
        mu = 2 * be * Lv / (to_mpf(b) * sg)
    return NoisySGDTradeoff(round_up(p, dps), round_up(gdp, dps), ((round_up(mu, dps), t - tau),),
                            f"Thm 4.10 (t = {t}, tau = {tau})")


# --- Propositions C.14, C.15: t - tau chosen by the CLT ---------------------------------------


@dataclass(frozen=True)
class CLTChoice:
    """Prop. C.14/C.15: the printed t - tau (real), the integer argmin of the approximate mu
    over t - tau >= 1 (the minimiser of the convex mu^2 is at the floor or the ceiling of the
    real one), and mu there."""

    k_printed: mpf
    k_integer: int
    mu: mpf


def _clt_argmin(mu2: object, k_real: mpf, kmax: int | None) -> int:
    lo = max(1, int(mpmath.floor(k_real)))
    cands = {lo, lo + 1}
    if kmax is not None:
        cands = {min(max(k, 1), kmax) for k in cands}
    return min(sorted(cands), key=lambda k: mu2(k))


def prop_c_14_mu(L: Number, b: Number, n: Number, sigma: Number, c: Number, k: Number,
                 dps: int = DEFAULT_DPS) -> mpf:
    """(C.6): mu = sqrt(8 (L/(b sigma) c^{k+1}/(1 - c))^2 + (2 b^2/n^2) k K(2L/(b sigma))) at
    t - tau = k, with K(x) = e^{x^2} Phi(3x/2) + 3 Phi(-x/2) - 2 (Lemma A.5).  An
    approximation (CLT, and c^t dropped), not a bound."""
    ref = _ref("Prop. C.14, (C.6)")
    with precision(dps + GUARD_DPS):
        A = _pos(L, "L", ref) / (_pos(b, "b", ref) * _pos(sigma, "sigma", ref))
        cv, kv, p = to_mpf(c, "c", ref), _pos(k, "t - tau", ref), _rate(b, n, ref)
        require(0 < cv < 1, "c", c, "0 < c < 1", ref)
        mu2 = 8 * (A * cv ** (kv + 1) / (1 - cv)) ** 2 + 2 * p**2 * kv * clt_K(2 * A,
                                                                            dps=dps + GUARD_DPS)
        out = mpmath.sqrt(mu2)
    with precision(dps):
        return +out


def prop_c_14(L: Number, b: Number, n: Number, sigma: Number, eta: Number, m: Number, M: Number,
              t: int | None = None, dps: int = DEFAULT_DPS) -> CLTChoice:
    """Prop. C.14: in the setting of Thm 4.9 the CLT-approximate mu (C.6) is minimised at

        t - tau = -log( b^2 sigma (1 - c) sqrt(K1) / (2 sqrt2 n L sqrt(log(1/c))) ) / log(1/c) - 1,

    K1 = K(2 L/(b sigma)) (printed form, evaluated here); the integer argmin is taken among
    its floor and ceiling (clipped to 1 <= t - tau <= t - 1 when t is given)."""
    ref = _ref("Prop. C.14")
    c = lem_2_8(eta, m, M, dps=dps + GUARD_DPS)
    with precision(dps + GUARD_DPS):
        Lv, bv, nv, sg = (_pos(x, k, ref) for x, k in ((L, "L"), (b, "b"), (n, "n"),
                                                         (sigma, "sigma")))
        K1 = clt_K(2 * Lv / (bv * sg), dps=dps + GUARD_DPS)
        lc = mpmath.log(1 / c)
        k_real = -mpmath.log(bv**2 * sg * (1 - c) * mpmath.sqrt(K1)
                             / (2 * mpmath.sqrt(2) * nv * Lv * mpmath.sqrt(lc))) / lc - 1
    kmax = None if t is None else require_integer("t", t, ref, minimum=2) - 1
    k_int = _clt_argmin(lambda k: prop_c_14_mu(L, b, n, sigma, c, k, dps=dps), k_real, kmax)
    with precision(dps):
        k_real = +k_real
    return CLTChoice(k_real, k_int, prop_c_14_mu(L, b, n, sigma, c, k_int, dps=dps))


def prop_c_15_mu(L: Number, b: Number, n: Number, sigma: Number, eta: Number, D: Number,
                 k: Number, dps: int = DEFAULT_DPS) -> mpf:
    """(C.7): mu = sqrt(2 D^2/(eta^2 sigma^2 k) + (2 b^2/n^2) k K(2 sqrt2 L/(b sigma))) at
    t - tau = k.  An approximation (CLT), not a bound."""
    ref = _ref("Prop. C.15, (C.7)")
    with precision(dps + GUARD_DPS):
        Lv, bv, sg = _pos(L, "L", ref), _pos(b, "b", ref), _pos(sigma, "sigma", ref)
        ev, Dv, kv, p = _pos(eta, "eta", ref), _pos(D, "D", ref), _pos(k, "t - tau", ref), \
            _rate(b, n, ref)
        K2 = clt_K(2 * mpmath.sqrt(2) * Lv / (bv * sg), dps=dps + GUARD_DPS)
        out = mpmath.sqrt(2 * Dv**2 / (ev**2 * sg**2 * kv) + 2 * p**2 * kv * K2)
    with precision(dps):
        return +out


def prop_c_15(L: Number, b: Number, n: Number, sigma: Number, eta: Number, D: Number,
              t: int | None = None, dps: int = DEFAULT_DPS) -> CLTChoice:
    """Prop. C.15: in the setting of Thm 4.10 the CLT-approximate mu (C.7) is minimised at
    t - tau = D n / (b eta sigma sqrt(K2)), K2 = K(2 sqrt2 L/(b sigma)) (printed form); the
    integer argmin among its floor and ceiling (clipped to 1 <= t - tau <= t when t is given).
    """
    ref = _ref("Prop. C.15")
    with precision(dps + GUARD_DPS):
        Lv, bv, nv, sg = (_pos(x, k, ref) for x, k in ((L, "L"), (b, "b"), (n, "n"),
                                                         (sigma, "sigma")))
        ev, Dv = _pos(eta, "eta", ref), _pos(D, "D", ref)
        K2 = clt_K(2 * mpmath.sqrt(2) * Lv / (bv * sg), dps=dps + GUARD_DPS)
        k_real = Dv * nv / (bv * ev * sg * mpmath.sqrt(K2))
    kmax = None if t is None else require_integer("t", t, ref, minimum=1)
    k_int = _clt_argmin(lambda k: prop_c_15_mu(L, b, n, sigma, eta, D, k, dps=dps), k_real, kmax)
    with precision(dps):
        k_real = +k_real
    return CLTChoice(k_real, k_int, prop_c_15_mu(L, b, n, sigma, eta, D, k_int, dps=dps))


@cache
def prop_c_14_symbolic() -> Derivation:
    """Prop. C.14 by sympy: the first-order condition of (C.6)^2 in k = t - tau, solved for k,
    against the printed t - tau (:data:`printed.PROP_C14_K`; residual 0 when they
    agree); the notes give the second
    derivative (positive: (C.6)^2 is convex in k, so the stationary point is the minimiser).
    """
    k = sp.Symbol("k", positive=True)
    A, n, b, sigma, K1 = sp.symbols("A n b sigma K_1", positive=True)  # A = L/(b sigma)
    u = sp.Symbol("u", positive=True)  # c = e^{-u}, 0 < c < 1
    c = sp.exp(-u)
    L = A * b * sigma
    mu2 = 8 * (A * c ** (k + 1) / (1 - c)) ** 2 + 2 * (b / n) ** 2 * k * K1
    # The first-order condition is const + (negative) e^{-2u(k+1)} term = 0: take logs of the
    # two sides, which makes it linear in k.
    const, decay = sp.diff(mu2, k).as_independent(k, as_Add=True)
    (k_star,) = sp.solve(sp.Eq(sp.expand_log(sp.log(-decay), force=True),
                               sp.expand_log(sp.log(const), force=True)), k)
    printed_k = printed.formula(printed.PROP_C14_K, b=b, sigma=sigma, c=c, n=n, L=L, K_1=K1)
    res = sp.simplify(sp.expand_log(sp.expand_log(k_star - printed_k, force=True), force=True))
    d2 = sp.simplify(sp.diff(mu2, k, 2))
    return Derivation(k_star, printed_k, res, f"d^2 mu^2/dk^2 = {d2} (> 0)")


@cache
def prop_c_15_symbolic() -> Derivation:
    """Prop. C.15 by sympy: the first-order condition of (C.7)^2 in k = t - tau against the
    printed D n/(b eta sigma sqrt(K2)) (:data:`printed.PROP_C15_K`); notes: the second
    derivative (> 0) and the minimum value 4 D b sqrt(K2)/(n eta sigma)."""
    k = sp.Symbol("k", positive=True)
    D, eta, sigma, b, n, K2 = sp.symbols("D eta sigma b n K_2", positive=True)
    mu2 = 2 * D**2 / (eta**2 * sigma**2 * k) + 2 * (b / n) ** 2 * k * K2
    sols = [s for s in sp.solve(sp.Eq(sp.diff(mu2, k), 0), k) if s.is_positive is not False]
    (k_star,) = sols
    printed_k = printed.formula(printed.PROP_C15_K, D=D, n=n, b=b, eta=eta, sigma=sigma,
                                K_2=K2)
    d2 = sp.simplify(sp.diff(mu2, k, 2))
    value = sp.simplify(mu2.subs(k, k_star))
    return Derivation(k_star, printed_k, sp.simplify(k_star - printed_k),
                      f"d^2 mu^2/dk^2 = {d2} (> 0); min mu^2 = {value}")


@cache
def thm_4_10_at22_scaling() -> Derivation:
    """Text after Thm 4.10: with t - tau = Theta(D n/(eta L)), Thm 4.10 recovers the
    asymptotically tight RDP bound of [AT22], of order alpha L D/(n eta sigma^2).

    By sympy: the optimised (C.7) gives min mu^2 = 4 D b sqrt(K2)/(n eta sigma); as
    L/(b sigma) -> 0, K2 = K(2 sqrt2 L/(b sigma)) ~ 4 L^2/(b sigma)^2 (the series of K), so
    mu^2 ~ 8 L D/(n eta sigma^2), and mu-GDP gives (alpha, alpha mu^2/2)-RDP (Lemma A.4):
    4 alpha L D/(n eta sigma^2), of the [AT22] order; the optimal t - tau ~ D n/(2 eta L) is
    Theta(D n/(eta L)).  ``derived`` is the limit of mu^2 n eta sigma^2/(L D) (8), ``target``
    the limit of (t - tau) eta L/(D n) (1/2); the residual checks both are finite and
    positive constants free of every parameter.
    """
    D, eta, sigma, b, n, L = sp.symbols("D eta sigma b n L", positive=True)
    x = sp.Symbol("x", positive=True)  # x = L/(b sigma) -> 0
    Kexpr = clt_K_symbolic()
    (m_,) = Kexpr.free_symbols
    K2 = Kexpr.subs(m_, 2 * sp.sqrt(2) * x)
    mu2_min = 4 * D * b * sp.sqrt(K2) / (n * eta * sigma)
    k_star = D * n / (b * eta * sigma * sp.sqrt(K2))
    sub = {L: x * b * sigma}
    ratio_mu = sp.limit(sp.simplify((mu2_min * n * eta * sigma**2 / (L * D)).subs(sub)), x, 0)
    ratio_k = sp.limit(sp.simplify((k_star * eta * L / (D * n)).subs(sub)), x, 0)
    ok = (ratio_mu.is_positive and ratio_mu.is_finite and ratio_k.is_positive
          and ratio_k.is_finite and not (ratio_mu.free_symbols | ratio_k.free_symbols))
    res = sp.Integer(0 if ok else 1)
    return Derivation(ratio_mu, ratio_k, res,
                      f"mu^2 n eta sigma^2/(L D) -> {ratio_mu}; (t-tau) eta L/(D n) -> {ratio_k}")
