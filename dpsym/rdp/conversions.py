"""RDP -> (eps, delta) conversions, each selectable, and their optimisation over the order.

A mechanism is (alpha, tau)-RDP when D_alpha(P || Q) <= tau for all adjacent pairs.  Each
conversion turns one (alpha, tau) into an (eps, delta)-DP guarantee; a list of orders (or
a curve tau(alpha)) is turned into the best guarantee over alpha.

``"mironov2017"``  Mironov 2017, Prop. 3:
    eps = tau + log(1/delta) / (alpha - 1).
``"balle2020"``    Balle et al. 2020, Thm 21 (= Canonne, Kamath & Steinke 2020, Prop. 12;
    also Asoodeh et al. 2020, eq. (20)):
    eps = tau + log((alpha - 1)/alpha) - (log delta + log alpha) / (alpha - 1).
``"asoodeh2021"``  the *optimal* conversion of a single RDP constraint (Asoodeh, Liao,
    Calmon, Kosut & Sankar 2021, "Three variants of differential privacy: lossless
    conversion and applications"): delta(eps) = sup { E_{e^eps}(P || Q) : D_alpha(P||Q) <= tau },
    E_gamma(P || Q) = sup_A P(A) - gamma Q(A) the hockey-stick divergence.  By the data
    processing inequality for D_alpha, the test A reduces (P, Q) to two-point
    distributions without changing E_gamma, so the supremum is over pairs
    P = (p, 1 - p), Q = (q, 1 - q); :func:`optimal_delta` solves that two-parameter
    problem exactly (derivation in its docstring).
``"alc2021_lemma1"`` the closed form that Bok et al. 2024 cite as [ALC+21, Lemma 1] and
    evaluate in their script: eps = log((e^{(alpha-1) tau} - 1)/(alpha delta) + 1)/(alpha-1),
    i.e. delta = (e^{(alpha-1) tau} - 1) / (alpha (e^{(alpha-1) eps} - 1)).  It is never
    below the optimal conversion (a ledger claim checks this on a grid), so it is not
    part of ``"best"``.
``"best"``         the minimum of mironov2017, balle2020 and asoodeh2021, as Bok et al.
    2024, App. A.1 take a minimum.

Every eps returned is an *upper* bound: closed forms are evaluated in arb ball arithmetic
(python-flint) and their upper end returned, rounded up; the optimal conversion (mpmath)
takes each root on the side of more privacy loss.  The zCDP conversion of
Bun & Steinke 2016, Lemma 3.5, is :func:`zcdp_to_epsilon`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import mpmath
from mpmath import mp, mpf

from dpsym.errors import require, require_dps, require_sequence
from dpsym.numerics import (
    DEFAULT_DPS,
    GUARD_DPS,
    Number,
    find_root,
    minimize_scalar,
    precision,
    round_up,
    to_mpf,
)

__all__ = [
    "CONVERSIONS",
    "REFERENCES",
    "ZCDP_CURVE_CONVERSIONS",
    "delta_from_rdp",
    "epsilon_from_rdp",
    "optimal_delta",
    "optimize_order",
    "rdp_to_delta",
    "rdp_to_epsilon",
    "zcdp_curve",
    "zcdp_curve_epsilon",
    "zcdp_to_epsilon",
]

CONVERSIONS = ("mironov2017", "balle2020", "asoodeh2021", "alc2021_lemma1", "best")
REFERENCES = {
    "mironov2017": "Mironov 2017, Prop. 3",
    "balle2020": "Balle et al. 2020, Thm 21 (= Canonne, Kamath & Steinke 2020, Prop. 12)",
    "asoodeh2021": "Asoodeh et al. 2021, optimal single-order conversion",
    "alc2021_lemma1": "Asoodeh et al. 2021, Lemma 1, as evaluated by Bok et al. 2024",
    "best": "minimum over the conversions (Bok et al. 2024, App. A.1)",
}
_SINGLE = ("mironov2017", "balle2020", "asoodeh2021")
REF = "RDP to (eps, delta) conversion"


def _check_conversion(conversion: str) -> None:
    require(conversion in CONVERSIONS, "conversion", conversion,
            f"one of {', '.join(CONVERSIONS)}", REF)


def _check_pair(alpha: mpf, tau: mpf, raw: tuple[object, object] | None = None) -> None:
    shown = raw if raw is not None else (alpha, tau)
    require(alpha > 1, "alpha", shown[0], "alpha > 1", REF)
    require(tau >= 0, "rdp", shown[1], "rdp >= 0 (a Renyi divergence)", REF)


# --- the optimal conversion -------------------------------------------------------------


def _inner_s(x: mpf, alpha: mpf, cm1: mpf) -> mpf:
    """s = 1 - v on the RDP boundary for u = e^x > e^tau, on its upper side.

    h(s) = s (u^alpha - C) + (u - 1) ((1 - s)^alpha - 1 - (C - 1)), C = e^{(alpha-1) tau}.
    h(0) < 0 < h(1) and h is convex, so the root in (0, 1) is unique, the root of the
    tangent at 0 lies above it, and Newton's method started there decreases monotonically
    to the root: every iterate is feasible-or-above, i.e. on the side of larger delta.
    """
    um1 = mpmath.expm1(x)
    ua_c = mpmath.exp(alpha * x) - (1 + cm1)
    slope0 = ua_c - alpha * um1  # h'(0)
    s = min(mpf(1), cm1 * um1 / slope0) if slope0 > 0 else mpf(1)
    tol = mpf(2) ** (-mp.prec + 3)
    for _ in range(4 * mp.prec):
        log1ms = mpmath.log1p(-s) if s < 1 else mpmath.ninf
        e_s = mpmath.expm1(alpha * log1ms) if s < 1 else mpf(-1)
        h = s * ua_c + um1 * (e_s - cm1)
        dh = ua_c - um1 * alpha * (mpmath.exp((alpha - 1) * log1ms) if s < 1 else 0)
        step = h / dh
        s_new = s - step
        if step <= tol * s or s_new >= s:
            break
        s = s_new
    return s


def _stationarity(x: mpf, alpha: mpf, cm1: mpf, gamma: mpf) -> mpf:
    """A positive multiple of d delta/du along the RDP boundary, D = s (u - gamma)/(u - 1 + s).

    d delta/du = D_u + D_s s'(u), s'(u) = -h_u/h_s; times (u - 1 + s)^2 h_s > 0 this is
    s (gamma - 1 + s) h_s - (u - gamma)(u - 1) h_u.
    """
    s = _inner_s(x, alpha, cm1)
    u = mpmath.exp(x)
    um1 = mpmath.expm1(x)
    log1ms = mpmath.log1p(-s)
    h_u = s * alpha * mpmath.exp((alpha - 1) * x) + mpmath.expm1(alpha * log1ms) - cm1
    h_s = mpmath.exp(alpha * x) - (1 + cm1) - um1 * alpha * mpmath.exp((alpha - 1) * log1ms)
    return s * (gamma - 1 + s) * h_s - (u - gamma) * um1 * h_u


def _optimum(alpha: mpf, tau: mpf, eps: mpf) -> tuple[mpf, mpf]:
    """(delta, q) at the maximiser of the two-point problem (see :func:`optimal_delta`)."""
    if tau == 0:
        return mpf(0), mpf(0)
    gamma = mpmath.exp(eps)
    cm1 = mpmath.expm1((alpha - 1) * tau)
    boundary = (max(mpf(0), -mpmath.expm1(eps - tau)), mpmath.exp(-tau))  # u = e^tau, s = 1
    x_lo = max(tau, eps)
    x_start = x_lo + max(abs(x_lo), mpf(1)) * mpf(2) ** (-mp.prec // 3)
    if _stationarity(x_start, alpha, cm1, gamma) <= 0:
        return boundary
    # delta is stationary at the maximiser, so half the digits of x give all digits of delta.
    x_star = find_root(
        lambda x: _stationarity(x, alpha, cm1, gamma),
        x_start,
        x_lo + 1,
        lower=x_lo,
        rtol=mpf(2) ** (-mp.prec // 2 - 8),
    )
    s = _inner_s(x_star, alpha, cm1)
    den = mpmath.expm1(x_star) + s
    interior = (s * (mpmath.exp(x_star) - gamma) / den, s / den)
    return max(boundary, interior, key=lambda r: r[0])


def optimal_delta(alpha: mpf, tau: mpf, eps: mpf) -> mpf:
    """sup E_{e^eps}(P || Q) over D_alpha(P || Q) <= tau, at the current precision.

    Two-point reduction: with likelihood ratios u = p/q > 1 on the test's acceptance set
    and v = (1-p)/(1-q) < 1 off it, q = (1 - v)/(u - v) and, writing s = 1 - v,

        delta = s (u - gamma) / (u - 1 + s),
        D_alpha <= tau  <=>  s u^alpha + (u - 1)(1 - s)^alpha <= C (u - 1 + s),

    with gamma = e^eps, C = e^{(alpha-1) tau}.  delta increases in s, so s sits on the
    constraint.  For u <= e^tau, s = 1 is feasible and delta = 1 - gamma/u, largest at
    u = e^tau; beyond, delta(u) rises to one interior maximum and decays to 0, found as
    the root of d delta / du (implicit differentiation of the constraint).  The inner
    root is taken on the side that makes delta larger.
    """
    return _optimum(alpha, tau, eps)[0]


def optimal_witness(alpha: mpf, tau: mpf, eps: mpf) -> tuple[mpf, mpf]:
    """(delta, Q(A)) at the maximiser of :func:`optimal_delta`, at the current precision.

    The test A of the extremal two-point pair has Q(A) = q and P(A) = delta + e^eps q; a
    caller can check that this pair satisfies D_alpha(P || Q) <= tau, which certifies that
    no valid conversion can report a smaller delta.
    """
    return _optimum(alpha, tau, eps)


def _optimal_epsilon(alpha: mpf, tau: mpf, delta: mpf) -> mpf:
    """Smallest eps >= 0 with optimal_delta(alpha, tau, eps) <= delta.

    Safeguarded Newton on log delta(eps), which decreases in eps.  The derivative comes
    from the envelope theorem, d delta / d eps = -e^eps q at the maximiser (only the
    explicit gamma in p - gamma q moves).  The bracket starts as [0, eps_Balle]: Balle et
    al.'s eps is a valid conversion, so the optimum is below it.  A Newton step leaving
    the bracket is replaced by bisection.  The returned end is the one with
    delta(eps) <= delta, so the result is a valid bound.
    """
    if optimal_delta(alpha, tau, mpf(0)) <= delta:
        return mpf(0)
    logd = mpmath.log(delta)

    def g(e: mpf) -> tuple[mpf, mpf]:
        d, q = _optimum(alpha, tau, e)
        if d <= 0:
            return -mpf(10) ** 9, mpf(0)
        return mpmath.log(d) - logd, -mpmath.exp(e) * q / d

    lo, hi = mpf(0), max(_balle_eps(alpha, tau, delta), mpf("1e-30"))
    while g(hi)[0] > 0:
        lo, hi = hi, 2 * hi
    e = hi
    tol = mpf(2) ** (-mp.prec + 6)
    for _ in range(4 * mp.prec):
        val, der = g(e)
        if val > 0:
            lo = e
        else:
            hi = e
        if hi - lo <= tol * hi:
            break
        nxt = e - val / der if der < 0 else (lo + hi) / 2
        if not lo < nxt < hi:
            nxt = (lo + hi) / 2
        if abs(nxt - e) <= tol * hi:
            # Newton has converged: close the bracket around the root on the safe side.
            nxt = e + tol * hi if val > 0 else e - tol * hi
            nxt = min(max(nxt, lo), hi)
            if g(nxt)[0] > 0:
                lo = nxt
            else:
                hi = nxt
            break
        e = nxt
    return hi


# --- closed-form conversions ------------------------------------------------------------


class _Arb:
    """The functions the closed forms use, on arb balls (for certified evaluations)."""

    log = staticmethod(lambda x: x.log())
    log1p = staticmethod(lambda x: x.log1p())
    exp = staticmethod(lambda x: x.exp())
    expm1 = staticmethod(lambda x: x.expm1())


def _mironov_eps(alpha, tau, delta, m=mpmath):
    return tau - m.log(delta) / (alpha - 1)


def _balle_eps(alpha, tau, delta, m=mpmath):
    return tau + m.log1p(-1 / alpha) - (m.log(delta) + m.log(alpha)) / (alpha - 1)


def _alc_eps(alpha, tau, delta, m=mpmath):
    return m.log(m.expm1((alpha - 1) * tau) / (alpha * delta) + 1) / (alpha - 1)


def _mironov_delta(alpha, tau, eps, m=mpmath):
    return m.exp((alpha - 1) * (tau - eps))


def _balle_delta(alpha, tau, eps, m=mpmath):
    return m.exp((alpha - 1) * (tau - eps + m.log1p(-1 / alpha)) - m.log(alpha))


def _alc_delta(alpha, tau, eps, m=mpmath):
    if eps == 0:
        return mpf(1) if m is mpmath else tau * 0 + 1
    return m.expm1((alpha - 1) * tau) / (alpha * m.expm1((alpha - 1) * eps))


_CLOSED = {
    ("epsilon", "mironov2017"): _mironov_eps, ("epsilon", "balle2020"): _balle_eps,
    ("epsilon", "alc2021_lemma1"): _alc_eps, ("delta", "mironov2017"): _mironov_delta,
    ("delta", "balle2020"): _balle_delta, ("delta", "alc2021_lemma1"): _alc_delta,
}


def _certified(target: str, conversion: str, a: mpf, t: mpf, x: mpf, value: mpf) -> mpf:
    """``value`` replaced by the upper end of an arb ball of the same closed form (when
    python-flint is present; the optimal conversion stays an mpmath evaluation)."""
    from dpsym.balls import HAVE_FLINT, arb_precision, ball_of_mpf, upper_mpf

    f = _CLOSED.get((target, conversion))
    if f is None or not HAVE_FLINT:
        return value
    with arb_precision(mp.prec + 40):
        b = f(ball_of_mpf(a), ball_of_mpf(t), ball_of_mpf(x), _Arb)
        up = upper_mpf(b)
    if not mpmath.isfinite(up):
        return value
    return max(up, mpf(0)) if target == "epsilon" else min(up, mpf(1))


def epsilon_from_rdp(
    alpha: Number, rdp: Number, delta: Number, conversion: str = "balle2020",
    dps: int = DEFAULT_DPS,
) -> mpf:
    """eps such that (alpha, rdp)-RDP implies (eps, delta)-DP, by ``conversion`` (rounded up).

    A negative eps from a closed form is reported as 0: (eps, delta)-DP with eps < 0
    implies (0, delta)-DP.
    """
    _check_conversion(conversion)
    with precision(dps + GUARD_DPS):
        a, t, d = _coerce(alpha, rdp, delta, "delta")
        require(0 < d < 1, "delta", delta, "0 < delta < 1", REF)
        out = _certified("epsilon", conversion, a, t, d, _eps_single(a, t, d, conversion))
    return round_up(out, dps)


def _eps_single(a: mpf, t: mpf, d: mpf, conversion: str) -> mpf:
    if conversion == "mironov2017":
        e = _mironov_eps(a, t, d)
    elif conversion == "balle2020":
        e = _balle_eps(a, t, d)
    elif conversion == "asoodeh2021":
        e = _optimal_epsilon(a, t, d)
    elif conversion == "alc2021_lemma1":
        e = _alc_eps(a, t, d)
    else:
        e = min(_eps_single(a, t, d, c) for c in _SINGLE)
    return max(e, mpf(0))


def delta_from_rdp(
    alpha: Number, rdp: Number, eps: Number, conversion: str = "balle2020",
    dps: int = DEFAULT_DPS,
) -> mpf:
    """delta such that (alpha, rdp)-RDP implies (eps, delta)-DP, by ``conversion`` (rounded up).

    Capped at 1, the trivial value.
    """
    _check_conversion(conversion)
    with precision(dps + GUARD_DPS):
        a, t, e = _coerce(alpha, rdp, eps, "eps")
        require(e >= 0, "eps", eps, "eps >= 0", REF)
        out = _certified("delta", conversion, a, t, e, _delta_single(a, t, e, conversion))
    return round_up(out, dps)


def _delta_single(a: mpf, t: mpf, e: mpf, conversion: str) -> mpf:
    if conversion == "mironov2017":
        d = _mironov_delta(a, t, e)
    elif conversion == "balle2020":
        d = _balle_delta(a, t, e)
    elif conversion == "asoodeh2021":
        d = optimal_delta(a, t, e)
    elif conversion == "alc2021_lemma1":
        d = _alc_delta(a, t, e)
    else:
        d = min(_delta_single(a, t, e, c) for c in _SINGLE)
    return min(d, mpf(1))


def _coerce(alpha: Number, rdp: Number, x: Number, name: str) -> tuple[mpf, mpf, mpf]:
    a = to_mpf(alpha, "alpha", REF)
    t = to_mpf(rdp, "rdp", REF)
    v = to_mpf(x, name, REF)
    _check_pair(a, t, (alpha, rdp))
    return a, t, v


def _check_lists(orders: Sequence[Number], rdp: Sequence[Number]
                 ) -> tuple[list[Number], list[Number]]:
    """The two sequences as lists (strings, generators and scalars rejected), same length."""
    from dpsym.rdp.arb_series import MAX_ORDERS

    orders = require_sequence("orders", orders, REF, max_length=MAX_ORDERS)
    rdp = require_sequence("rdp", rdp, REF, max_length=MAX_ORDERS)
    require(len(orders) == len(rdp), "orders", f"{len(orders)} orders",
            f"as many orders as rdp values ({len(rdp)})", REF)
    return orders, rdp


def _pairs(orders: Sequence[Number], rdp: Sequence[Number]) -> list[tuple[mpf, mpf]]:
    out = []
    for a, t in zip(orders, rdp, strict=True):
        pa, pt = to_mpf(a, "alpha", REF), to_mpf(t, "rdp", REF)
        _check_pair(pa, pt, (a, t))
        out.append((pa, pt))
    return out


def _best_over_orders(
    pairs: list[tuple[mpf, mpf]],
    value: Callable[[mpf, mpf, str], mpf],
    conversion: str,
) -> tuple[mpf, mpf]:
    """(smallest value, its order) over the orders, for one conversion.

    Closed forms (mironov2017, balle2020, alc2021_lemma1) are evaluated at every order.
    The optimal conversion costs ~0.1 s per order, so it is evaluated by a local search
    along the sorted orders, started at the best order of Balle et al.: it moves to a
    neighbour while that improves.  This is the exact grid minimum whenever eps(alpha) is
    unimodal along the grid (the case for every RDP curve of a composed mechanism we have
    met; tests compare with a full scan), and whatever it returns is a valid bound
    because every order gives one.
    """
    if conversion in ("mironov2017", "balle2020", "alc2021_lemma1"):  # closed forms
        return min(((value(a, t, conversion), a) for a, t in pairs), key=lambda r: r[0])
    ordered = sorted(pairs, key=lambda p: p[0])
    balle = [value(a, t, "balle2020") for a, t in ordered]
    i = min(range(len(ordered)), key=lambda k: balle[k])
    cache: dict[int, mpf] = {}

    def at(k: int) -> mpf:
        if k not in cache:
            cache[k] = value(*ordered[k], "asoodeh2021")
        return cache[k]

    for step in (-1, 1):
        while 0 <= i + step < len(ordered) and at(i + step) < at(i):
            i += step
    best = (at(i), ordered[i][0])
    if conversion == "best":
        for c in ("mironov2017", "balle2020"):
            cand = min(((value(a, t, c), a) for a, t in pairs), key=lambda r: r[0])
            best = min(best, cand, key=lambda r: r[0])
    return best


def rdp_to_epsilon(
    orders: Sequence[Number],
    rdp: Sequence[Number],
    delta: Number,
    conversion: str = "balle2020",
    dps: int = DEFAULT_DPS,
) -> tuple[mpf, mpf]:
    """(eps, best order): the smallest eps over the given orders, at ``delta``.

    ``rdp[i]`` is the RDP at ``orders[i]`` (already composed over all steps).  For
    ``"asoodeh2021"`` and ``"best"`` the orders are searched locally from Balle et al.'s
    best order (see :func:`_best_over_orders`); every order's eps is a valid bound.

    >>> from dpsym import rdp_to_epsilon
    >>> from dpsym.numerics import nstr
    >>> eps, order = rdp_to_epsilon([2, 4, 8], ["0.1", "0.2", "0.4"], "1e-5", dps=20)
    >>> nstr(eps, 12), nstr(order, 3)
    ('1.61410916785', '8.0')
    """
    _check_conversion(conversion)
    dps = require_dps(dps)
    orders, rdp = _check_lists(orders, rdp)
    with precision(dps + GUARD_DPS):
        d = to_mpf(delta, "delta", REF)
        require(0 < d < 1, "delta", delta, "0 < delta < 1", REF)
        pairs = _pairs(orders, rdp)
        best = _best_over_orders(pairs, lambda a, t, c: _eps_single(a, t, d, c), conversion)
        t_best = dict(pairs)[best[1]]
        value = _certified("epsilon", conversion, best[1], t_best, d, best[0])
    return round_up(value, dps), best[1]


def rdp_to_delta(
    orders: Sequence[Number],
    rdp: Sequence[Number],
    eps: Number,
    conversion: str = "balle2020",
    dps: int = DEFAULT_DPS,
) -> tuple[mpf, mpf]:
    """(delta, best order): the smallest delta over the given orders, at ``eps``."""
    _check_conversion(conversion)
    dps = require_dps(dps)
    orders, rdp = _check_lists(orders, rdp)
    with precision(dps + GUARD_DPS):
        e = to_mpf(eps, "eps", REF)
        require(e >= 0, "eps", eps, "eps >= 0", REF)
        pairs = _pairs(orders, rdp)
        best = _best_over_orders(pairs, lambda a, t, c: _delta_single(a, t, e, c), conversion)
        t_best = dict(pairs)[best[1]]
        value = _certified("delta", conversion, best[1], t_best, e, best[0])
    return round_up(value, dps), best[1]


def optimize_order(
    rdp_fn: Callable[[mpf, int], mpf],
    delta: Number,
    conversion: str = "balle2020",
    alpha_min: Number = "1.0001",
    alpha_max: Number = 4096,
    search_dps: int = 20,
    dps: int = DEFAULT_DPS,
) -> tuple[mpf, mpf]:
    """(eps, alpha*): minimise eps over *continuous* alpha in [alpha_min, alpha_max].

    ``rdp_fn(alpha, dps)`` returns the (composed) RDP at order alpha.  A geometric scan
    of log(alpha - 1) brackets the minimum, golden-section search refines it at
    ``search_dps`` digits (to ~1e-8 in log(alpha - 1)), and the eps at the final order
    is evaluated once at ``dps`` digits.  Any order gives a valid bound, so the result
    is valid whatever the search does; the search only makes it small.
    """
    _check_conversion(conversion)
    with precision(search_dps):
        d = to_mpf(delta, "delta", REF)
        require(0 < d < 1, "delta", delta, "0 < delta < 1", REF)
        lo = mpmath.log(to_mpf(alpha_min, "alpha_min", REF) - 1)
        hi = mpmath.log(to_mpf(alpha_max, "alpha_max", REF) - 1)
        require(hi > lo, "alpha_max", alpha_max, f"alpha_max > alpha_min = {alpha_min}", REF)

        def eps_at(y: mpf) -> mpf:
            a = 1 + mpmath.exp(y)
            return _eps_single(a, rdp_fn(a, search_dps), d, conversion)

        n = 24
        ys = [lo + (hi - lo) * i / n for i in range(n + 1)]
        vals = [eps_at(y) for y in ys]
        i = min(range(n + 1), key=lambda k: vals[k])
        a_lo, a_hi = ys[max(i - 1, 0)], ys[min(i + 1, n)]
        y_star, _ = minimize_scalar(eps_at, a_lo, a_hi, rtol=mpf("1e-8"))
        alpha_star = 1 + mpmath.exp(y_star)
    with precision(dps + GUARD_DPS):
        a = to_mpf(alpha_star)
        out = _eps_single(a, rdp_fn(a, dps + GUARD_DPS), to_mpf(delta), conversion)
    return round_up(out, dps), a


def zcdp_to_epsilon(rho: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """rho-zCDP implies (rho + 2 sqrt(rho log(1/delta)), delta)-DP (Bun & Steinke 2016, Lemma 3.5).

    An RDP curve (alpha, rho alpha) for all alpha > 1 is rho-zCDP, which is how Bok et al.
    2024, App. A.1 apply it.  Rounded up.
    """
    ref = "Bun & Steinke 2016, Lemma 3.5"
    with precision(dps + GUARD_DPS):
        r = to_mpf(rho, "rho", ref)
        d = to_mpf(delta, "delta", ref)
        require(r >= 0, "rho", rho, "rho >= 0", ref)
        require(0 < d < 1, "delta", delta, "0 < delta < 1", ref)
        out = r + 2 * mpmath.sqrt(r * mpmath.log(1 / d))
    return round_up(out, dps)


#: The four conversions Bok et al. 2024, App. A.1 minimise over for an RDP curve alpha rho.
ZCDP_CURVE_CONVERSIONS = ("bun_steinke2016", "mironov2017", "balle2020", "alc2021_lemma1")


def zcdp_curve(rho: Number) -> Callable[[mpf, int], mpf]:
    """The RDP curve alpha -> alpha rho, in the ``rdp_fn(alpha, dps)`` form of optimize_order."""
    def curve(a: mpf, d: int) -> mpf:
        with precision(d):
            return a * to_mpf(rho)
    return curve


def zcdp_curve_epsilon(
    rho: Number, delta: Number, conversions: Sequence[str] = ZCDP_CURVE_CONVERSIONS,
    dps: int = DEFAULT_DPS,
) -> dict[str, mpf]:
    """eps at ``delta`` for a mechanism that is (alpha, alpha rho)-RDP for every alpha > 1.

    Each single-order conversion is minimised over continuous alpha
    (:func:`optimize_order`); ``"bun_steinke2016"`` is :func:`zcdp_to_epsilon`.  Returns
    each conversion's eps and, under ``"min"``, their minimum, which is the numerical
    procedure of Bok et al. 2024, App. A.1.  Every value is an upper bound (rounded up).
    ``"asoodeh2021"`` (the optimal single-order conversion) may be requested as well.
    """
    out: dict[str, mpf] = {}
    with precision(dps + GUARD_DPS):
        r = to_mpf(rho, "rho", REF)
        require(r > 0, "rho", rho, "rho > 0", REF)
    for conv in conversions:
        if conv == "bun_steinke2016":
            out[conv] = zcdp_to_epsilon(rho, delta, dps=dps)
            continue
        _check_conversion(conv)
        out[conv], _ = optimize_order(zcdp_curve(rho), delta, conversion=conv, dps=dps)
    out["min"] = min(out.values())
    return out
