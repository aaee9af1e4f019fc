"""Taylor expansions in q with rigorous remainders for fixed-size subsampled Gaussians.

Birrell, Ebrahimi, Behnia & Pacheco 2024 bound the one-step RDP of DP-SGD with fixed-size
minibatches by expanding the Gaussian-mixture moment in the sampling ratio q to order m
and bounding the integral remainder.  This module holds

* the **symbolic derivations** (sympy, symbolic real alpha, any order k):
  d^k/dq^k H(0) = (alpha)_k M_{sigma,k} (eqs. (40)-(41)) and the replace-one derivatives
  F^{(k)}(0) (eqs. (64)-(67)), both from the Gaussian moment generating function, never
  typed in;
* the **remainder bounds**: R~_{alpha,sigma,m}(q) (Thm 3.2 for m = 3, App. B eqs. (50),
  (54) for any m), F~_{alpha,sigma,k} (83) and E~_{alpha,sigma,m}(q) (90);
* the **constrained maximisation** of the second derivative (67) behind (69), (96), (136),
  numerically (:func:`max_second_derivative`) and in closed form at the maximiser
  (:func:`second_derivative_max`, which also gives the q^2 terms of (14) and (98));
* the **accountant bounds** (one step, or ``steps`` identical steps):

  ==========================================  ======================================
  :func:`fswor_add_remove_rdp`                FSwoR, add/remove, Thms 3.1-3.3 / App. B
  :func:`fswor_replace_one_rdp`               FSwoR, replace-one, Thms 3.4-3.5
  :func:`poisson_replace_one_rdp`             Poisson, replace-one, Thm C.9
  ==========================================  ======================================

Every accountant value is computed with guard digits and rounded *up* to ``dps`` digits.
Parameters use the paper's symbols: ``alpha`` > 1 (any real), ``sigma`` > 0 the noise
multiplier, ``q`` = |B|/|D| in [0, 1), ``m`` the Taylor order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import mpmath
import sympy as sp
from mpmath import mp, mpf

from dpsym.errors import require, require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.rdp.arb_series import MAX_ORDER
from dpsym.rdp.gaussian_mixture import M_float64, b_tilde_from, moment_M

#: Bounded work: the largest Taylor order m (sympy derives m derivatives symbolically; m = 12
#: already takes seconds, and the bounds stop improving long before).
MAX_TAYLOR_ORDER = 30
__all__ = [
    "E_tilde",
    "F_tilde",
    "F_tilde_poisson_conservative",
    "R_tilde",
    "fswor_add_remove_rdp",
    "fswor_replace_one_rdp",
    "fswor_replace_one_rdp_float64",
    "gaussian_mgf",
    "h_derivative_at_0",
    "h_taylor_bound",
    "max_second_derivative",
    "poisson_replace_one_rdp",
    "replace_one_derivative_at_0",
    "replace_one_lead",
    "replace_one_moment",
    "second_derivative_max",
    "second_derivative_max_value",
    "symbolic_M",
]

REF = "Birrell et al. 2024"

# ---------------------------------------------------------------------------------------
# symbolic derivations
# ---------------------------------------------------------------------------------------

alpha_s = sp.Symbol("alpha", real=True)
sigma_s = sp.Symbol("sigma", positive=True)
q_s = sp.Symbol("q", nonnegative=True)
#: squared norms and inner product of the replace-one shifts, in units of sigma~^2
A_s, B_s, C_s = sp.symbols("A B C", real=True)


@functools.cache
def gaussian_mgf() -> sp.Expr:
    """E[exp(t Z)] for Z ~ N(0,1), as sympy derives it: exp(t^2/2) (symbolic real t)."""
    t, z = sp.symbols("t z", real=True)
    val = sp.integrate(sp.exp(t * z - z**2 / 2) / sp.sqrt(2 * sp.pi), (z, -sp.oo, sp.oo))
    return sp.simplify(val).subs(t, sp.Symbol("t_", real=True))


def _mgf(t: sp.Expr) -> sp.Expr:
    return gaussian_mgf().subs(sp.Symbol("t_", real=True), t)


@functools.cache
def likelihood_ratio_moment(ell: int) -> sp.Expr:
    """E_{N(0,sigma^2/4)}[L^ell] with L = exp(2Z/sigma - 2/sigma^2), derived: e^{2l(l-1)/s^2}."""
    # L^ell = exp(ell (2 Z/sigma - 2/sigma^2)); E exp(tZ) from the derived MGF.
    return sp.simplify(sp.exp(-2 * ell / sigma_s**2) * _mgf(2 * ell / sigma_s))


@functools.cache
def symbolic_M(k: int) -> sp.Expr:
    """M_{sigma,k} = E[(L-1)^k] derived by sympy: expand (L-1)^k, then L^l -> E[L^l]."""
    L = sp.Symbol("L", positive=True)
    poly = sp.Poly(sp.expand((L - 1) ** k), L)
    return sp.expand(sum(c * likelihood_ratio_moment(int(mon[0]))
                         for mon, c in zip(poly.monoms(), poly.coeffs(), strict=True)))


@functools.cache
def h_derivative_at_0(k: int) -> sp.Expr:
    """d^k/dq^k H_{alpha,sigma}(0) for symbolic real alpha (eq. (40) at q = 0).

    Derived as E[d^k/dq^k (1 + q x)^alpha |_{q=0}] with x = L - 1: sympy differentiates,
    the result is a monomial c(alpha) x^k, and x^k -> M_{sigma,k} (:func:`symbolic_M`).
    The paper states (alpha)_k M_{sigma,k} (41).
    """
    x = sp.Symbol("x", real=True)
    d = sp.diff((1 + q_s * x) ** alpha_s, q_s, k).subs(q_s, 0)
    d = sp.expand(sp.simplify(d))
    coeff = sp.Poly(d, x).coeff_monomial(x**k)
    rest = sp.simplify(d - coeff * x**k)
    if rest != 0:  # pragma: no cover - the derivative is a pure monomial
        raise ArithmeticError(f"unexpected terms in the {k}-th derivative: {rest}")
    return sp.factor(coeff) * symbolic_M(k)


@functools.cache
def replace_one_moment(j: int, ell: int) -> sp.Expr:
    """E_{N_0}[X^j Y^ell] for X = N_a/N_0 - 1, Y = N_b/N_0 - 1, derived from the Gaussian MGF.

    In units where N_0 = N(0, I): N_a/N_0 = exp(a.z - |a|^2/2); with A = |a|^2, B = |b|^2,
    C = a.b, E[(N_a/N_0)^i (N_b/N_0)^n] = E exp((i a + n b).z) e^{-(iA + nB)/2}, and the
    d-dimensional MGF factorises into 1-D ones along an orthonormal basis, so only
    |i a + n b|^2 = i^2 A + n^2 B + 2 i n C enters.
    """
    u, v = sp.symbols("u v", real=True)
    poly = sp.Poly(sp.expand((u - 1) ** j * (v - 1) ** ell), u, v)
    out = 0
    for (i, n), c in zip(poly.monoms(), poly.coeffs(), strict=True):
        norm2 = i**2 * A_s + n**2 * B_s + 2 * i * n * C_s
        # exp(t Z) with t^2 = |v|^2: the MGF depends on t^2 only
        mgf = _mgf(sp.sqrt(sp.Symbol("w", positive=True))).subs(sp.Symbol("w", positive=True),
                                                                 norm2)
        out += c * sp.powsimp(mgf * sp.exp(-(i * A_s + n * B_s) / 2))
    return sp.expand(out)


@functools.cache
def replace_one_derivative_at_0(k: int) -> sp.Expr:
    """F_alpha^{(k)}(0) for symbolic real alpha (eqs. (64)-(65) at q = 0), derived by sympy.

    F(q) = E[(1 + qX)^alpha (1 + qY)^(1-alpha)]: sympy differentiates k times at q = 0,
    giving a polynomial in X, Y whose monomials X^j Y^(k-j) become
    :func:`replace_one_moment`.  In terms of A = |dmu|^2/sigma~^2, B = |dmu'|^2/sigma~^2,
    C = dmu.dmu'/sigma~^2.  For k = 2 the paper states (67):
    alpha(alpha-1)(e^A + e^B - 2 e^C).
    """
    X, Y = sp.symbols("X Y", real=True)
    d = sp.diff((1 + q_s * X) ** alpha_s * (1 + q_s * Y) ** (1 - alpha_s), q_s, k).subs(q_s, 0)
    poly = sp.Poly(sp.expand(d), X, Y)
    out = 0
    for (j, ell), c in zip(poly.monoms(), poly.coeffs(), strict=True):
        out += c * replace_one_moment(j, ell)
    return sp.expand(out)


#: The constraints on the replace-one mean shifts (|a|, |b| <= r_norm r_t, |a - b| <= r_diff
#: r_t) of each scheme: FSwoR (60), Poisson (93), and (60) without the coupling, (134)-(135).
SHIFT_CONSTRAINTS = {"fswor": (1, 1), "poisson": (sp.Rational(1, 2), 1), "uncoupled": (1, 2)}


@functools.cache
def second_derivative_max(scheme: str = "fswor") -> sp.Expr:
    """max of F''(0)/(alpha(alpha-1)) of (67) under the shift constraints of ``scheme``.

    (67) is e^A + e^B - 2e^C with A = |a|^2/sigma~^2, B = |b|^2/sigma~^2, C = a.b/sigma~^2
    and sigma~ = sigma r_t / 2 (37); it grows with the norms and falls with the inner
    product, whose least admissible value is max(-|a||b|, (|a|^2 + |b|^2 - r_diff^2)/2).
    Substituted at |a| = |b| = r_norm into the sympy-derived (67) this gives (69)
    (``"fswor"``), (96) (``"poisson"``) and (136) (``"uncoupled"``); that the corner is the
    maximiser is checked numerically by :func:`max_second_derivative`.

    >>> second_derivative_max("poisson")
    2*exp(sigma**(-2)) - 2*exp(-1/sigma**2)
    """
    require(scheme in SHIFT_CONSTRAINTS, "scheme", scheme,
            f"scheme in {tuple(SHIFT_CONSTRAINTS)}", REF + ", eqs. (69), (96), (136)")
    rn, rd = SHIFT_CONSTRAINTS[scheme]
    inner = sp.Max(-rn * rn, rn * rn - sp.Rational(rd * rd, 2))
    scale = 4 / sigma_s**2  # 1/sigma~^2 in units of r_t^2
    d2 = replace_one_derivative_at_0(2) / (alpha_s * (alpha_s - 1))
    return sp.expand(sp.cancel(d2.subs({A_s: rn * rn * scale, B_s: rn * rn * scale,
                                           C_s: inner * scale})))


def replace_one_lead(scheme: str = "fswor") -> sp.Expr:
    """The q^2 coefficient of the replace-one bounds, divided by alpha(alpha-1): half of
    :func:`second_derivative_max`; e^{4/sigma^2} - e^{2/sigma^2} in (14) (``"fswor"``),
    e^{1/sigma^2} - e^{-1/sigma^2} in (98) (``"poisson"``)."""
    return sp.expand(second_derivative_max(scheme) / 2)


def second_derivative_max_value(sigma: Number, scheme: str = "fswor", *,
                                dps: int = DEFAULT_DPS) -> mpf:
    """:func:`second_derivative_max` as a number: (67)/(alpha(alpha-1)) evaluated at the
    corner |a| = |b| = r_norm with the least admissible inner product (the accountants'
    q^2 terms are half of it).

    >>> from dpsym.numerics import nstr
    >>> nstr(second_derivative_max_value(6, "fswor", dps=30), 12)
    '0.120782647963'
    """
    ref = REF + ", eqs. (69), (96), (136)"
    require(scheme in SHIFT_CONSTRAINTS, "scheme", scheme,
            f"scheme in {tuple(SHIFT_CONSTRAINTS)}", ref)
    rn, rd = (mpf(sp.Rational(x).p) / sp.Rational(x).q for x in SHIFT_CONSTRAINTS[scheme])
    with precision(dps + GUARD_DPS):
        s = to_mpf(sigma, "sigma", ref)
        require(s > 0, "sigma", sigma, "sigma > 0", ref)
        out = _g(rn, rn, (s / 2) ** 2, rd)
    with precision(dps):
        return +out


def _lead_value(s: mpf, scheme: str) -> mpf:
    """The q^2 coefficient / (alpha(alpha-1)) at the current precision (half of (67)'s max)."""
    rn, rd = (mpf(sp.Rational(x).p) / sp.Rational(x).q for x in SHIFT_CONSTRAINTS[scheme])
    return _g(rn, rn, (s / 2) ** 2, rd) / 2


# ---------------------------------------------------------------------------------------
# numeric helpers (current precision)
# ---------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8192)
def _M_cached(s: mpf, k: int, prec: int) -> mpf:
    with mp.workprec(prec):
        return moment_M(s, k)


def _Mk(s: mpf, k: int) -> mpf:
    return _M_cached(s, k, mp.prec)


MFn = Callable[[mpf, int], mpf]


def _Bt(s: mpf, j: int, mk: MFn = _Mk) -> mpf:
    """B~_{sigma,j} of (47) at the current precision (cached M's, or ``mk``'s)."""
    return b_tilde_from(lambda k: mk(s, k), j)


def _falling(a: mpf, k: int) -> mpf:
    """(alpha)_k = alpha (alpha-1) ... (alpha-k+1)."""
    out = mpf(1)
    for j in range(k):
        out *= a - j
    return out


def _abs_falling(a: mpf, k: int) -> mpf:
    out = mpf(1)
    for j in range(k):
        out *= abs(a - j)
    return out


def _ceil(a: mpf) -> int:
    return int(mpmath.ceil(a))


def _r_tilde(a: mpf, s: mpf, qv: mpf, m: int) -> mpf:
    """R~_{alpha,sigma,m}(q): eq. (50) if alpha > m, eq. (54) (with B~ for the B of (54)) else."""
    pref = qv**m * _abs_falling(a, m)
    if pref == 0:
        return mpf(0)
    if a - m > 0:
        n = _ceil(a) - m
        fn = mpmath.factorial(n)
        tot = mpmath.fsum(qv**ell * fn / (mpmath.factorial(n - ell) * mpmath.factorial(m + ell))
                          * _Bt(s, ell + m) for ell in range(n + 1))
        return pref * (tot + _Bt(s, m) / mpmath.factorial(m))
    return pref / mpmath.factorial(m) * (1 - qv) ** (a - m) * _Bt(s, m)


def _h_bound_minus_1(a: mpf, s: mpf, qv: mpf, m: int) -> mpf:
    """sum_{k=2}^{m-1} q^k/k! (alpha)_k M_k + R~_m, summed from the highest order down."""
    terms = [qv**k / mpmath.factorial(k) * _falling(a, k) * _Mk(s, k) for k in range(m - 1, 1, -1)]
    return mpmath.fsum([_r_tilde(a, s, qv, m), *terms])


def _first_family(s: mpf, k: int, mk: MFn = _Mk) -> mpf:
    """Bound (80) on E[(X - Y)^k]: 4 M_k (k even), 3 M_{k-1}^(1/2) M_{k+1}^(1/2) (k odd)."""
    return 4 * mk(s, k) if k % 2 == 0 else 3 * _Bt(s, k, mk)


def _f_tilde(a: mpf, s: mpf, k: int, mk: MFn = _Mk) -> mpf:
    """F~_{alpha,sigma,k} of eq. (83) (k >= 3)."""
    first = _first_family(s, k, mk)
    ratio = a / (a - 1)
    cross = mpf(0)
    for j in range(k + 1):
        p1 = mpf(1)
        for ell in range(j):
            p1 *= 1 - mpf(ell) / a
        p2 = mpf(1)
        for ell in range(k - j):
            p2 *= 1 + mpf(ell - 1) / a
        cross += mpmath.binomial(k, j) * abs(ratio * p1 * p2 - 1)
    return (a - 1) * a ** (k - 1) * (first + cross * _Bt(s, k, mk))


def _e_tilde(a: mpf, s: mpf, qv: mpf, m: int, mk: MFn = _Mk) -> mpf:
    """E~_{alpha,sigma,m}(q) of eq. (90)."""
    ca = _ceil(a)
    mf = mpmath.factorial(m)
    total = mpf(0)
    for j in range(m + 1):
        p1 = _abs_falling(a, j)
        if p1 == 0:
            continue
        p2 = mpf(1)
        for ell in range(m - j):
            p2 *= a + ell - 1
        if a - j <= 0:
            kj = (1 - qv) ** (a - j) * _Bt(s, m, mk)
        else:
            n = ca - j
            fn = mpmath.factorial(n)
            kj = _Bt(s, m, mk) + mpmath.fsum(
                qv**ell * fn * mf / (mpmath.factorial(n - ell) * mpmath.factorial(m + ell))
                * _Bt(s, ell + m, mk) for ell in range(n + 1))
        total += (1 - qv) ** (-(a + m - j - 1)) * mpmath.binomial(m, j) * p1 * p2 * kj
    return qv**m / mf * total


# ---------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------


def _args(alpha: Number, sigma: Number, q: Number, m: object, ref: str,
          m_min: int) -> tuple[mpf, mpf, mpf, int]:
    a = to_mpf(alpha, "alpha", ref)
    require(a > 1, "alpha", alpha, "alpha > 1", ref)
    require(a <= MAX_ORDER, "alpha", alpha, f"alpha <= {MAX_ORDER} (the cap on the order, "
            "dpsym.rdp.arb_series.MAX_ORDER)", ref)
    s = to_mpf(sigma, "sigma", ref)
    require(s > 0, "sigma", sigma, "sigma > 0", ref)
    qv = to_mpf(q, "q", ref)
    require(0 <= qv < 1, "q", q, "0 <= q < 1 (q = |B|/|D|)", ref)
    mm = require_integer("m", m, ref, minimum=m_min, maximum=MAX_TAYLOR_ORDER)
    return a, s, qv, mm


def _steps(steps: object, ref: str) -> int:
    return require_integer("steps", steps, ref + " (composition over steps)", minimum=1)


def _finish(log_arg_minus_1: mpf, a: mpf, t: int, dps: int) -> mpf:
    return round_up(t * mpmath.log1p(log_arg_minus_1) / (a - 1), dps)


# ---------------------------------------------------------------------------------------
# public: remainder pieces
# ---------------------------------------------------------------------------------------


def R_tilde(alpha: Number, sigma: Number, q: Number, m: int, *, dps: int = DEFAULT_DPS) -> mpf:
    """R~_{alpha,sigma,m}(q) >= |R_{alpha,sigma,m}(q)|, the order-m remainder of H (App. B).

    alpha > m: (50), q^m prod_{j<m}|alpha-j| [sum_{l=0}^{ceil(alpha)-m} q^l (ceil(alpha)-m)!
    / ((ceil(alpha)-m-l)! (m+l)!) B~_{l+m} + B~_m/m!]; alpha <= m: (54),
    q^m/m! (1-q)^(alpha-m) prod|alpha-j| B~_m (the paper prints B_{sigma,m}; B~ bounds it).
    m = 3 is Thm 3.2 (12).  Rounded up.
    """
    ref = REF + ", App. B, eqs. (50)/(54)"
    with precision(dps + GUARD_DPS):
        a, s, qv, mm = _args(alpha, sigma, q, m, ref, 1)
        out = _r_tilde(a, s, qv, mm)
    return round_up(out, dps)


def h_taylor_bound(alpha: Number, sigma: Number, q: Number, m: int = 3, *,
                   dps: int = DEFAULT_DPS) -> mpf:
    """Upper bound on H_{alpha,sigma}(q) - 1: sum_{k=2}^{m-1} q^k (alpha)_k M_k / k! + R~_m.

    Birrell et al. 2024, eq. (41) with the remainder bound of Thm 3.2 (m = 3) / App. B.
    Returned as H - 1 (which is ~q^2) so that no digits are lost; rounded up.
    """
    ref = REF + ", Thm 3.2 / App. B"
    with precision(dps + GUARD_DPS):
        a, s, qv, mm = _args(alpha, sigma, q, m, ref, 1)
        out = _h_bound_minus_1(a, s, qv, mm)
    return round_up(out, dps)


def F_tilde(alpha: Number, sigma: Number, k: int, *, dps: int = DEFAULT_DPS) -> mpf:
    """F~_{alpha,sigma,k} of eq. (83): bound on |F_alpha^{(k)}(0)| for k >= 3 (Thm 3.4).

    (alpha-1) alpha^(k-1) { 4 M_k (k even) | 3 M_{k-1}^(1/2) M_{k+1}^(1/2) (k odd)
    + sum_j C(k,j) |alpha/(alpha-1) prod_{l<j}(1-l/alpha) prod_{l<k-j}(1+(l-1)/alpha) - 1|
    B~_k }.  Rounded up.
    """
    ref = REF + ", eq. (83)"
    with precision(dps + GUARD_DPS):
        a, s, _, kk = _args(alpha, sigma, 0, k, ref, 3)
        out = _f_tilde(a, s, kk)
    return round_up(out, dps)


def E_tilde(alpha: Number, sigma: Number, q: Number, m: int, *, dps: int = DEFAULT_DPS) -> mpf:
    """E~_{alpha,sigma,m}(q) of eq. (90): bound on the order-m remainder of F (Thm 3.4).

    q^m/m! sum_{j=0}^m (1-q)^{-(alpha+m-j-1)} C(m,j) prod_{l<j}|alpha-l|
    prod_{l<m-j}(alpha+l-1) K_j, with K_j = (1-q)^(alpha-j) B~_m if alpha <= j, else
    B~_m + sum_{l=0}^{ceil(alpha)-j} q^l (ceil(alpha)-j)! m! / ((ceil(alpha)-j-l)! (m+l)!)
    B~_{l+m}.  Rounded up.
    """
    ref = REF + ", eq. (90)"
    with precision(dps + GUARD_DPS):
        a, s, qv, mm = _args(alpha, sigma, q, m, ref, 1)
        out = _e_tilde(a, s, qv, mm)
    return round_up(out, dps)


# ---------------------------------------------------------------------------------------
# public: accountant bounds
# ---------------------------------------------------------------------------------------


def fswor_add_remove_rdp(alpha: Number, sigma: Number, q: Number, m: int = 3, *,
                         steps: int = 1, dps: int = DEFAULT_DPS) -> mpf:
    """RDP of ``steps`` FSwoR DP-SGD steps, add/remove (Birrell et al. 2024, Thms 3.1-3.3).

    ``steps`` / (alpha-1) * log[1 + sum_{k=2}^{m-1} q^k (alpha)_k M_{sigma,k}/k! + R~_m(q)]
    (eq. (13) for m = 3; eq. (41) with App. B for general m >= 1).  Valid for every real
    alpha > 1, sigma > 0, 0 <= q < 1.  Rounded up to ``dps`` digits.

    >>> from dpsym.numerics import nstr
    >>> nstr(fswor_add_remove_rdp(2, 6, "0.0024", dps=30), 10)
    '6.769096068e-7'
    """
    ref = REF + ", Thm 3.3"
    with precision(dps + GUARD_DPS):
        a, s, qv, mm = _args(alpha, sigma, q, m, ref, 1)
        t = _steps(steps, ref)
        out = _h_bound_minus_1(a, s, qv, mm)
        return _finish(out, a, t, dps)


def _ro_arg_minus_1(a: mpf, s: mpf, qv: mpf, m: int, lead: mpf,
                    f_tilde: Callable[[int], mpf], sig_e: mpf, mk: MFn = _Mk) -> mpf:
    terms = [qv**k / mpmath.factorial(k) * f_tilde(k) for k in range(m - 1, 2, -1)]
    return mpmath.fsum([_e_tilde(a, sig_e, qv, m, mk), *terms, qv**2 * a * (a - 1) * lead])


def fswor_replace_one_rdp(alpha: Number, sigma: Number, q: Number, m: int = 4, *,
                          steps: int = 1, dps: int = DEFAULT_DPS) -> mpf:
    """RDP of ``steps`` FSwoR DP-SGD steps, replace-one (Birrell et al. 2024, Thms 3.4-3.5).

    ``steps`` / (alpha-1) * log[1 + q^2 alpha(alpha-1)(e^{4/sigma^2} - e^{2/sigma^2})
    + sum_{k=3}^{m-1} q^k F~_{alpha,sigma,k}/k! + E~_{alpha,sigma,m}(q)]  (eq. (14)),
    for real alpha > 1, sigma > 0, 0 <= q < 1 and integer m >= 3 (the authors use m = 4).
    Rounded up to ``dps`` digits.

    >>> from dpsym.numerics import nstr
    >>> nstr(fswor_replace_one_rdp(2, 6, "0.0024", 4, dps=30), 6)
    '7.00754e-7'
    """
    ref = REF + ", Thm 3.4"
    with precision(dps + GUARD_DPS):
        a, s, qv, mm = _args(alpha, sigma, q, m, ref, 3)
        t = _steps(steps, ref)
        if qv == 0:
            return mpf(0)
        lead = _lead_value(s, "fswor")
        out = _ro_arg_minus_1(a, s, qv, mm, lead, lambda k: _f_tilde(a, s, k), s)
        return _finish(out, a, t, dps)


def _f_tilde_poisson_conservative(a: mpf, s: mpf, k: int) -> mpf:
    """F~ for Poisson with the coupled chi^k terms kept at sigma (see poisson_replace_one_rdp)."""
    s2 = 2 * s
    # Lemma C.5: chi^k(q||p) + chi^k(p||q) [+ chi^k(q||r) for even k] + chi^k(p||r); the
    # first two compare N_dmu with N_dmu' (means up to r_t apart), the others N_0 (r_t/2).
    first = 2 * _Bt(s, k) + (2 if k % 2 == 0 else 1) * _Bt(s2, k)
    return _f_tilde(a, s2, k) + (a - 1) * a ** (k - 1) * (first - _first_family(s2, k))


def F_tilde_poisson_conservative(alpha: Number, sigma: Number, k: int, *,
                                 dps: int = DEFAULT_DPS) -> mpf:
    """The sound replacement of F~_{alpha,2sigma,k} in Thm C.9 (``variant="conservative"``).

    (80) bounds E[(X - Y)^k] by Lemma C.5's chi^k divergences; the two that compare
    N_{dmu} with N_{dmu'} (means up to r_t apart also under (93)) keep sigma, the others
    (means within r_t/2 of N_0) take 2 sigma: 2 B~_{sigma,k} + 2 B~_{2sigma,k} (k even),
    2 B~_{sigma,k} + B~_{2sigma,k} (k odd), in place of 4 M_{2sigma,k} and
    3 B~_{2sigma,k}; the cross family keeps 2 sigma.  Rounded up.
    """
    ref = REF + ", Thm C.9, eqs. (80), (83)"
    with precision(dps + GUARD_DPS):
        a, s, _, kk = _args(alpha, sigma, 0, k, ref, 3)
        out = _f_tilde_poisson_conservative(a, s, kk)
    return round_up(out, dps)


def poisson_replace_one_rdp(alpha: Number, sigma: Number, q: Number, m: int = 4, *,
                            steps: int = 1, variant: str = "conservative",
                            dps: int = DEFAULT_DPS) -> mpf:
    """RDP of ``steps`` Poisson-subsampled DP-SGD steps, replace-one (Thm C.9, eq. (98)).

    The default is the sound ``"conservative"`` variant; ``"paper"`` is the statement as
    printed, which the ledger shows to be below the sound bound (it is not a valid bound).

    ``variant="paper"``: ``steps``/(alpha-1) log[1 + q^2 alpha(alpha-1)(e^{1/sigma^2} -
    e^{-1/sigma^2}) + sum_{k=3}^{m-1} q^k F~_{alpha,2sigma,k}/k! + E~_{alpha,2sigma,m}(q)].

    ``variant="conservative"``: the first family of (80) bounds chi^k divergences between
    N_{dmu} and N_{dmu'}, whose means differ by up to r_t also under Poisson sampling
    (constraint (93)), so for those terms sigma is not doubled: 4 M_{2sigma,k} becomes
    2 B~_{sigma,k} + 2 B~_{2sigma,k} (k even) and 3 B~_{2sigma,k} becomes
    2 B~_{sigma,k} + B~_{2sigma,k} (k odd) (Lemma C.5's four chi^k terms, two of them
    coupled).  Rounded up.
    """
    ref = REF + ", Thm C.9"
    require(variant in ("paper", "conservative"), "variant", variant,
            "variant in ('paper', 'conservative')", ref)
    with precision(dps + GUARD_DPS):
        a, s, qv, mm = _args(alpha, sigma, q, m, ref, 3)
        t = _steps(steps, ref)
        if qv == 0:
            return mpf(0)
        lead = _lead_value(s, "poisson")
        if variant == "paper":
            ft = lambda k: _f_tilde(a, 2 * s, k)  # noqa: E731
        else:
            ft = lambda k: _f_tilde_poisson_conservative(a, s, k)  # noqa: E731
        out = _ro_arg_minus_1(a, s, qv, mm, lead, ft, 2 * s)
        return _finish(out, a, t, dps)


# ---------------------------------------------------------------------------------------
# constrained maximisation of (67)
# ---------------------------------------------------------------------------------------


def _g(r1: mpf, r2: mpf, s2: mpf, rd: mpf) -> mpf:
    """(67)/(alpha(alpha-1)) = e^A + e^B - 2e^C at norms r1, r2 (units of r_t, s2 = (sigma/2)^2)
    and the least inner product allowed: the one numeric form of (67)."""
    # for fixed norms (67) decreases in dmu.dmu', so the inner product sits at its minimum
    # allowed by |dmu - dmu'| <= rd and Cauchy-Schwarz
    c = max(-r1 * r2, (r1 * r1 + r2 * r2 - rd * rd) / 2)
    return mpmath.exp(r1 * r1 / s2) + mpmath.exp(r2 * r2 / s2) - 2 * mpmath.exp(c / s2)


def max_second_derivative(sigma: Number, r_norm: Number = 1, r_diff: Number = 1, *,
                          grid: int = 60, dps: int = 30) -> tuple[mpf, mpf, mpf, mpf]:
    """max of F''(0)/(alpha(alpha-1)) = e^{|a|^2/s~^2} + e^{|b|^2/s~^2} - 2 e^{a.b/s~^2}.

    Over |a|, |b| <= ``r_norm`` r_t and |a - b| <= ``r_diff`` r_t, with s~ = sigma r_t / 2
    (eq. (37)).  FSwoR (69): (1, 1); Poisson (96): (1/2, 1); no coupling (136): (1, 2).
    The inner product is eliminated exactly (its minimum); the two norms are searched on a
    ``grid`` x ``grid`` lattice including the corners, then refined by coordinate golden
    sections.  Returns (max, |a|, |b|, angle).
    """
    ref = REF + ", eqs. (67)-(69)"
    with precision(dps):
        s = to_mpf(sigma, "sigma", ref)
        require(s > 0, "sigma", sigma, "sigma > 0", ref)
        rn, rd = to_mpf(r_norm, "r_norm", ref), to_mpf(r_diff, "r_diff", ref)
        require(rn > 0 and rd > 0, "r_norm", r_norm, "r_norm > 0 and r_diff > 0", ref)
        s2 = (s / 2) ** 2
        pts = [rn * i / grid for i in range(grid + 1)]
        best = max(((_g(x, y, s2, rd), x, y) for x in pts for y in pts), key=lambda r: r[0])
        val, x, y = best
        h = rn / grid
        for _ in range(3):
            lo, hi = max(mpf(0), x - h), min(rn, x + h)
            x, v1 = _golden_max(lambda t, y=y: _g(t, y, s2, rd), lo, hi)
            lo, hi = max(mpf(0), y - h), min(rn, y + h)
            y, v2 = _golden_max(lambda t, x=x: _g(x, t, s2, rd), lo, hi)
            val = max(val, v1, v2)
        c = max(-x * y, (x * x + y * y - rd * rd) / 2)
        ang = mpmath.acos(c / (x * y)) if x * y > 0 else mpf(0)
        return +val, x, y, ang


def _golden_max(f: Callable[[mpf], mpf], a: mpf, b: mpf) -> tuple[mpf, mpf]:
    inv = (mpmath.sqrt(5) - 1) / 2
    c, d = b - inv * (b - a), a + inv * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(80):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - inv * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + inv * (b - a)
            fd = f(d)
    cands = [(f(a), a), (f(b), b), (fc, c), (fd, d)]
    v, x = max(cands, key=lambda r: r[0])
    return x, v


# ---------------------------------------------------------------------------------------
# float64 path (precision demonstration only)
# ---------------------------------------------------------------------------------------


def fswor_replace_one_rdp_float64(alpha: float, sigma: float, q: float, m: int = 4) -> float:
    """Thm 3.4 in double precision: eq. (14) with the moment sums (44) in float64.

    Not a bound: it exists to measure what double precision does to eq. (14).  The sums
    M_{sigma,k} are :func:`dpsym.rdp.gaussian_mixture.M_float64` (naive float64) and the
    rest of (14) is the code of :func:`fswor_replace_one_rdp` run at 53 bits; M_{sigma,k}
    cancels catastrophically for large sigma and k, turns negative, B~ becomes the square
    root of a negative number and the result is NaN (e.g. sigma = 20, alpha >= 30), or is
    silently wrong.  Use :func:`fswor_replace_one_rdp`.
    """
    def naive(s: mpf, k: int) -> mpf:
        return mpf(M_float64(float(s), k))

    with mp.workprec(53):
        a, s, qv = mpf(alpha), mpf(sigma), mpf(q)
        lead = _lead_value(s, "fswor")
        x = _ro_arg_minus_1(a, s, qv, m, lead, lambda k: _f_tilde(a, s, k, naive), s, naive)
        if isinstance(x, mpmath.mpc) or not mpmath.isfinite(x):
            return float("nan")
        return float(mpmath.log1p(x) / (a - 1))
