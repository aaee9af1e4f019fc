"""Tran & Cutkosky 2022: the rate algebra, by sympy, from the printed formulas of :mod:`.formulas`.

* :func:`thm_9_steps` / :func:`thm_9_plugin`: every step of Theorem 9's proof (App. E.2), from
  Lemma 5 + Lemma 11 + Lemma 7 to the printed bound, term by term;
* :func:`thm_6_steps` / :func:`thm_6_plugin`: the same for Theorem 6 (App. D.2), with Lemma 12's
  noise term derived (coefficient 48) next to the printed one (12);
* :func:`lem_7_steps`: the constants of Lemma 7's proof (Var_1..Var_5, the square root, 48/32/64,
  gamma = eta N, sigma = 4 sqrt(ell)/eps);
* :func:`balance`: exponent balancing of the optimisation term sqrt(N/T) against each
  algorithm's main noise term (alpha = 1/N), giving T and the rate;
* :func:`regime_inequalities`, :func:`comparison_table`, :func:`runtime_exponents`;
* :func:`log_derivative`: d log(noise bound) / d log N at the paper's parameters and its limit.

Powers are combined with ``force=True`` (all symbols are positive), and ``lg`` = log2 T is held
fixed while substituting T, as the paper does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import sympy as sp

from dpsym.papers.registry import cite
from dpsym.papers.tran2022 import formulas as fm

__all__ = [
    "Balance",
    "Step",
    "balance",
    "comparison_table",
    "lem_7_steps",
    "log_derivative",
    "regime_inequalities",
    "runtime_exponents",
    "thm_6_derived_bound",
    "thm_6_plugin",
    "thm_6_steps",
    "thm_9_initialisation_term",
    "thm_9_plugin",
    "thm_9_steps",
]

N, T, d, eps, ell, lg, lgN = fm.N, fm.T, fm.d, fm.eps, fm.ell, fm.lg, fm.lgN
R, L, G, alpha, eta, gamma, sigma, V = fm.R, fm.L, fm.G, fm.alpha, fm.eta, fm.gamma, fm.sigma, fm.V


def _s(e: sp.Expr) -> sp.Expr:
    """Simplify with positive symbols: combine powers, then simplify."""
    e = sp.powdenest(sp.expand_power_base(sp.powsimp(e, force=True), force=True), force=True)
    return sp.simplify(e)


def _zero(e: sp.Expr) -> bool:
    return _s(sp.expand(e)) == 0


@dataclass(frozen=True)
class Step:
    """One step of a proof: ``before`` (with a substitution applied) against ``after``.

    ``relation`` is ``"=="`` (the difference simplifies to 0) or ``"<="`` (``after - before`` is
    a sum of nonnegative terms under the stated condition); ``holds`` is the verdict and
    ``difference`` is ``after - before`` simplified.
    """

    name: str
    relation: str
    difference: sp.Expr
    holds: bool
    note: str = ""


def _eq(name: str, before: sp.Expr, after: sp.Expr, note: str = "") -> Step:
    diff = _s(sp.expand(after - before))
    return Step(name, "==", diff, diff == 0, note)


def _nonneg_terms(expr: sp.Expr) -> bool:
    """Every monomial of ``expr`` (expanded) has a nonnegative numeric coefficient.

    All symbols are positive, so each monomial is positive and the sign of a term is its
    coefficient's (numbers such as e^-1 included).
    """
    e = sp.expand(expr)
    syms = sorted(e.free_symbols, key=lambda x: x.name)
    coeffs: dict[sp.Expr, sp.Expr] = {}
    for t in sp.Add.make_args(e):
        num, mono = t.as_independent(*syms, as_Add=False)
        coeffs[mono] = coeffs.get(mono, 0) + num  # numbers such as e^-1 stay in the coefficient
    return all(sp.N(c) >= 0 for c in coeffs.values())


def _nonneg_for_alpha_le_1(expr: sp.Expr) -> bool:
    """``expr >= 0`` for 0 < alpha <= 1: substitute alpha = 1/(1 + u), u > 0, clear alpha."""
    u = sp.Symbol("u", positive=True)
    num, _den = sp.fraction(sp.together(expr.subs(alpha, 1 / (1 + u))))
    return _nonneg_terms(num)


# --- Theorem 9 ------------------------------------------------------------------------------

def _lem_7_as_K() -> sp.Expr:
    """Lemma 7 with sqrt(ell) replaced by ell, i.e. the three K-terms of Thm 9's first display."""
    return (12 * fm.K * G * alpha * sp.sqrt(d) / eps
            + 8 * fm.K * (G + 2 * L) * alpha * sp.sqrt(eta * d * T) / eps
            + fm.K * alpha * eta * L * sp.sqrt(3 * d * T * N) / eps)


def thm_9_steps() -> list[Step]:
    """Each step of Theorem 9's proof, from Lemmas 5, 11, 7 to the printed statement."""
    D = fm.THM_9_DISPLAYS
    steps = []
    # Lemma 7 -> its K form: each K-term over the Lemma 7 term is sqrt(ell) (needs ell >= 1).
    ratios = [_s(k / l) for k, l in zip(sp.Add.make_args(sp.expand(_lem_7_as_K())),
                                        sp.Add.make_args(sp.expand(fm.LEM_7)), strict=True)]
    steps.append(Step("Lemma 7 -> K terms", "<=", sp.Tuple(*ratios),
                      all(r == sp.sqrt(ell) for r in ratios),
                      "each K term is sqrt(ell) times Lemma 7's: valid iff ell >= 1 "
                      "(delta <= 1/e)"))
    assembled = fm.LEM_5.subs(fm.E1, fm.LEM_11 + _lem_7_as_K())
    steps.append(_eq("Lemma 5 + Lemma 11 + Lemma 7 = display 1", assembled, D[0]))
    steps.append(_eq("display 1 = display 2 (sum over t)", D[0], D[1]))
    gap = _s(sp.expand(D[2] - D[1]))
    steps.append(Step("display 2 <= display 3 (3 eta L/4 + 3 eta L/alpha <= 6 eta L/alpha)",
                      "<=", gap, _nonneg_for_alpha_le_1(gap),
                      "3 eta L/alpha - 3 eta L/4 >= 0 for alpha <= 1"))
    d3 = D[2].subs(eta, fm.ETA)
    gap = _s(sp.expand(D[3] - d3))
    steps.append(Step("display 3 at eta = 1/sqrt(NT) <= display 4 (3 sqrt(3) <= 9)", "<=", gap,
                      _s(gap - (9 - 3 * sp.sqrt(3)) * fm.K * alpha * L * sp.sqrt(d) / eps) == 0))
    steps.append(_eq("display 4 at alpha = N^(3/4) eps/(T^(3/4) sqrt d) = display 5",
                     D[3].subs(alpha, fm.THM_9_ALPHA), D[4]))
    steps.append(_eq("display 5 at T = N^(7/3) eps^(4/3)/d^(2/3) = Theorem 9",
                     D[4].subs(T, fm.THM_9_T), fm.THM_9_PRINTED))
    return steps


def thm_9_plugin() -> dict[str, tuple[sp.Expr, sp.Expr]]:
    """Display 3 of Thm 9's proof at the theorem's parameters, term by term: {term: (term, at)}."""
    sub = [(eta, fm.ETA), (alpha, fm.THM_9_ALPHA), (T, fm.THM_9_T)]
    out = {}
    for term in sp.Add.make_args(sp.expand(fm.THM_9_DISPLAYS[2])):
        v = term
        for s, e in sub:
            v = v.subs(s, e)
        out[str(term)] = (term, _s(v))
    return out


def thm_9_initialisation_term() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """The term Thm 9's proof omits: with m_0 = 0, ``m_t`` misses ``(1-alpha)^t grad F(w_t)``,
    so Lemma 5 gains ``(3/T) sum_t (1-alpha)^t G``.  Returns (that sum in closed form, its bound
    3G/(alpha T) at Thm 9's parameters, that bound over the squared rate)."""
    t = sp.Symbol("t", integer=True, positive=True)
    total = sp.simplify(3 * G / T * sp.summation((1 - alpha) ** t, (t, 1, T)))
    bound = 3 * G / (alpha * T)
    at9 = _s(bound.subs(alpha, fm.THM_9_ALPHA).subs(T, fm.THM_9_T))
    rate = d ** sp.Rational(1, 3) / (eps * N) ** sp.Rational(2, 3)
    return total, at9, _s(at9 / rate**2)


# --- Theorem 6 ------------------------------------------------------------------------------

def _lem_12_in_thm_6() -> sp.Expr:
    """Lemma 12 with V <= 4 lg T/N (App. D.2) and sigma = 2 sqrt(ell)/eps."""
    return fm.LEM_12.subs({V: 4 * lg * T / N, sigma: fm.THM_4_SIGMA})


def thm_6_steps() -> list[Step]:
    """Each step of Theorem 6's proof (App. D.2) checked; the printed 12 against Lemma 12's 48."""
    D = fm.THM_6_DISPLAYS
    steps = []
    assembled = fm.LEM_5.subs(fm.E1, fm.LEM_11 + _lem_12_in_thm_6())
    steps.append(_eq("Lemma 5 + Lemma 11 + Lemma 12 (V <= 4 lg T/N) = display 1",
                     assembled, D[0], "the derived noise term is 48 alpha G lg sqrt(dT ell)/"
                     "(eps sqrt N); display 1 prints 12"))
    gap = _s(sp.expand(D[1] - D[0]))
    steps.append(Step("display 1 -> display 2 (3 eta L/4 absorbed)", "<=", gap,
                      _nonneg_for_alpha_le_1(gap)))
    extra = _s(sp.expand(D[2] - D[1].subs(eta, fm.ETA)))
    steps.append(Step("display 2 at eta = 1/sqrt(NT) -> display 3", "<=", extra,
                      _s(extra - 6 * G / (alpha * T)) == 0,
                      "display 3 adds 6G/(alpha T), derived nowhere: the m_0 = 0 "
                      "initialisation error (1/T) sum_t 3 (1-alpha)^t G <= 3G/(alpha T)"))
    steps.append(_eq("display 3 at alpha = eps N/(T lg sqrt(d ell)) = display 4",
                     D[2].subs(alpha, fm.THM_6_ALPHA), D[3]))
    steps.append(_eq("display 4 at T = eps N^2/(lg sqrt(d ell)) = Theorem 6",
                     D[3].subs(T, fm.THM_6_T), fm.THM_6_PRINTED,
                     "fails: the printed statement is not display 4 at T"))
    return steps


def thm_6_derived_bound(noise_coefficient: int = 48, init_term: bool = True) -> sp.Expr:
    """Theorem 6's bound rederived from display 2 with the given noise coefficient (48 from
    Lemma 12; the paper's 12), optionally with the initialisation term 6G/(alpha T), at the
    theorem's eta, alpha and T."""
    d2 = fm.THM_6_DISPLAYS[1]
    noise = alpha * G * lg * sp.sqrt(d * T * ell) / (eps * sp.sqrt(N))
    d2 = sp.expand(d2 - 12 * noise + noise_coefficient * noise)
    if init_term:
        d2 = d2 + 6 * G / (alpha * T)
    v = d2.subs(eta, fm.ETA).subs(alpha, fm.THM_6_ALPHA).subs(T, fm.THM_6_T)
    return sp.collect(sp.expand(_s(v)), [R, L, G])


def thm_6_plugin() -> dict[str, tuple[sp.Expr, sp.Expr]]:
    """Display 2 of Thm 6's proof at the theorem's parameters, term by term (as printed)."""
    out = {}
    for term in sp.Add.make_args(sp.expand(fm.THM_6_DISPLAYS[1])):
        v = term.subs(eta, fm.ETA).subs(alpha, fm.THM_6_ALPHA).subs(T, fm.THM_6_T)
        out[str(term)] = (term, _s(v))
    return out


# --- Lemma 7 --------------------------------------------------------------------------------

def lem_7_steps() -> list[Step]:
    """The constants of Lemma 7's proof, step by step (App. E.2)."""
    steps = []
    sens = {fm.delta_G: 4 * G, fm.delta_D: 2 * eta * N * L}
    ratios = [_s(v.subs(sens) / t) for v, t in zip(fm.LEM_7_VARS, fm.LEM_7_TOTAL_TERMS,
                                                    strict=True)]
    steps.append(Step("Var_1..Var_5 (delta_G = 4G, delta_Delta = 2 eta N L) <= printed total",
                      "<=", sp.Tuple(*ratios), all(r.is_number and r <= 1 for r in ratios),
                      "ratio of each Var_k to its term of the printed total"))
    roots = [_s(sp.sqrt(d * t) - r) for t, r in zip(fm.LEM_7_TOTAL_TERMS, fm.LEM_7_SQRT_1_TERMS,
                                                    strict=True)]
    steps.append(Step("sqrt(d Var) <= sum of term-wise roots = printed", "==",
                      sp.Tuple(*roots), all(r == 0 for r in roots),
                      "sqrt(a + b) <= sqrt a + sqrt b; each printed root is exact"))
    c = 1 - sp.exp(-1)
    consts = [(16 + 16 / c, 48), (16 / c, 32), (32 / c, 64)]
    steps.append(Step("16 + 16/(1-1/e) <= 48, 16/(1-1/e) <= 32, 32/(1-1/e) <= 64 (lgN <= lg)",
                      "<=", sp.Tuple(*[sp.N(a, 8) for a, _ in consts]),
                      all(bool(a <= b) for a, b in consts)))
    gap = _s(sp.expand(fm.LEM_7_SQRT_2 - fm.LEM_7_SQRT_1.subs(lgN, lg)))
    steps.append(Step("display sqrt 1 <= display sqrt 2", "<=", gap, _nonneg_terms(gap)))
    steps.append(_eq("gamma = eta N in display sqrt 2", fm.LEM_7_SQRT_2.subs(gamma, eta * N),
                     fm.LEM_7_GAMMA))
    steps.append(_eq("sigma = 4 sqrt(ell)/eps gives Lemma 7", fm.LEM_7_GAMMA.subs(sigma,
                     fm.THM_8_SIGMA), fm.LEM_7))
    return steps


# --- Exponent balancing ---------------------------------------------------------------------

@dataclass(frozen=True)
class Balance:
    """T = N^a eps^b d^c equating the optimisation term with the main noise term (alpha = 1/N)."""

    exponents: tuple[sp.Expr, sp.Expr, sp.Expr]   # (a, b, c)
    T: sp.Expr
    rate: sp.Expr
    noise_term: sp.Expr


def _strip(term: sp.Expr) -> sp.Expr:
    """A term's monomial in (N, T, d, eps): constants, G, L and the logs set to 1."""
    t = term.subs({lg: 1, lgN: 1, ell: 1, G: 1, L: 1, R: 1})
    return sp.powsimp(sp.expand_power_base(t / t.as_coeff_Mul()[0], force=True), force=True)


def _monomial_exponents(m: sp.Expr) -> tuple[sp.Expr, ...]:
    logm = sp.expand_log(sp.log(m), force=True)
    return tuple(logm.coeff(sp.log(s)) for s in (N, T, eps, d))


def balance(algorithm: int) -> Balance:
    """Equate sqrt(N/T) (3R/(2 eta T) at eta = 1/sqrt(NT)) with the main noise term at alpha = 1/N.

    Algorithm 1: Lemma 12 with V = 4 lg T/N and sigma = 2 sqrt(ell)/eps.  Algorithm 2: Lemma 7's
    second term (the one Thm 9 balances).
    """
    if algorithm == 1:
        noise = _lem_12_in_thm_6()
    elif algorithm == 2:
        # 128 G alpha sqrt(eta d T ell) lg / eps: the term with eta and without N.
        noise = next(t for t in sp.Add.make_args(sp.expand(fm.LEM_7))
                     if t.has(eta) and t.has(G) and not t.has(N))
    else:
        raise ValueError(f"algorithm={algorithm} violates algorithm in (1, 2) "
                         f"({cite('tran2022')})")
    opt = _strip((3 * R / (2 * eta * T)).subs(eta, fm.ETA))
    nz = _strip(noise.subs(eta, fm.ETA).subs(alpha, 1 / N))
    a, b, c = sp.symbols("a b c", real=True)
    Tmono = N**a * eps**b * d**c
    e_opt = _monomial_exponents(_s(opt.subs(T, Tmono)))
    e_nz = _monomial_exponents(_s(nz.subs(T, Tmono)))
    sol = sp.solve([sp.Eq(x, y) for x, y in zip(e_opt, e_nz, strict=True)], [a, b, c], dict=True)[0]
    Tsol = N ** sol[a] * eps ** sol[b] * d ** sol[c]
    return Balance((sol[a], sol[b], sol[c]), Tsol, _s(opt.subs(T, Tsol)), nz)


# --- Regimes, comparison, run time ----------------------------------------------------------

@dataclass(frozen=True)
class Regime:
    statement: str
    log_ratio: sp.Expr      # log(lhs / rhs), linear in log N, log eps, log d
    equivalent: str
    holds: bool             # log_ratio is a positive multiple of the equivalent's log form


def regime_inequalities() -> list[Regime]:
    """The regime comparisons, each reduced to a linear inequality in log N, log eps, log d."""
    r1 = d ** sp.Rational(1, 4) / sp.sqrt(eps * N)
    r2 = d ** sp.Rational(1, 3) / (eps * N) ** sp.Rational(2, 3)
    g9 = _s((fm.GAMMA_9.subs(eta, fm.ETA)).subs(T, fm.THM_9_T))
    cases = [
        ("Alg. 2 rate <= Alg. 1 rate", r2, r1, sp.log(sp.sqrt(d)) - sp.log(eps * N),
         "sqrt(d) <= eps N"),
        ("sqrt(d)/(eps N) <= d^(1/3)/(eps N)^(2/3)", sp.sqrt(d) / (eps * N), r2,
         sp.log(sp.sqrt(d)) - sp.log(eps * N), "sqrt(d) <= eps N"),
        ("1/sqrt(N) <= d^(1/3)/(eps N)^(2/3)", 1 / sp.sqrt(N), r2,
         sp.log(N) - sp.log(d**2 / eps**4), "N <= d^2/eps^4"),
        ("gamma = eta N <= 1/2 at Thm 9's T (Lemma 7)", g9, sp.Rational(1, 2),
         sp.log(2 ** sp.Rational(3, 2) * sp.sqrt(d)) - sp.log(eps * N), "eps N >= 2^(3/2) sqrt(d)"),
    ]
    out = []
    for text, lhs, rhs, form, eq in cases:
        lr = sp.expand(sp.expand_log(sp.log(lhs / rhs), force=True))
        ratio = _s(lr / sp.expand(sp.expand_log(form, force=True)))
        out.append(Regime(text, lr, eq, bool(ratio.is_number and ratio > 0)))
    return out


@dataclass(frozen=True)
class RateRow:
    method: str
    source: str
    rate: sp.Expr                  # leading utility term, polylogs dropped
    gradients: sp.Expr | None      # gradient evaluations, polylogs dropped (None: not stated)
    exponents: tuple[sp.Expr, sp.Expr, sp.Expr]   # of (N, eps, d) in the rate


def comparison_table() -> list[RateRow]:
    """The rates the paper compares (Sec. 1, 4), as printed, with their (N, eps, d) exponents."""
    ln = sp.Symbol("log(n/delta)", positive=True)
    rows = [
        ("convex ERM (output/objective/gradient perturbation)", "Sec. 1 (smooth convex)",
         sp.sqrt(d) / (eps * N), None),
        ("RRSGD", "Zhang et al. 2017",
         (d * ln * ell) ** sp.Rational(1, 4) / sp.sqrt(eps * N), N**2 * d),
        ("full-batch GD", "Wang et al. 2018", (d * ell) ** sp.Rational(1, 4) / sp.sqrt(eps * N),
         None),
        ("DP-SRM", "Wang et al. 2019b", (d * ell) ** sp.Rational(1, 4) / sp.sqrt(eps * N),
         (eps * N) ** sp.Rational(3, 2) / d ** sp.Rational(3, 4) + eps * N / sp.sqrt(d)),
        ("DP-NSGD (Alg. 1, Thm 6)", "this paper", d ** sp.Rational(1, 4) / sp.sqrt(eps * N),
         _s(fm.THM_6_T.subs(lg, 1).subs(ell, 1))),
        ("sensitivity-reduced NSGD (Alg. 2, Thm 9)", "this paper",
         d ** sp.Rational(1, 3) / (eps * N) ** sp.Rational(2, 3), fm.THM_9_T),
    ]
    out = []
    for m, s, r, g in rows:
        e = _monomial_exponents(r.subs({ell: 1, ln: 1}))
        out.append(RateRow(m, s, r, g, (e[0], e[2], e[3])))
    return out


def runtime_exponents() -> dict[str, sp.Expr]:
    """Gradient evaluations and reconstruction work of Alg. 2 at T_9, vs the paper's run time.

    Algorithm 4 at step t touches O(q_t log N) nodes, q_t = t/N, so the total work is
    sum_t t/N ~ T^2/(2N) node operations (times log N).
    """
    t = sp.Symbol("t", positive=True)
    work = sp.integrate(t / N, (t, 0, T))
    at9 = _s(work.subs(T, fm.THM_9_T))
    printed = N ** sp.Rational(11, 3) / d ** sp.Rational(2, 3)
    return {"gradients": fm.THM_9_T, "reconstruction work": at9, "printed run time": printed,
            "printed / derived": _s(printed / (at9 * 2))}


# --- log-derivative of the noise bounds -------------------------------------------------

@dataclass(frozen=True)
class LogDerivative:
    """d log B / d log N along the paper's parameter curve, and its limit N -> oo."""

    term: sp.Expr          # the rate-setting noise term B(N, T)
    constraint: sp.Expr    # Phi(N, T) = 0 defines T(N)
    slope: sp.Expr         # d log B / d log N: in a = 1/log N, b = 1/log T (Alg. 1), in N (Alg. 2)
    limit: sp.Expr         # slope at a = b = 0
    lower_order: tuple[sp.Expr, ...]   # N-exponents of the other terms over B (Alg. 2)


@cache
def log_derivative(algorithm: int) -> LogDerivative:
    """Slope of the noise bound against N on a log-log plot, and its limit (delta = N^-2).

    Algorithm 1: Lemma 12 with V <= 4 lg T/N, sigma = 2 sqrt(ell)/eps, alpha = 1/N, on the curve
    T log2 T = eps N^2 / sqrt(d ell).  Algorithm 2: Lemma 7's rate-setting term
    (128 G alpha sqrt(eta d T ell) lg / eps) at eta = 1/sqrt(NT), alpha = 1/N, on T = T_9; the
    other two terms over it have negative N-exponents at T_9 (``lower_order``).  The slope is
    computed by implicit differentiation, ``d log T / d log N = -N Phi_N / (T Phi_T)``; on the
    curve it depends on N and T only through a = 1/log N and b = 1/log T, and its limit is the
    value at a = b = 0 (the slope is a rational function of a, b, continuous there).
    Cached: the result is a pure function of ``algorithm``.
    """
    a, b = sp.symbols("a b", positive=True)
    lower: tuple[sp.Expr, ...] = ()
    if algorithm == 1:
        B = _lem_12_in_thm_6().subs(alpha, 1 / N)
        Phi = T * lg - fm.THM_6_T * lg
    elif algorithm == 2:
        terms = [t.subs(eta, fm.ETA).subs(alpha, 1 / N) for t in sp.Add.make_args(fm.LEM_7)]
        B = next(t for t in terms if t.has(G) and t.has(L))
        lower = tuple(_monomial_exponents(_s(_strip(o / B).subs(T, fm.THM_9_T)))[0]
                      for o in terms if o != B)
        # T is explicit: substitute it and differentiate in N directly.
        B9 = B.subs(lg, sp.log(T) / sp.log(2)).subs(T, fm.THM_9_T).subs(ell, 2 * sp.log(N))
        slope = sp.simplify(N * sp.diff(sp.expand_log(sp.log(B9), force=True), N))
        return LogDerivative(B, T - fm.THM_9_T, slope, sp.limit(slope, N, sp.oo), lower)
    logs = {lg: sp.log(T) / sp.log(2), ell: 2 * sp.log(N)}
    B, Phi = B.subs(logs), Phi.subs(logs)
    lnB = sp.expand_log(sp.log(B), force=True)
    dlnT = -N * sp.diff(Phi, N) / (T * sp.diff(Phi, T))
    slope = sp.expand(N * sp.diff(lnB, N) + dlnT * T * sp.diff(lnB, T))
    # On the curve, eps N^2 / sqrt(d ell) = T lg: remove the power of N left by Phi_N.
    slope = slope.subs(eps, T * sp.log(T) / sp.log(2) * sp.sqrt(2 * d * sp.log(N)) / N**2)
    slope = sp.simplify(slope.subs({sp.log(N): 1 / a, sp.log(T): 1 / b}))
    require_free = slope.free_symbols - {a, b}
    if require_free:
        raise ArithmeticError(f"slope still depends on {require_free}")
    lim = sp.simplify(sp.limit(sp.limit(slope, a, 0), b, 0))
    return LogDerivative(B, Phi, slope, lim, lower)
