"""Renyi divergences of Gaussian mixtures behind fixed-size subsampling (Birrell et al. 2024).

One step of DP-SGD with a fixed-size minibatch drawn without replacement (FSwoR) and noise
multiplier sigma reduces, under add/remove adjacency, to (Birrell et al. 2024, Thm 3.1,
eqs. (7)-(8))

    H_{alpha,sigma}(q) = E_{Z ~ N(0,1)} [ (1 - q + q L)^alpha ],
    L = N_{1,sigma^2/4}/N_{0,sigma^2/4} = exp(2 Z/sigma - 2/sigma^2),

the Poisson subsampled-Gaussian moment A_alpha of Mironov, Talwar & Zhang 2019 at noise
multiplier sigma/2: fixed-size sampling has twice the sensitivity.  H is therefore
evaluated by :mod:`dpsym.rdp.subsampled_gaussian` (binomial sum of non-negative terms at
integer alpha, split quadrature at real alpha), never by a second implementation.

The Taylor coefficients of H and of the replace-one quantity F are built from the moments

    M_{sigma,k} = E[(L - 1)^k] = sum_{l=0}^k (-1)^{k-l} C(k,l) exp(2 l (l-1)/sigma^2)   (44)

and their Cauchy-Schwarz majorants B~_{sigma,j} (47) of B_{sigma,j} = E|L - 1|^j (45).
The alternating sum (44) cancels catastrophically: M_{sigma,k} ~ (2/sigma)^k (k-1)!! while
its terms are ~ 2^k, so about k (log10 sigma + 0.4) digits are lost.  :func:`M` measures the
loss and re-evaluates with that many extra digits, so the result keeps the requested
precision for any sigma and k (float64 code returns negative M_{200,20} and NaN RDP at
sigma = 20, alpha >= 30).

Replace-one (Thm 3.4, eq. (61)): with Delta mu, Delta mu' the two mean shifts,
X = N_{Delta mu}/N_0 - 1, Y = N_{Delta mu'}/N_0 - 1 under N_0 = N(0, sigma~^2 I),

    F_alpha(q) = E_{N_0} [ (1 + q X)^alpha (1 + q Y)^(1 - alpha) ],

evaluated by :func:`F` by two-dimensional quadrature for a given pair of shifts, by
:func:`F_minus_1_collinear` (adaptive one-dimensional quadrature) when the shifts are
collinear, and by :func:`F_minus_1_float64` (vectorised float64 Gauss-Hermite, for scans
over many shift pairs); the three share one integrand.

The formula (44) lives in :func:`M_terms`: the numeric :func:`M`, the sympy expression
:func:`M_expression`, the naive fixed-precision sum :func:`M_fixed_dps` and the float64 sum
:func:`M_float64` (the two precision demonstrations) are all built from it.

The sampled Gaussian mechanism in its two orders (add/remove adjacency, noise multiplier
sigma, sampling rate q): the mixture-first order D_alpha((1-q) N_0 + q N_1 || N_0) is
:func:`dpsym.rdp.poisson_gaussian_rdp` (MTZ19); the mixture-second order
D_alpha(N_0 || (1-q) N_0 + q N_1) is :func:`renyi_gaussian_vs_mixture` (quadrature).
:func:`sgm_alpha_star` is the order range alpha <= alpha*(q, sigma) on which Mironov,
Talwar & Zhang 2019, Thm 11 bound both by 2 alpha q^2 / sigma^2.  :func:`sgm_hockey_stick`
and :func:`sgm_epsilon` give the exact privacy profile delta(eps) of one step in either
order (closed form in Phi).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from math import comb

import mpmath
import numpy as np
import sympy as sp
from mpmath import mp, mpf

from dpsym.errors import require
from dpsym.numerics import (
    DEFAULT_DPS,
    GUARD_DPS,
    Number,
    find_root,
    precision,
    round_down,
    to_mpf,
)
from dpsym.rdp.subsampled_gaussian import log_a_frac, log_a_int

__all__ = [
    "B_abs_moment",
    "B_abs_moment_float64",
    "B_tilde",
    "F",
    "F_minus_1",
    "F_minus_1_collinear",
    "F_minus_1_float64",
    "H",
    "H_minus_1",
    "H_minus_1_by_definition",
    "M",
    "M_expression",
    "M_fixed_dps",
    "M_float64",
    "M_terms",
    "b_tilde_from",
    "gaussian_ratio_minus_1",
    "log_F_collinear_float64",
    "log_H",
    "moment_M",
    "renyi_gaussian_vs_mixture",
    "sgm_alpha_star",
    "sgm_alpha_star_conditions",
    "sgm_epsilon",
    "sgm_hockey_stick",
    "sigma_symbol",
]

REF = "Birrell et al. 2024"


# --- coercion ---------------------------------------------------------------------------


def _alpha(alpha: Number, ref: str) -> mpf:
    a = to_mpf(alpha, "alpha", ref)
    require(a > 1, "alpha", alpha, "alpha > 1", ref)
    return a


def _sigma(sigma: Number, ref: str) -> mpf:
    s = to_mpf(sigma, "sigma", ref)
    require(s > 0, "sigma", sigma, "sigma > 0", ref)
    return s


def _q(q: Number, ref: str) -> mpf:
    v = to_mpf(q, "q", ref)
    require(0 <= v < 1, "q", q, "0 <= q < 1", ref)
    return v


def _k(k: object, ref: str) -> int:
    require(isinstance(k, int) and not isinstance(k, bool) and k >= 0, "k", k,
            "an integer k >= 0", ref)
    return int(k)


# --- H_{alpha,sigma}(q), eq. (8) --------------------------------------------------------


def _log_h_pair(a: mpf, s: mpf, qv: mpf) -> tuple[mpf, mpf]:
    """(log H, log(H - 1)) at the current precision; q = 0 gives (0, -inf)."""
    if qv == 0:
        return mpf(0), mpmath.ninf
    if a == mpmath.floor(a):
        return log_a_int(qv, s / 2, int(a))
    return log_a_frac(qv, s / 2, a)


def log_H(alpha: Number, sigma: Number, q: Number, *, dps: int = DEFAULT_DPS) -> mpf:
    """log H_{alpha,sigma}(q) of eq. (8) (Birrell et al. 2024, Thm 3.1).

    ``log_H / (alpha - 1)`` is the exact one-step FSwoR add/remove bound (7).  Integer
    alpha: closed-form binomial sum; real alpha: quadrature (0.4-1.5 s at 50 digits).
    """
    ref = REF + ", eq. (8)"
    with precision(dps + GUARD_DPS):
        out = _log_h_pair(_alpha(alpha, ref), _sigma(sigma, ref), _q(q, ref))[0]
    with precision(dps):
        return +out


def H(alpha: Number, sigma: Number, q: Number, *, dps: int = DEFAULT_DPS) -> mpf:
    """H_{alpha,sigma}(q) = E[(1 - q + q exp(2Z/sigma - 2/sigma^2))^alpha], eq. (8).

    Integer alpha: H = sum_k C(alpha,k) (1-q)^(alpha-k) q^k exp(2k(k-1)/sigma^2), summed as
    1 + (non-negative terms); real alpha > 1: quadrature.  Both reuse Mironov et al.'s
    A_alpha at noise sigma/2 (:mod:`dpsym.rdp.subsampled_gaussian`).

    >>> from dpsym.numerics import nstr
    >>> nstr(H(2, 6, "0.0024", dps=30), 20)
    '1.0000006769098359531'
    """
    ref = REF + ", eq. (8)"
    with precision(dps + GUARD_DPS):
        out = mpmath.exp(_log_h_pair(_alpha(alpha, ref), _sigma(sigma, ref), _q(q, ref))[0])
    with precision(dps):
        return +out


def H_minus_1(alpha: Number, sigma: Number, q: Number, *, dps: int = DEFAULT_DPS) -> mpf:
    """H_{alpha,sigma}(q) - 1 with full relative precision (it is ~q^2, eq. (41))."""
    ref = REF + ", eq. (8)"
    with precision(dps + GUARD_DPS):
        out = mpmath.exp(_log_h_pair(_alpha(alpha, ref), _sigma(sigma, ref), _q(q, ref))[1])
    with precision(dps):
        return +out


# --- moments M_{sigma,k} (44) and B~_{sigma,j} (47) ----------------------------------------


def M_terms(k: int) -> list[tuple[int, int]]:
    """The terms of (44): ``[(c_l, e_l)]`` with M_{sigma,k} = sum_l c_l exp(e_l / sigma^2).

    c_l = (-1)^(k-l) C(k, l) and e_l = 2 l (l - 1), l = 0..k (E[L^l] = e^{2l(l-1)/sigma^2}).
    The only place (44) is written; every evaluation of M below is built from it.

    >>> M_terms(2)
    [(1, 0), (-2, 0), (1, 4)]
    """
    kk = _k(k, REF + ", eq. (44)")
    return [((-1) ** (kk - ell) * comb(kk, ell), 2 * ell * (ell - 1)) for ell in range(kk + 1)]


#: The symbol sigma (positive) of the sympy expressions of this module.
sigma_symbol = sp.Symbol("sigma", positive=True)


@functools.cache
def M_expression(k: int) -> sp.Expr:
    """(44) as a sympy expression in :data:`sigma_symbol` (the formula dpsym evaluates).

    >>> M_expression(3)
    exp(12/sigma**2) - 3*exp(4/sigma**2) + 2
    """
    return sp.Add(*(c * sp.exp(sp.Integer(e) / sigma_symbol**2) for c, e in M_terms(k)))


@functools.cache
def _m_float64_fn(k: int) -> Callable[[float], float]:
    return sp.lambdify(sigma_symbol, M_expression(k), "math")


def M_float64(sigma: float, k: int) -> float:
    """(44) summed naively in float64 (lambdified from :func:`M_expression`).

    Not a value to use: it exists to show what double precision does to the alternating
    sum, e.g. a negative "even moment" at sigma = 20, k = 36 (the true value is 2.03e-11).

    >>> M_float64(20.0, 36) < 0
    True
    """
    return float(_m_float64_fn(_k(k, REF + ", eq. (44)"))(float(sigma)))


def M_fixed_dps(sigma: Number, k: int, dps: int) -> mpf:
    """(44) summed at exactly ``dps`` digits, without the extra digits :func:`M` adds.

    A second precision demonstration: at sigma = 200, k = 20 and 15 digits the sum is
    negative, while M_{200,20} = 7.19e-32.
    """
    ref = REF + ", eq. (44)"
    terms = M_terms(k)
    with mp.workdps(dps):
        s = _sigma(sigma, ref)
        return mpmath.fsum(c * mpmath.exp(e / (s * s)) for c, e in terms)


_EXP_TABLE: dict[mpf, tuple[int, list[mpf]]] = {}


def _exp_table(s: mpf, n: int, dps: int) -> list[mpf]:
    """[exp(e_l / s^2) for l = 0..n] (the exponents e_l of :func:`M_terms`), cached per s.

    One table per sigma serves every k: it is rebuilt only when a longer or more precise
    one is needed, with headroom, since (44) for larger k needs both.
    """
    have_dps, table = _EXP_TABLE.get(s, (0, []))
    if have_dps < dps or len(table) <= n:
        new_dps = max(dps, have_dps) + (64 if have_dps < dps else 0)
        new_n = max(n, len(table) - 1) + 16
        with mp.workdps(new_dps):
            inv = 1 / (mpf(s) * s)
            table = [mpmath.exp(e * inv) for _, e in M_terms(new_n)]
        _EXP_TABLE[s] = (new_dps, table)
    return table


def moment_M(s: mpf, k: int) -> mpf:
    """M_{sigma,k} at the current precision, with as many extra digits as (44) cancels.

    The terms ~ 2^k e^{2k(k-1)/s^2} and M_k >~ (2/s)^k (k-1)!! (a Gaussian moment) give an a
    priori loss of about k (log10 s + 0.4) digits; the sum is done with that many extra
    digits (rounded up to a multiple of 32, so that the exponentials are shared between k's)
    and redone with more if the measured loss, log10(max |term| / sum), is not covered.
    """
    if k == 0:
        return mpf(1)
    if k == 1:
        return mpf(0)
    base = mp.dps
    coefficients = [c for c, _ in M_terms(k)]
    extra = int(k * max(0.0, float(mpmath.log10(s))) + 0.4 * k) + GUARD_DPS
    for _ in range(10):
        work = -(-(base + extra) // 32) * 32
        table = _exp_table(s, k, work)
        with mp.workdps(work):
            terms = [c * table[ell] for ell, c in enumerate(coefficients)]
            total = mpmath.fsum(terms)
            big = max(abs(t) for t in terms)
            if total > 0:
                lost = int(mpmath.ceil(mpmath.log10(big / total)))
                if lost + GUARD_DPS <= work - base:
                    break
            else:
                lost = extra + base
            extra = lost + 2 * GUARD_DPS
    else:  # pragma: no cover - the loss estimate converges in two passes
        raise ArithmeticError(f"M_(sigma,k) did not converge (sigma={s}, k={k})")
    return +total


def M(sigma: Number, k: int, *, dps: int = DEFAULT_DPS) -> mpf:
    """M_{sigma,k} = E_{N(0,sigma^2/4)}[(L - 1)^k], eq. (44) (Birrell et al. 2024, App. B).

    M_0 = 1, M_1 = 0, M_2 = e^{4/sigma^2} - 1, M_3 = (e^{4/sigma^2}-1)^2 (e^{4/sigma^2}+2).
    Correct to ``dps`` digits for every sigma and k: the working precision rises with the
    cancellation of the alternating sum.

    >>> from dpsym.numerics import nstr
    >>> nstr(M(200, 20, dps=30), 15)
    '7.19113332644382e-32'
    """
    ref = REF + ", eq. (44)"
    kk = _k(k, ref)
    with precision(dps + GUARD_DPS):
        out = moment_M(_sigma(sigma, ref), kk)
    with precision(dps):
        return +out


def b_tilde_from(m: Callable[[int], object], j: int,
                 sqrt: Callable[[object], object] = mpmath.sqrt) -> object:
    """B~_{sigma,j} of (47) from a function ``m(k)`` = M_{sigma,k}: m(j) for even j,
    sqrt(m(j-1) m(j+1)) for odd j.  The one place (47) is written (the accountants pass
    cached M's, the float64 demonstration its naive sums)."""
    if j % 2 == 0:
        return m(j)
    return sqrt(m(j - 1) * m(j + 1))


def b_tilde_mpf(s: mpf, j: int, cache: dict[int, mpf] | None = None) -> mpf:
    """B~_{sigma,j} at the current precision (see :func:`B_tilde`); ``cache`` maps k -> M_k."""

    def m(k: int) -> mpf:
        if cache is None:
            return moment_M(s, k)
        if k not in cache:
            cache[k] = moment_M(s, k)
        return cache[k]

    return b_tilde_from(m, j)


def B_tilde(sigma: Number, j: int, *, dps: int = DEFAULT_DPS) -> mpf:
    """B~_{sigma,j} of eq. (47): M_{sigma,j} for even j, sqrt(M_{sigma,j-1} M_{sigma,j+1}) odd.

    It bounds B_{sigma,j} = E|L - 1|^j (45) (equality for even j, Cauchy-Schwarz for odd j).
    Not rounded: the bounds that use it round their final value up.
    """
    ref = REF + ", eq. (47)"
    jj = _k(j, ref)
    with precision(dps + GUARD_DPS):
        out = b_tilde_mpf(_sigma(sigma, ref), jj)
    with precision(dps):
        return +out


def gaussian_ratio_minus_1(d: object, z: object, lib: object = mpmath) -> object:
    """N(d, 1)/N(0, 1) - 1 at z, i.e. e^{d z - d^2/2} - 1 (``lib`` = mpmath or numpy).

    The likelihood ratio of two unit-variance Gaussians d standard deviations apart; the
    L - 1 of (8), (42) and (45) is d = 2/sigma.
    """
    return lib.expm1(d * z - d * d / 2)


def B_abs_moment(sigma: Number, j: Number, *, dps: int = 30) -> mpf:
    """B_{sigma,j} = E|L - 1|^j of eq. (45) by quadrature (a cross-check of (47)).

    It is also D_chi^j(N(1, sigma^2/4) || N(0, sigma^2/4)) (70), the chi^j divergence of two
    Gaussians 2/sigma standard deviations apart.
    """
    ref = REF + ", eq. (45)"
    with precision(dps + GUARD_DPS):
        s = _sigma(sigma, ref)
        jv = to_mpf(j, "j", ref)
        require(jv >= 0, "j", j, "j >= 0", ref)
        d = 2 / s

        def f(z: mpf) -> mpf:
            return abs(gaussian_ratio_minus_1(d, z)) ** jv * mpmath.npdf(z)

        # L = 1 at Z = 1/sigma: split there, where |L - 1|^j has its kink.
        z1 = 1 / s
        out = mpmath.quad(f, [mpmath.ninf, z1 - 8, z1, z1 + 8, z1 + 4 * jv / s + 8, mpmath.inf])
    with precision(dps):
        return +out


def B_abs_moment_float64(sigma: float, j: float) -> float:
    """:func:`B_abs_moment` in float64 (scipy quadrature of the same integrand), for scans."""
    import scipy.integrate as si

    s, jv = float(sigma), float(j)
    d, z1 = 2 / s, 1 / s

    def f(z: float) -> float:
        u = d * z - d * d / 2
        # log|L - 1| without overflow (|e^u - 1| = e^u (1 - e^-u) for large u)
        lx = u + np.log1p(-np.exp(-u)) if u > 30 else np.log(abs(gaussian_ratio_minus_1(
            d, z, np)) or 1e-320)
        return float(np.exp(jv * lx - z * z / 2) / np.sqrt(2 * np.pi))

    top = z1 + d * jv + 40  # the integrand peaks near z = d j
    pts = [-40.0, z1 - 8, z1, z1 + 8, z1 + d * jv, top]
    pts = sorted(set(pts))
    return float(sum(si.quad(f, lo, hi, epsabs=0, epsrel=1e-11, limit=200)[0]
                     for lo, hi in itertools.pairwise(pts)))


# --- replace-one F_alpha(q), eq. (61) --------------------------------------------------


def _f_integrand(a: object, s: object, qv: object, r1: object, r2: object, phi: object,
                 minus_one: bool | str, lib: object = mpmath):
    """The integrand of (61) in z = theta / sigma~, z ~ N(0, I_2), for ``lib`` = mpmath
    (scalars) or numpy (arrays, float64): the one place (61) is written.  ``minus_one``:
    False gives the integrand, True the integrand minus its mean-zero linear term
    (for F - 1), ``"log"`` its logarithm."""
    # units where r_t = 1 and sigma~ = sigma/2 (eq. (37))
    sd = s / 2
    ax, bx, by = r1 / sd, r2 * lib.cos(phi) / sd, r2 * lib.sin(phi) / sd
    ca, cb = (ax * ax) / 2, (bx * bx + by * by) / 2

    def f(z1: object, z2: object) -> object:
        u, v = ax * z1 - ca, bx * z1 + by * z2 - cb
        if minus_one == "log":
            # log(1 - q + q e^u) without overflow; mpmath's exponent range needs no care
            lq = lib.log(qv) if lib is mpmath else np.log(qv)
            if lib is mpmath:
                return a * mpmath.log1p(qv * mpmath.expm1(u)) + (1 - a) * mpmath.log1p(
                    qv * mpmath.expm1(v))
            l1q = np.log1p(-qv)
            return a * np.logaddexp(l1q, lq + u) + (1 - a) * np.logaddexp(l1q, lq + v)
        x, y = lib.expm1(u), lib.expm1(v)
        lg = a * lib.log1p(qv * x) + (1 - a) * lib.log1p(qv * y)
        # the subtracted linear term has mean zero: F - 1 keeps its relative precision
        return lib.expm1(lg) - qv * (a * x + (1 - a) * y) if minus_one else lib.exp(lg)

    return f


_GH_CACHE: dict[tuple[int, int], tuple[list[mpf], list[mpf]]] = {}


def _hermite_rule(n: int) -> tuple[list[mpf], list[mpf]]:
    """Gauss-Hermite nodes x_i and weights w_i / sqrt(pi) at the current precision (cached)."""
    key = (n, mp.prec)
    if key not in _GH_CACHE:
        xs, ws = mpmath.gauss_quadrature(n, "hermite")
        _GH_CACHE[key] = (list(xs), [w / mpmath.sqrt(mpmath.pi) for w in ws])
    return _GH_CACHE[key]


def _mixture_args(alpha: Number, sigma: Number, q: Number, rho1: Number, rho2: Number,
                  ref: str) -> tuple[mpf, mpf, mpf, mpf, mpf]:
    """Validated alpha, sigma, q and the shift ratios rho1, rho2 >= 0 of eq. (61)."""
    a, s, qv = _alpha(alpha, ref), _sigma(sigma, ref), _q(q, ref)
    r1, r2 = to_mpf(rho1, "rho1", ref), to_mpf(rho2, "rho2", ref)
    require(r1 >= 0, "rho1", rho1, "|Delta mu| / r_t >= 0", ref)
    require(r2 >= 0, "rho2", rho2, "|Delta mu'| / r_t >= 0", ref)
    return a, s, qv, r1, r2


def _f_quad(alpha: Number, sigma: Number, q: Number, rho1: Number, rho2: Number,
            angle: Number | None, minus_one: bool, dps: int, nodes: int) -> mpf:
    ref = REF + ", eq. (61)"
    with precision(dps + GUARD_DPS):
        a, s, qv, r1, r2 = _mixture_args(alpha, sigma, q, rho1, rho2, ref)
        require(isinstance(nodes, int) and nodes >= 8, "nodes", nodes, "an integer >= 8", ref)
        phi = mpmath.pi / 3 if angle is None else to_mpf(angle, "angle", ref)
        if qv == 0:
            out = mpf(0) if minus_one else mpf(1)
        else:
            f = _f_integrand(a, s, qv, r1, r2, phi, minus_one)
            xs, ws = _hermite_rule(nodes)
            root2 = mpmath.sqrt(2)
            zs = [root2 * x for x in xs]
            out = mpmath.fsum(w1 * w2 * f(z1, z2)
                              for z1, w1 in zip(zs, ws, strict=True)
                              for z2, w2 in zip(zs, ws, strict=True))
    with precision(dps):
        return +out


def F(alpha: Number, sigma: Number, q: Number, *, rho1: Number = 1, rho2: Number = 1,
      angle: Number | None = None, dps: int = 20, nodes: int = 48) -> mpf:
    """F_alpha(q) = E_{N_0}[(1 + qX)^alpha (1 + qY)^(1-alpha)] of eq. (61), by 2-D quadrature.

    The shifts are |Delta mu| = rho1 r_t, |Delta mu'| = rho2 r_t at angle ``angle``
    (default pi/3, the maximiser of (67) under the constraints (60)); sigma~/r_t = sigma/2.
    ``(1/(alpha-1)) log F`` is the Renyi divergence of the two mixtures in (59), which
    Thm 3.4 bounds for every admissible pair.  Tensor Gauss-Hermite quadrature with
    ``nodes`` points per axis (the integrand is smooth times the Gaussian weight; compare
    two ``nodes`` values to see the digits, as the ledger does).
    """
    return _f_quad(alpha, sigma, q, rho1, rho2, angle, False, dps, nodes)


def F_minus_1(alpha: Number, sigma: Number, q: Number, *, rho1: Number = 1, rho2: Number = 1,
              angle: Number | None = None, dps: int = 20, nodes: int = 48) -> mpf:
    """F_alpha(q) - 1 with full relative precision (the mean-zero linear term is removed)."""
    return _f_quad(alpha, sigma, q, rho1, rho2, angle, True, dps, nodes)


def F_minus_1_collinear(alpha: Number, sigma: Number, q: Number, *, rho1: Number = "0.5",
                        rho2: Number = "0.5", antiparallel: bool = True,
                        dps: int = 30) -> mpf:
    """F_alpha(q) - 1 of eq. (61) for collinear shifts, by adaptive 1-D quadrature.

    |Delta mu| = rho1 r_t and |Delta mu'| = rho2 r_t, anti-parallel (angle pi, the default:
    the maximiser of (67) under the Poisson constraints (93) with rho = 1/2) or parallel.
    The integrand of :func:`F` at z2 = 0; the interval is split at z = 0 and around the
    mode of the large-X regime, z ~ alpha |Delta mu| / sigma~, where (1 + qX)^alpha peaks
    (Gauss-Hermite misses it at large alpha / small sigma).  Compare two ``dps`` to see
    the digits.
    """
    ref = REF + ", eq. (61)"
    with precision(dps + GUARD_DPS):
        a, s, qv, r1, r2 = _mixture_args(alpha, sigma, q, rho1, rho2, ref)
        if qv == 0:
            return mpf(0)
        phi = mpmath.pi if antiparallel else mpf(0)
        f2 = _f_integrand(a, s, qv, r1, r2, phi, True)
        peak = a * max(r1, r2) * 2 / s
        pts = sorted({mpf(-12), mpf(0), mpf(12), *((peak - 12, peak, peak + 12) if peak > 12
                                                    else ())})
        out = mpmath.quad(lambda z: f2(z, 0) * mpmath.npdf(z), [mpmath.ninf, *pts, mpmath.inf])
    with precision(dps):
        return +out


@functools.cache
def _hermgauss(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.polynomial.hermite.hermgauss(n)


def log_F_collinear_float64(alpha: float, sigma: float, q: float, rho1: float = 0.5,
                            rho2: float = 0.5, antiparallel: bool = True) -> float:
    """log F_alpha(q) of eq. (61) for collinear shifts in float64 (scipy quadrature).

    For searches: the integrand of :func:`F` at z2 = 0, integrated around its peak in log
    space (so alpha = 256 at sigma = 1, where F ~ 1e13931, does not overflow); below
    log F = 1e-3, Gauss-Hermite quadrature of the integrand minus its linear term gives
    F - 1 to ~1e-12 relative.  Confirm a search's findings with
    :func:`F_minus_1_collinear`.
    """
    import scipy.integrate as si

    phi = np.pi if antiparallel else 0.0
    args = (float(alpha), float(sigma), float(q), float(rho1), float(rho2), phi)
    # small F - 1: the integrand minus its linear term is smooth near z = 0, where
    # Gauss-Hermite (200 nodes) integrates it to ~1e-13 relative
    x, w = _hermgauss(200)
    f1 = _f_integrand(*args, True, np)
    with np.errstate(over="ignore", invalid="ignore"):
        small = np.log1p(np.dot(w, f1(np.sqrt(2.0) * x, 0.0)) / np.sqrt(np.pi))
    if np.isfinite(small) and small <= 1e-3:
        return float(small)
    lg = _f_integrand(*args, "log", np)
    peak = float(alpha) * max(float(rho1), float(rho2)) * 2 / float(sigma)
    grid = np.linspace(-12.0, max(12.0, peak + 12.0), 4001)
    g = lg(grid, 0.0) - grid**2 / 2
    top = float(np.max(g))
    zs = float(grid[int(np.argmax(g))])
    bounds = [-np.inf, *sorted({-12.0, 0.0, 12.0, zs - 6, zs, zs + 6}), np.inf]
    total = sum(si.quad(lambda z: np.exp(lg(z, 0.0) - z * z / 2 - top), lo, hi, epsabs=0,
                        epsrel=1e-12, limit=200)[0]
                for lo, hi in itertools.pairwise(bounds))
    return float(top + np.log(total) - 0.5 * np.log(2 * np.pi))


def F_minus_1_float64(alpha: float, sigma: float, q: float, rho1: object, rho2: object,
                      angle: object, nodes: int = 64) -> np.ndarray:
    """F_alpha(q) - 1 of eq. (61) in float64 for arrays of shift pairs (rho1, rho2, angle).

    Tensor Gauss-Hermite quadrature (``nodes`` per axis) of the integrand of :func:`F`,
    vectorised over the broadcast shape of ``rho1, rho2, angle``.  For scans over many
    configurations (relative error ~1e-12 where the integrand is smooth on the nodes'
    range); confirm what a scan finds with :func:`F_minus_1` or :func:`F_minus_1_collinear`.
    """
    x, w = _hermgauss(nodes)
    z = np.sqrt(2.0) * x
    w = w / np.sqrt(np.pi)
    r1, r2, ph = np.broadcast_arrays(np.asarray(rho1, float), np.asarray(rho2, float),
                                     np.asarray(angle, float))
    f = _f_integrand(float(alpha), float(sigma), float(q), r1[..., None, None],
                     r2[..., None, None], ph[..., None, None], True, np)
    vals = f(z[:, None], z[None, :])
    return np.einsum("...ij,i,j->...", vals, w, w)


def H_minus_1_by_definition(alpha: Number, sigma: Number, q: Number, *, dps: int = 30) -> mpf:
    """H_{alpha,sigma}(q) - 1 straight from the integral (8), by quadrature over Z ~ N(0,1).

    An evaluation independent of :mod:`dpsym.rdp.subsampled_gaussian`, for cross-checks:
    E[(1 + q(L-1))^alpha - 1 - alpha q (L-1)] (the subtracted term has mean zero), with
    log10(1/q) extra digits for the cancellation, split at Z = 0, 1/sigma and the mode of
    the large-L regime, Z ~ alpha * 2/sigma.
    """
    ref = REF + ", eq. (8)"
    with precision(dps + GUARD_DPS):
        a, s, qv = _alpha(alpha, ref), _sigma(sigma, ref), _q(q, ref)
        if qv == 0:
            return mpf(0)
        extra = int(-mpmath.log10(qv)) + GUARD_DPS

    with precision(dps + GUARD_DPS + extra):
        a, s, qv = _alpha(alpha, ref), _sigma(sigma, ref), _q(q, ref)

        def f(z: mpf) -> mpf:
            x = gaussian_ratio_minus_1(2 / s, z)
            return (mpmath.expm1(a * mpmath.log1p(qv * x)) - a * qv * x) * mpmath.npdf(z)

        pts = sorted({mpf(0), 1 / s, 2 * a / s, 2 * a / s + 2 * s * mpmath.log(1 / qv) / 4})
        val = mpmath.quad(f, [mpmath.ninf, -10, *pts, pts[-1] + 12, mpmath.inf])
    with precision(dps):
        return +val


# --- the sampled Gaussian mechanism: the mixture-second order and alpha*(q, sigma) ------------

REF_SGM = "Mironov, Talwar & Zhang 2019"


def renyi_gaussian_vs_mixture(alpha: Number, q: Number, sigma: Number, *,
                              dps: int = DEFAULT_DPS) -> mpf:
    """D_alpha( N(0, sigma^2) || (1 - q) N(0, sigma^2) + q N(1, sigma^2) ), real alpha > 1.

    The mixture-second order of the sampled Gaussian mechanism (the order Lemma A.9's
    convexity in the second argument controls).  With L(z) = exp((2z - 1)/(2 sigma^2)) the
    likelihood ratio N(1, s^2)/N(0, s^2) and w = 1 + q (L - 1),

        exp((alpha - 1) D) = E_{N(0, s^2)} [ w^(1 - alpha) ],

    and since E[w - 1] = 0 the integrand w^(1-alpha) - 1 - (1-alpha)(w-1) >= 0 (convexity)
    is integrated instead, with log10(1/q) extra digits for its cancellation at small q,
    split at z = 0, 1/2 and the crossing z0 = 1/2 + s^2 log((1-q)/q) where q L = 1 - q.
    The quadrature's error estimate must be below 10^-(dps+2) of the value, else it
    raises.  Not rounded: a divergence of a specific pair, not a bound.  The other order
    is :func:`dpsym.rdp.poisson_gaussian_rdp` (it dominates, MTZ19 Thm 5).

    >>> from dpsym.numerics import nstr
    >>> nstr(renyi_gaussian_vs_mixture(10, "0.01", "0.5", dps=30), 15)
    '0.00360096058852337'
    """
    ref = REF_SGM + ", Sec. 3 (mixture-second order)"
    with precision(dps + GUARD_DPS):
        a, s, qv = _alpha(alpha, ref), _sigma(sigma, ref), to_mpf(q, "q", ref)
        require(0 <= qv <= 1, "q", q, "0 <= q <= 1 (a sampling probability)", ref)
        if qv == 0:
            return mpf(0)
        extra = int(max(0, -mpmath.log10(qv))) + GUARD_DPS
        s2 = s * s
        z0 = mpf(1) / 2 + s2 * (mpmath.log1p(-qv) - mpmath.log(qv)) if qv < 1 else mpf(0)
        pts = sorted({mpf(0), mpf(1) / 2, z0, z0 - 2 * s, z0 + 2 * s, -8 * s, 1 + 8 * s})

        def integral(scale: mpf) -> tuple[mpf, mpf]:
            def f(z: mpf) -> mpf:
                with mp.workdps(mp.dps + extra):
                    x = qv * mpmath.expm1((2 * z - 1) / (2 * s2))
                    g = mpmath.expm1((1 - a) * mpmath.log1p(x)) - (1 - a) * x
                    out = mpmath.npdf(z, 0, s) * g / scale
                return +out

            return mpmath.quad(f, [mpmath.ninf, *pts, mpmath.inf], error=True, maxdegree=10)

        # mpmath.quad's error estimate is absolute: a 15-digit pass gives the scale that
        # makes the integral O(1), so the accepted estimate is a relative one.
        with mp.workdps(15):
            rough, _ = integral(mpf(1))
        require(rough > 0, "q", q, "a non-degenerate mixture (integral > 0)", ref)
        val, err = integral(rough)
        require(val > 0 and err <= mpf(10) ** (-(dps + 2)) * val, "dps", dps,
                f"quadrature converged to {dps} digits (error estimate {mpmath.nstr(err, 3)})",
                ref)
        out = mpmath.log1p(val * rough) / (a - 1)
    with precision(dps):
        return +out


def sgm_alpha_star_conditions(alpha: Number, q: Number, sigma: Number, *,
                              dps: int = DEFAULT_DPS) -> tuple[mpf, mpf]:
    """Slacks (g1, g2) of the two order conditions of MTZ19, Thm 11 (as restated, e.g., in
    Liang et al. 2025, Lemma A.12, eq. (36)); alpha is admissible iff both are >= 0:

        g1 = K sigma^2 / 2 - 2 log sigma - alpha,
        g2 = (K^2 sigma^2 / 2 - log 5 - 2 log sigma) / (K + log(q alpha) + 1/(2 sigma^2)) - alpha,

    with K = log(1 + 1/(q (alpha - 1))).  The denominator of g2 equals
    log(q alpha + alpha/(alpha - 1)) + 1/(2 sigma^2) > 0, so g2 is always defined.
    """
    ref = REF_SGM + ", Thm 11"
    with precision(dps + GUARD_DPS):
        a = _alpha(alpha, ref)
        qv, s = to_mpf(q, "q", ref), _sigma(sigma, ref)
        require(0 < qv <= 1, "q", q, "0 < q <= 1", ref)
        s2 = s * s
        K = mpmath.log1p(1 / (qv * (a - 1)))
        g1 = K * s2 / 2 - 2 * mpmath.log(s) - a
        g2 = ((K * K * s2 / 2 - mpmath.log(5) - 2 * mpmath.log(s))
              / (K + mpmath.log(qv * a) + 1 / (2 * s2)) - a)
    with precision(dps):
        return +g1, +g2


def sgm_alpha_star(q: Number, sigma: Number, *, dps: int = DEFAULT_DPS,
                   hypothesis_q: bool = True) -> mpf:
    """alpha*(q, sigma): every alpha in (1, alpha*] satisfies both conditions of MTZ19,
    Thm 11, so the sampled Gaussian mechanism is (alpha, 2 alpha q^2/sigma^2)-RDP there.

    Hypotheses q <= 1/5 and sigma >= 4 (the theorem's); ``hypothesis_q=False`` drops the
    first (any 0 < q < 1), to examine the conditions where a paper applies the theorem
    outside its range (the result is then no longer a certified order).  Both slacks are positive as
    alpha -> 1+ (K -> infinity); alpha* is the *first* alpha at which one of them reaches 0
    (papers say "the largest alpha satisfying both"; the first crossing is the safe reading
    when the feasible set is not an interval).  Found by a geometric scan in alpha - 1 and
    root finding; rounded *down* (fewer orders certified, never more).

    >>> from dpsym.numerics import nstr
    >>> nstr(sgm_alpha_star("0.01", 5, dps=30), 8)
    '19.816629'
    """
    ref = REF_SGM + ", Thm 11"
    with precision(dps + GUARD_DPS):
        qv = to_mpf(q, "q", ref)
        if hypothesis_q:
            require(0 < qv <= mpf(1) / 5, "q", q, "0 < q <= 1/5", ref)
        else:
            require(0 < qv < 1, "q", q, "0 < q < 1", ref)
        s = to_mpf(sigma, "sigma", ref)
        require(s >= 4, "sigma", sigma, "sigma >= 4", ref)

        def slack(x: mpf) -> mpf:
            g1, g2 = sgm_alpha_star_conditions(1 + x, qv, s, dps=mp.dps)
            return min(g1, g2)

        lo = mpf(10) ** -8
        require(slack(lo) > 0, "sigma", sigma, "some alpha > 1 admissible", ref)
        hi = lo
        while slack(hi) > 0:
            lo, hi = hi, hi * mpf("1.25")
            require(hi < mpf(10) ** 12, "sigma", sigma, "alpha* < 1e12", ref)
        x = find_root(slack, lo, hi, lower=lo, upper=hi, side="lower")
        out = 1 + x
    return round_down(out, dps)


def _sgm_orders(order: str, ref: str) -> None:
    require(order in ("first", "second"), "order", order, "'first' or 'second' (mixture)", ref)


def _hockey_stick(e: mpf, qv: mpf, m: mpf, order: str) -> mpf:
    """E_{e^eps}(P || Q) at the current precision; m = 1/sigma is the normalised shift."""
    ee = mpmath.exp(e)
    if order == "first":  # P = (1-q) N(0,1) + q N(m,1), Q = N(0,1): region x > x*
        x = (mpmath.log((ee - 1 + qv) / qv) + m * m / 2) / m
        return qv * mpmath.ncdf(m - x) - (ee - 1 + qv) * mpmath.ncdf(-x)
    # P = N(0,1), Q = mixture: region x < x*, empty when e^-eps <= 1 - q
    r = (mpmath.exp(-e) - 1 + qv) / qv
    if r <= 0:
        return mpf(0)
    x = (mpmath.log(r) + m * m / 2) / m
    return (1 - ee * (1 - qv)) * mpmath.ncdf(x) - ee * qv * mpmath.ncdf(x - m)


def sgm_hockey_stick(eps: Number, q: Number, sigma: Number, *, order: str = "first",
                     dps: int = DEFAULT_DPS) -> mpf:
    """delta(eps) = sup_A P(A) - e^eps Q(A) for one sampled Gaussian step, exactly.

    ``order="first"``: P = (1-q) N(0, s^2) + q N(1, s^2), Q = N(0, s^2) (the dominating
    order); ``"second"``: P = N(0, s^2), Q = the mixture.  The likelihood ratio is monotone
    in x, so the optimal set is a half-line and
    ``delta = q Phi(m - x*) - (e^eps - 1 + q) Phi(-x*)`` with
    ``x* = (log((e^eps - 1 + q)/q) + m^2/2)/m``, ``m = 1/sigma`` (first order); similarly for
    the second.  Computed with log10(1/delta)-proportional extra digits against the
    cancellation; unrounded (an exact profile, not a bound).

    >>> from dpsym.numerics import nstr
    >>> nstr(sgm_hockey_stick(1, "0.01", "0.5", dps=30), 12)
    '0.000273637492249'
    """
    ref = REF_SGM + " (privacy profile of one step)"
    _sgm_orders(order, ref)
    with precision(dps + GUARD_DPS):
        e, qv, s = to_mpf(eps, "eps", ref), to_mpf(q, "q", ref), _sigma(sigma, ref)
        require(e >= 0, "eps", eps, "eps >= 0", ref)
        require(0 < qv <= 1, "q", q, "0 < q <= 1", ref)
        rough = _hockey_stick(e, qv, 1 / s, order)
    extra = 0 if rough <= 0 else max(0, int(-mpmath.log10(rough)))
    with precision(dps + GUARD_DPS + extra):
        out = _hockey_stick(to_mpf(eps), to_mpf(q), 1 / to_mpf(sigma), order)
    with precision(dps):
        return +max(out, mpf(0))


def sgm_epsilon(delta: Number, q: Number, sigma: Number, *, order: str = "first",
                dps: int = DEFAULT_DPS) -> mpf:
    """The smallest eps >= 0 with delta(eps) <= delta for one sampled Gaussian step, exactly
    (root of :func:`sgm_hockey_stick`; 0 when delta(0) <= delta).  Unrounded.

    >>> from dpsym.numerics import nstr
    >>> nstr(sgm_epsilon("1e-5", "0.01", "0.5", dps=30), 12)
    '3.02535780548'
    """
    ref = REF_SGM + " (privacy profile of one step)"
    _sgm_orders(order, ref)
    with precision(dps + GUARD_DPS):
        d = to_mpf(delta, "delta", ref)
        require(0 < d < 1, "delta", delta, "0 < delta < 1", ref)
        qv, s = to_mpf(q, "q", ref), _sigma(sigma, ref)

        def f(e: mpf) -> mpf:
            h = sgm_hockey_stick(e, qv, s, order=order, dps=mp.dps)
            return (mpmath.log(h) if h > 0 else -mpf(10) ** 6) - mpmath.log(d)

        if f(mpf(0)) <= 0:
            return mpf(0)
        out = find_root(f, mpf(0), mpf(1), lower=mpf(0))
    with precision(dps):
        return +out
