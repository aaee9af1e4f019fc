"""Certified Renyi moments of the Poisson-subsampled Gaussian by the binomial series.

Notation (Mironov, Talwar & Zhang 2019, "Renyi differential privacy of the sampled
Gaussian mechanism", arXiv:1908.10530, Sec. 3): mu0 = N(0, sigma^2), mu1 = N(1, sigma^2),
l(z) = mu1(z)/mu0(z) = exp((2z - 1)/(2 sigma^2)), and for an order alpha > 1

    A_alpha = E_{z ~ mu0} [ ((1 - q) + q l(z))^alpha ],   eps(alpha) = log(A_alpha)/(alpha - 1)

is the Renyi divergence of one step of DP-SGD with Poisson rate q and noise multiplier
sigma (add/remove adjacency).  Below r = q/(1 - q), E_x = exp(x(x - 1)/(2 sigma^2)) (so that
E_{mu0}[l^x] = E_x), and z0 = 1/2 + sigma^2 log((1 - q)/q) is the point where q l = 1 - q.

**Integer alpha.**  The binomial theorem and sum_k C(alpha,k)(1-q)^(alpha-k) q^k = 1 give

    A_alpha - 1 = (1 - q)^alpha sum_{k=2}^{alpha} C(alpha, k) r^k (E_k - 1),

a sum of non-negative terms, exact up to rounding (MTZ19, Sec. 3.3).

**Real alpha.**  Split the integral at z0.  For z < z0, x(z) = r l(z) lies in (0, 1) and
((1-q) + q l)^alpha = (1-q)^alpha sum_k C(alpha,k) x^k; for z > z0, y(z) = 1/x(z) lies in
(0, 1) and ((1-q) + q l)^alpha = (q l)^alpha sum_k C(alpha,k) y^k.  Since
mu0 l^x = E_x N(x, sigma^2), integrating term by term (MTZ19, Sec. 3.2) gives

    A_alpha = (1 - q)^alpha sum_{k>=0} C(alpha, k) [W(k) + W'(alpha - k)],
    W(k)  = r^k E_k Phi((z0 - k)/sigma),     W'(j) = r^j E_j Phi((j - z0)/sigma).

The table W depends on (q, sigma) only and W' on (q, sigma, alpha mod 1): a grid of orders
shares them (:class:`PoissonSeriesTables`).

*The tail is a Hausdorff moment sequence.*  Let K = floor(alpha) + 1 > alpha.  For k < K
every C(alpha, k) > 0 (the head).  For k >= K, C(alpha, k) = (-1)^(k-K) |C(alpha, k)| and

    |C(alpha, k)| = (|1/Gamma(-alpha)| / Gamma(alpha + 1)) int_0^1 t^(k-alpha-1) (1-t)^alpha dt

(C(alpha,k) = (-1)^k Gamma(k - alpha)/(Gamma(-alpha) k!) and Euler's beta integral), a moment
sequence in m = k - K of a positive measure on [0, 1].  So are
(1-q)^alpha W(k) = int_{z<z0} mu0 x(z)^k dz and (1-q)^alpha W'(alpha-k) =
q^alpha int_{z>z0} mu0 l^alpha y(z)^k dz, since x, y take values in (0, 1).  Products and sums
of moment sequences are moment sequences, hence

    tail = sum_{k>=K} C(alpha,k) [W(k) + W'(alpha-k)] = sum_{m>=0} (-1)^m b_m,
    b_m = int_0^1 s^m dnu(s),  nu >= 0 without an atom at 1,  tail = int_0^1 dnu(s)/(1 + s).

*Remainder bounds.*  (i) Monotone: b_m decreases, so the partial sum over m < N is within
b_N of the tail.  (ii) Cohen, Rodriguez Villegas & Zagier 2000 ("Convergence acceleration
of alternating series", Experimental Math. 9:1, 3-12, Algorithm 1 and Prop. 1): with
P_n(s) = T_n(1 - 2s) (Chebyshev; |P_n| <= 1 on [0, 1]) and d_n = P_n(-1) = T_n(3), write
d_n - P_n(s) = (1 + s) sum_{k<n} rho_k s^k (integer rho_k).  Integrating against nu,

    d_n tail - sum_{k<n} rho_k b_k = int P_n(s)/(1 + s) dnu(s),

whose modulus is at most int dnu/(1 + s) = tail <= b_0.  Hence with
S_n = sum_{k<n} rho_k b_k / d_n,

    |tail - S_n| <= b_0 / d_n <= 2 b_0 / (3 + sqrt 8)^n,

about 0.77 decimal digits per term whatever the decay of b_m (which is only polynomial
near z0).  Each order uses the monotone bound if it is reached within the CVZ term count,
else CVZ; the bound is added to the ball's radius, so it is inside the enclosure.

**Arithmetic.**  With python-flint every quantity is an arb ball (Johansson's Arb): the
returned enclosure provably contains the exact eps(alpha), rounding and truncation
included.  The cancellation in A_alpha - 1 ~ alpha^2 q^2 / (2 sigma^2) is met with extra
working bits, and the whole evaluation is repeated at higher precision until the ball's
relative radius meets the target.  Without python-flint the same algorithm runs in mpmath
(:data:`HAVE_FLINT` False): the truncation bound is still added, but rounding is not
tracked, so the result is flagged ``certified=False``.
"""

from __future__ import annotations

import contextlib
import math
import numbers
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import mpmath
from mpmath import libmp, mp, mpf

from dpsym.balls import HAVE_FLINT, ball_of_mpf, flint, lower_mpf, upper_mpf
from dpsym.errors import HypothesisError, require

#: Bounded work: the largest Renyi order accepted (the binomial series has ~alpha terms;
#: alpha = 10^5 takes ~15 s) and the most orders in one request.  No accountant's optimum
#: comes near either (Opacus's and dp-accounting's default grids stop at 256 and 1024).
MAX_ORDER = 10**5
MAX_ORDERS = 500
#: The domain the series is evaluated on: sigma <= 10^6 and q = 0 or q >= 10^-30.  Beyond,
#: A_alpha - 1 ~ q^2 alpha^2 / sigma^2 underflows the float estimate that sizes the working
#: precision (and no training run has such a noise multiplier or sampling rate).
MAX_SIGMA = 10**6
MIN_Q = Fraction(1, 10**30)

__all__ = [
    "HAVE_FLINT",
    "PoissonSeriesTables",
    "RdpEnclosure",
    "cvz_weights",
    "exact_fraction",
    "poisson_log_moment",
    "poisson_rdp_enclosures",
]

REF = "Mironov, Talwar & Zhang 2019, Sec. 3"
_LOG2_CVZ = math.log2(3 + math.sqrt(8))


def exact_fraction(x: object, name: str = "x", ref: str = REF) -> Fraction:
    """The exact rational value of an int, Fraction, float, decimal string, mpf or numpy scalar."""
    if isinstance(x, bool):
        raise HypothesisError(name, x, "a real number (not a bool)", ref)
    try:
        if isinstance(x, Fraction | int):
            return Fraction(x)
        if isinstance(x, mpf):
            if not mpmath.isfinite(x):
                raise ValueError
            sign, man, exp, _ = x._mpf_
            v = Fraction(int(man)) * (Fraction(2) ** int(exp))
            return -v if sign else v
        if isinstance(x, str):
            return Fraction(x.strip())
        if hasattr(x, "dtype") and getattr(x.dtype, "kind", "") in "iu":  # numpy integers
            return Fraction(int(x))
        if not isinstance(x, numbers.Real) or hasattr(x, "__len__"):
            raise TypeError  # bytes, complex, None, arrays: not a real number
        f = float(x)  # floats and numpy floats: exact binary value
        if math.isnan(f):
            raise HypothesisError(name, x, "a real number (not NaN)", ref)
        if not math.isfinite(f):
            raise ValueError
        return Fraction(f)
    except HypothesisError:
        raise
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise HypothesisError(name, x, "a finite real number", ref) from None


# --- the two arithmetic back ends -------------------------------------------------------


class _ArbOps:
    """Ball arithmetic (python-flint's arb): every result encloses the exact value."""

    certified = True

    def __init__(self, prec: int) -> None:
        self.prec = prec

    @contextlib.contextmanager
    def context(self) -> Iterator[None]:
        old = flint.ctx.prec
        flint.ctx.prec = self.prec
        try:
            yield
        finally:
            flint.ctx.prec = old

    def num(self, v: Fraction | int):
        v = Fraction(v)
        if v.denominator == 1:
            return flint.arb(flint.fmpz(v.numerator))
        return flint.arb(flint.fmpq(v.numerator, v.denominator))

    def integer(self, n: int):
        return flint.arb(flint.fmpz(n))

    @staticmethod
    def exp(x):
        return x.exp()

    @staticmethod
    def log(x):
        return x.log()

    @staticmethod
    def log1p(x):
        return x.log1p()

    @staticmethod
    def expm1(x):
        return x.expm1()

    def ncdf(self, x):
        return (-x / flint.arb(2).sqrt()).erfc() / 2

    def with_error(self, x, err_upper: mpf):
        """x widened by +-err_upper (a non-negative upper bound)."""
        return x + flint.arb(0, ball_of_mpf(err_upper))

    upper = staticmethod(upper_mpf)
    lower = staticmethod(lower_mpf)

    @staticmethod
    def positive(x) -> bool:
        return bool(x > 0)

    @staticmethod
    def rel_radius(x) -> float:
        if not x.is_finite():
            return math.inf
        m = abs(float(x.mid()))
        r = float(x.rad())
        return math.inf if m == 0 else r / m


class _MpOps:
    """The same algorithm in mpmath at a fixed precision: truncation is bounded, rounding is
    only estimated (2^-(prec - 24) relative), so results are not interval-certified."""

    certified = False

    def __init__(self, prec: int) -> None:
        self.prec = prec

    @contextlib.contextmanager
    def context(self) -> Iterator[None]:
        with mp.workprec(self.prec):
            yield

    @staticmethod
    def num(v: Fraction | int) -> mpf:
        v = Fraction(v)
        return mpf(v.numerator) / v.denominator

    @staticmethod
    def integer(n: int) -> mpf:
        return mpf(n)

    exp = staticmethod(mpmath.exp)
    log = staticmethod(mpmath.log)
    log1p = staticmethod(mpmath.log1p)
    expm1 = staticmethod(mpmath.expm1)
    ncdf = staticmethod(mpmath.ncdf)

    def with_error(self, x: mpf, err_upper: mpf) -> tuple[mpf, mpf]:
        return (x, abs(x) * mpf(2) ** (-self.prec + 24) + err_upper)

    @staticmethod
    def _pair(x: mpf | tuple[mpf, mpf]) -> tuple[mpf, mpf]:
        return x if isinstance(x, tuple) else (x, abs(x) * mpf(2) ** (-mp.prec + 24))

    def upper(self, x) -> mpf:
        v, e = self._pair(x)
        return v + e

    def lower(self, x) -> mpf:
        v, e = self._pair(x)
        return v - e

    def positive(self, x) -> bool:
        v, e = self._pair(x)
        return bool(v - e > 0)

    def rel_radius(self, x) -> float:
        v, e = self._pair(x)
        return math.inf if v == 0 else float(e / abs(v))


def _ops(prec: int):
    return _ArbOps(prec) if HAVE_FLINT else _MpOps(prec)


# --- CVZ weights ------------------------------------------------------------------------


@cache
def cvz_weights(n: int) -> tuple[int, tuple[int, ...]]:
    """(d_n, (rho_0, ..., rho_{n-1})): d_n = T_n(3) and d_n - T_n(1 - 2s) = (1 + s) sum rho_k s^k.

    Exact integers (the shifted Chebyshev polynomial has integer coefficients), built by the
    recurrence T_{k+1} = 2 x T_k - T_{k-1} with x = 1 - 2s.

    >>> d, rho = cvz_weights(3)
    >>> d, rho
    (99, (98, -80, 32))
    """
    require(isinstance(n, int) and n >= 1, "n", n, "an integer n >= 1",
            "Cohen, Rodriguez Villegas & Zagier 2000")
    prev, cur = [1], [1, -2]  # T_0, T_1 in powers of s
    for _ in range(n - 1):
        nxt = [0] * (len(cur) + 1)
        for i, c in enumerate(cur):  # 2 (1 - 2s) T_k
            nxt[i] += 2 * c
            nxt[i + 1] -= 4 * c
        for i, c in enumerate(prev):
            nxt[i] -= c
        prev, cur = cur, nxt
    p = cur if n >= 1 else prev
    d = sum(c * (-1) ** i for i, c in enumerate(p))  # P_n(-1) = T_n(3)
    # synthetic division of d - P_n(s) by (s + 1), highest power first
    poly = [-c for c in p]
    poly[0] += d
    rho = [0] * n
    carry = 0
    for i in range(n, 0, -1):
        carry = poly[i] + carry
        rho[i - 1] = carry
        carry = -carry
    assert poly[0] + carry == 0
    return d, tuple(rho)


# --- the tables and the evaluation ------------------------------------------------------


@dataclass(frozen=True)
class RdpEnclosure:
    """An enclosure lower <= eps(alpha) <= upper of the (composed) RDP at one order.

    ``certified`` is True when the bounds come from ball arithmetic (python-flint) and so
    provably contain the exact value; False for the mpmath fallback (truncation bounded,
    rounding estimated).  ``method`` is ``"binomial"`` (integer alpha), ``"monotone"`` or
    ``"cvz"`` (the remainder bound used for the alternating tail), or ``"closed"`` (q = 1).
    """

    alpha: Fraction
    lower: mpf
    upper: mpf
    certified: bool
    method: str

    def correct_digits(self) -> float:
        """-log10 of the relative width: the number of decimal digits the bounds share."""
        if self.upper == self.lower:
            return math.inf
        mid = (self.upper + self.lower) / 2
        if mid == 0:
            return 0.0
        return float(-mpmath.log10((self.upper - self.lower) / abs(mid)))


class PoissonSeriesTables:
    """W(k), W'(j) and the binomial-sum table for one (q, sigma), shared by a grid of orders.

    Entries are computed on demand at the tables' precision and cached; a new instance is
    built when a higher precision is needed.  0 < q < 1.
    """

    def __init__(self, q: Fraction, sigma: Fraction, prec: int) -> None:
        self.ops = _ops(prec)
        self.q, self.sigma = q, sigma
        with self.ops.context():
            o = self.ops
            self.qb, self.sb = o.num(q), o.num(sigma)
            self.one_m_q = o.num(1 - q)
            self.log_r = o.log(self.qb / self.one_m_q)
            self.two_s2 = 2 * self.sb * self.sb
            self.z0 = o.num(Fraction(1, 2)) - self.sb * self.sb * self.log_r
        self._w: dict[int, object] = {}
        self._wp: dict[tuple[Fraction, int], object] = {}
        self._int: dict[int, object] = {}

    def _log_e(self, x):
        return x * (x - 1) / self.two_s2

    def w(self, k: int):
        """W(k) = r^k E_k Phi((z0 - k)/sigma)."""
        if k not in self._w:
            o, x = self.ops, self.ops.integer(k)
            self._w[k] = o.exp(x * self.log_r + self._log_e(x)) * o.ncdf((self.z0 - x) / self.sb)
        return self._w[k]

    def w_prime(self, frac: Fraction, i: int):
        """W'(j) at j = frac + i: r^j E_j Phi((j - z0)/sigma)."""
        key = (frac, i)
        if key not in self._wp:
            o = self.ops
            x = o.num(frac + i)
            self._wp[key] = (o.exp(x * self.log_r + self._log_e(x))
                             * o.ncdf((x - self.z0) / self.sb))
        return self._wp[key]

    def binomial_term(self, k: int):
        """r^k (E_k - 1), the k-th term of the integer-order sum without C(alpha, k)."""
        if k not in self._int:
            o, x = self.ops, self.ops.integer(k)
            self._int[k] = o.exp(x * self.log_r) * o.expm1(self._log_e(x))
        return self._int[k]

    # -- A_alpha - 1 ------------------------------------------------------------------

    def am1_integer(self, alpha: int):
        """A_alpha - 1 for integer alpha >= 2 (non-negative terms)."""
        o = self.ops
        total = o.integer(0)
        c = alpha * (alpha - 1) // 2  # C(alpha, 2), exact
        for k in range(2, alpha + 1):
            total += o.integer(c) * self.binomial_term(k)
            c = c * (alpha - k) // (k + 1)
        return o.exp(o.num(alpha) * o.log(self.one_m_q)) * total

    def am1_real(self, alpha: Fraction, tol_bits: float) -> tuple[object, str]:
        """(A_alpha - 1, remainder method) for non-integer alpha > 1.

        ``tol_bits``: the tail's truncation bound is made <= 2^-tol_bits (absolute).
        """
        o = self.ops
        a = o.num(alpha)
        K = math.floor(alpha) + 1
        frac = alpha - math.floor(alpha)
        fl = math.floor(alpha)
        # W'(alpha - k) = W'(frac + (fl - k))
        head = o.integer(0)
        c = o.integer(1)
        for k in range(K):
            head += c * (self.w(k) + self.w_prime(frac, fl - k))
            c = c * (a - k) / (k + 1)
        # c is now C(alpha, K) > 0; b_m = |C(alpha, K+m)| (W(K+m) + W'(alpha-K-m))
        b0 = c * (self.w(K) + self.w_prime(frac, fl - K))
        b0_up = o.upper(b0)
        if b0_up <= 0:
            tail, method = o.integer(0), "monotone"
        else:
            need = float(mpmath.log(b0_up, 2)) + tol_bits + 2
            n = max(1, math.ceil(need / _LOG2_CVZ))
            bs = [b0]
            tol = mpf(2) ** (-tol_bits)
            plain = None
            m = 0
            while True:
                if o.upper(bs[m]) <= tol and m > 0:
                    plain = m
                    break
                if m + 1 > n:
                    break
                k = K + m
                c = c * (k - a) / (k + 1)  # |C(alpha, k+1)| = |C(alpha, k)| (k - alpha)/(k + 1)
                bs.append(c * (self.w(k + 1) + self.w_prime(frac, fl - k - 1)))
                m += 1
            if plain is not None:
                s = o.integer(0)
                for i in range(plain):
                    s = s + bs[i] if i % 2 == 0 else s - bs[i]
                tail, method = o.with_error(s, o.upper(bs[plain])), "monotone"
            else:
                d, rho = cvz_weights(n)
                s = o.integer(0)
                for i in range(n):
                    s += o.integer(rho[i]) * bs[i]
                tail = o.with_error(s / o.integer(d), b0_up / d)
                method = "cvz"
        total = head + (tail if not isinstance(tail, tuple) else tail[0])
        a_val = o.exp(a * o.log(self.one_m_q)) * total
        am1 = a_val - 1
        if isinstance(tail, tuple):  # mpmath: carry the truncation bound along
            scale = o.exp(a * o.log(self.one_m_q))
            am1 = (am1, abs(am1) * mpf(2) ** (-o.prec + 24) + scale * tail[1])
        return am1, method


def _estimate_log2_am1(q: float, sigma: float, alpha: float) -> float:
    """A rough log2(A_alpha - 1), to size the working precision (never used as a bound).

    eps(alpha) is non-decreasing in alpha and eps(2) = log(1 + q^2 (e^{1/sigma^2} - 1))
    exactly, so A_alpha - 1 >= expm1((alpha - 1) eps(2)) for alpha >= 2; below 2 the
    small-q leading term alpha (alpha - 1) q^2 (e^{1/sigma^2} - 1)/2 is used.
    """
    with contextlib.suppress(ValueError, OverflowError, ZeroDivisionError):
        chi2 = q * q * math.expm1(min(1 / (sigma * sigma), 700.0))
        if alpha >= 2:
            v = (alpha - 1) * math.log1p(chi2)
            return v / math.log(2) if v > 700 else math.log2(math.expm1(v))
        lead = alpha * (alpha - 1) / 2 * chi2
        if lead > 0:
            return math.log2(lead)
    return -2000.0


def _check_args(q: Fraction, sigma: Fraction, orders: Sequence[Fraction],
                raw: tuple[object, object, Sequence[object]]) -> None:
    require(0 <= q <= 1, "q", raw[0], "0 <= q <= 1 (a sampling probability)", REF)
    require(q == 0 or q >= MIN_Q, "q", raw[0], "q = 0 or q >= 1e-30 (the cap on the domain, "
            "dpsym.rdp.arb_series.MIN_Q)", REF)
    require(sigma > 0, "sigma", raw[1], "sigma > 0", REF)
    require(sigma <= MAX_SIGMA, "sigma", raw[1], f"sigma <= {MAX_SIGMA} (the cap on the "
            "domain, dpsym.rdp.arb_series.MAX_SIGMA)", REF)
    require(len(orders) <= MAX_ORDERS, "orders", f"{len(orders)} orders",
            f"at most {MAX_ORDERS} orders (dpsym.rdp.arb_series.MAX_ORDERS)", REF)
    for a, ra in zip(orders, raw[2], strict=True):
        require(a > 1, "alpha", ra, "alpha > 1", REF)
        require(a <= MAX_ORDER, "alpha", ra, f"alpha <= {MAX_ORDER} (the cap on the order, "
                "dpsym.rdp.arb_series.MAX_ORDER)", REF)


def _series_enclosures(
    qf: Fraction, sf: Fraction, alphas: Sequence[Fraction], steps: int, dps: int,
) -> list[tuple[mpf, mpf, mpf, mpf, bool, str]]:
    """Per order: (rdp lower, rdp upper, A-1 lower, A-1 upper, certified, method), 0 < q < 1.

    Both enclosures reach a relative radius <= 10^-(dps+1); the working precision is
    doubled for the orders that miss it.
    """
    out: list[tuple[mpf, mpf, mpf, mpf, bool, str] | None] = [None] * len(alphas)
    target_bits = (dps + 3) * math.log2(10)
    qfl, sfl = float(qf), float(sf)
    extra = [max(0.0, -_estimate_log2_am1(qfl, sfl, float(a))) for a in alphas]
    prec = int(target_bits + max(extra) + 40 + math.log2(float(max(alphas)) + 2))
    todo = list(range(len(alphas)))
    tol = 10.0 ** (-dps - 1)
    for _attempt in range(6):
        tables = PoissonSeriesTables(qf, sf, prec)
        o = tables.ops
        failed = []
        with o.context():
            for i in todo:
                a = alphas[i]
                if a.denominator == 1:
                    am1, method = tables.am1_integer(int(a)), "binomial"
                else:
                    am1, method = tables.am1_real(a, target_bits + extra[i] + 8)
                if not o.positive(am1) or o.rel_radius(am1) > tol:
                    failed.append(i)
                    continue
                am1_lo, am1_hi = o.lower(am1), o.upper(am1)
                if isinstance(am1, tuple):  # mpmath fallback: log1p is monotone
                    am = mpf(a.numerator) / a.denominator - 1
                    lo = steps * mpmath.log1p(am1_lo) / am
                    hi = steps * mpmath.log1p(am1_hi) / am
                else:
                    ball = o.integer(steps) * o.log1p(am1) / (o.num(a) - 1)
                    lo, hi = o.lower(ball), o.upper(ball)
                out[i] = (lo, hi, am1_lo, am1_hi, o.certified, method)
        if not failed:
            return out  # type: ignore[return-value]
        todo = failed
        prec *= 2
    raise ArithmeticError(  # pragma: no cover - precision doubling always succeeds
        f"RDP series did not reach {dps} digits (q={qf}, sigma={sf}, orders "
        f"{[str(alphas[i]) for i in todo]})")


def poisson_rdp_enclosures(
    q: object, sigma: object, orders: Sequence[object], steps: int = 1, dps: int = 40,
) -> list[RdpEnclosure]:
    """Enclosures of ``steps`` * eps(alpha) at every order, each to >= ``dps`` digits.

    One table of W (and of the integer-order terms) serves all orders; W' is shared by the
    orders with the same fractional part.  Every enclosure is certified when python-flint
    is present (see the module docstring for the series, the CVZ bound and the fallback).

    >>> from dpsym.rdp.arb_series import poisson_rdp_enclosures
    >>> from dpsym.numerics import nstr
    >>> e = poisson_rdp_enclosures("0.01", 1, ["2.5", 32], dps=30)
    >>> [nstr(x.upper, 20) for x in e]
    ['0.00021757533228188045261', '11.246275937048068835']
    >>> all(x.correct_digits() >= 30 for x in e)
    True
    """
    qf = exact_fraction(q, "q")
    sf = exact_fraction(sigma, "sigma")
    alphas = [exact_fraction(a, "alpha") for a in orders]
    _check_args(qf, sf, alphas, (q, sigma, orders))
    require(isinstance(steps, int) and steps >= 1, "steps", steps, "an integer >= 1", REF)
    if not alphas:
        return []
    if qf == 0 or qf == 1:
        prec = int((dps + 20) * math.log2(10))
        out = []
        for a in alphas:
            # q = 0: no privacy loss; q = 1: the Gaussian mechanism, steps * alpha/(2 sigma^2)
            v = Fraction(0) if qf == 0 else steps * a / (2 * sf * sf)
            lo = mp.make_mpf(libmp.from_rational(v.numerator, v.denominator, prec, "f"))
            hi = mp.make_mpf(libmp.from_rational(v.numerator, v.denominator, prec, "c"))
            out.append(RdpEnclosure(a, lo, hi, True, "closed"))
        return out
    return [RdpEnclosure(a, lo, hi, cert, method)
            for a, (lo, hi, _, _, cert, method)
            in zip(alphas, _series_enclosures(qf, sf, alphas, steps, dps), strict=True)]


def poisson_log_moment(q: object, sigma: object, alpha: object, dps: int) -> tuple[mpf, mpf]:
    """(log A_alpha, log(A_alpha - 1)) to ``dps`` digits, 0 < q < 1, by the series.

    The midpoints of certified enclosures (relative radius <= 10^-(dps+1)); used where a
    formula needs A_alpha itself, e.g. Birrell et al.'s H_{alpha,sigma}(q) = A_alpha at
    sigma/2.
    """
    qf, sf, af = (exact_fraction(q, "q"), exact_fraction(sigma, "sigma"),
                  exact_fraction(alpha, "alpha"))
    _check_args(qf, sf, [af], (q, sigma, [alpha]))
    require(0 < qf < 1, "q", q, "0 < q < 1", REF)
    _, _, lo, hi, _, _ = _series_enclosures(qf, sf, [af], 1, dps)[0]
    with mp.workdps(dps + 10):
        am1 = (lo + hi) / 2
        return mpmath.log1p(am1), mpmath.log(am1)
