"""Renyi divergences of Gaussian mixtures behind fixed-size subsampling (Birrell et al. 2024).

One step of DP-SGD with a fixed-size minibatch drawn without replacement (FSwoR) and noise
multiplier sigma reduces, under add/remove adjacency, to (Birrell et al. 2024, Thm 3.1,
eqs. (7)-(8))

    H_{alpha,sigma}(q) = E_{Z ~ N(0,1)} [ (1 - q + q L)^alpha ],
    L = N_{1,sigma^2/4}/N_{0,sigma^2/4} = exp(2 Z/sigma - 2/sigma^2),

the Poisson subsampled-Gaussian moment A_alpha of Mironov, Talwar & Zhang 2019 at noise
multiplier sigma/2: fixed-size sampling has twice the sensitivity.  H is therefore
evaluated by the same code as A_alpha (binomial sum of non-negative terms at integer alpha,
the certified binomial series of :mod:`dpsym.rdp.arb_series` at real alpha), never by a
second implementation.

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

evaluated by :func:`F` by two-dimensional quadrature for a given pair of shifts.
"""

from __future__ import annotations

import math

import mpmath
from mpmath import mp, mpf

from dpsym.errors import require
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, to_mpf
from dpsym.rdp.arb_series import poisson_log_moment
from dpsym.rdp.subsampled_gaussian import log_a_int

__all__ = [
    "B_tilde",
    "F",
    "F_minus_1",
    "H",
    "H_minus_1",
    "H_minus_1_by_definition",
    "M",
    "log_H",
    "moment_M",
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
    log_a, log_am1 = poisson_log_moment(qv, s / 2, a, mp.dps)
    return +log_a, +log_am1


def log_H(alpha: Number, sigma: Number, q: Number, *, dps: int = DEFAULT_DPS) -> mpf:
    """log H_{alpha,sigma}(q) of eq. (8) (Birrell et al. 2024, Thm 3.1).

    ``log_H / (alpha - 1)`` is the exact one-step FSwoR add/remove bound (7).  Integer
    alpha: closed-form binomial sum; real alpha: the binomial series (milliseconds).
    """
    ref = REF + ", eq. (8)"
    with precision(dps + GUARD_DPS):
        out = _log_h_pair(_alpha(alpha, ref), _sigma(sigma, ref), _q(q, ref))[0]
    with precision(dps):
        return +out


def H(alpha: Number, sigma: Number, q: Number, *, dps: int = DEFAULT_DPS) -> mpf:
    """H_{alpha,sigma}(q) = E[(1 - q + q exp(2Z/sigma - 2/sigma^2))^alpha], eq. (8).

    Integer alpha: H = sum_k C(alpha,k) (1-q)^(alpha-k) q^k exp(2k(k-1)/sigma^2), summed as
    1 + (non-negative terms); real alpha > 1: the binomial series.  Both reuse Mironov et al.'s
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


_EXP_TABLE: dict[mpf, tuple[int, list[mpf]]] = {}


def _exp_table(s: mpf, n: int, dps: int) -> list[mpf]:
    """[exp(2 l (l-1)/s^2) for l = 0..n] to at least ``dps`` digits (cached per s).

    One table per sigma serves every k: it is rebuilt only when a longer or more precise
    one is needed, with headroom, since (44) for larger k needs both.
    """
    have_dps, table = _EXP_TABLE.get(s, (0, []))
    if have_dps < dps or len(table) <= n:
        new_dps = max(dps, have_dps) + (64 if have_dps < dps else 0)
        new_n = max(n, len(table) - 1) + 16
        with mp.workdps(new_dps):
            c = 2 / (mpf(s) * s)
            table = [mpmath.exp(c * ell * (ell - 1)) for ell in range(new_n + 1)]
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
    extra = int(k * max(0.0, float(mpmath.log10(s))) + 0.4 * k) + GUARD_DPS
    for _ in range(10):
        work = -(-(base + extra) // 32) * 32
        table = _exp_table(s, k, work)
        with mp.workdps(work):
            terms = [(-1) ** (k - ell) * math.comb(k, ell) * table[ell] for ell in range(k + 1)]
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


def b_tilde_mpf(s: mpf, j: int, cache: dict[int, mpf] | None = None) -> mpf:
    """B~_{sigma,j} at the current precision (see :func:`B_tilde`); ``cache`` maps k -> M_k."""

    def m(k: int) -> mpf:
        if cache is None:
            return moment_M(s, k)
        if k not in cache:
            cache[k] = moment_M(s, k)
        return cache[k]

    if j % 2 == 0:
        return m(j)
    return mpmath.sqrt(m(j - 1) * m(j + 1))


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


def B_abs_moment(sigma: Number, j: Number, *, dps: int = 30) -> mpf:
    """B_{sigma,j} = E|L - 1|^j of eq. (45) by quadrature (a cross-check of (47))."""
    ref = REF + ", eq. (45)"
    with precision(dps + GUARD_DPS):
        s = _sigma(sigma, ref)
        jv = to_mpf(j, "j", ref)
        require(jv >= 0, "j", j, "j >= 0", ref)
        # L = 1 at Z = 1/sigma: split there, where |L - 1|^j has its kink.
        def f(z: mpf) -> mpf:
            return abs(mpmath.expm1(2 * z / s - 2 / (s * s))) ** jv * mpmath.npdf(z)

        z1 = 1 / s
        out = mpmath.quad(f, [mpmath.ninf, z1 - 8, z1, z1 + 8, z1 + 4 * jv / s + 8, mpmath.inf])
    with precision(dps):
        return +out


# --- replace-one F_alpha(q), eq. (61) --------------------------------------------------


def _f_integrand(a: mpf, s: mpf, qv: mpf, r1: mpf, r2: mpf, phi: mpf, minus_one: bool):
    # z = theta / sigma~ in units where r_t = 1 and sigma~ = sigma/2 (eq. (37))
    sd = s / 2
    ax, bx, by = r1 / sd, r2 * mpmath.cos(phi) / sd, r2 * mpmath.sin(phi) / sd
    ca, cb = (ax * ax) / 2, (bx * bx + by * by) / 2

    def f(z1: mpf, z2: mpf) -> mpf:
        x = mpmath.expm1(ax * z1 - ca)
        y = mpmath.expm1(bx * z1 + by * z2 - cb)
        lg = a * mpmath.log1p(qv * x) + (1 - a) * mpmath.log1p(qv * y)
        g = mpmath.expm1(lg) - qv * (a * x + (1 - a) * y) if minus_one else mpmath.exp(lg)
        return g

    return f


_GH_CACHE: dict[tuple[int, int], tuple[list[mpf], list[mpf]]] = {}


def _hermite_rule(n: int) -> tuple[list[mpf], list[mpf]]:
    """Gauss-Hermite nodes x_i and weights w_i / sqrt(pi) at the current precision (cached)."""
    key = (n, mp.prec)
    if key not in _GH_CACHE:
        xs, ws = mpmath.gauss_quadrature(n, "hermite")
        _GH_CACHE[key] = (list(xs), [w / mpmath.sqrt(mpmath.pi) for w in ws])
    return _GH_CACHE[key]


def _f_quad(alpha: Number, sigma: Number, q: Number, rho1: Number, rho2: Number,
            angle: Number | None, minus_one: bool, dps: int, nodes: int) -> mpf:
    ref = REF + ", eq. (61)"
    with precision(dps + GUARD_DPS):
        a, s, qv = _alpha(alpha, ref), _sigma(sigma, ref), _q(q, ref)
        r1, r2 = to_mpf(rho1, "rho1", ref), to_mpf(rho2, "rho2", ref)
        require(r1 >= 0, "rho1", rho1, "|Delta mu| / r_t >= 0", ref)
        require(r2 >= 0, "rho2", rho2, "|Delta mu'| / r_t >= 0", ref)
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
            x = mpmath.expm1(2 * z / s - 2 / (s * s))
            return (mpmath.expm1(a * mpmath.log1p(qv * x)) - a * qv * x) * mpmath.npdf(z)

        pts = sorted({mpf(0), 1 / s, 2 * a / s, 2 * a / s + 2 * s * mpmath.log(1 / qv) / 4})
        val = mpmath.quad(f, [mpmath.ninf, -10, *pts, pts[-1] + 12, mpmath.inf])
    with precision(dps):
        return +val
