"""An independent privacy-loss-distribution (PLD) bound for composed Poisson DP-SGD.

This is an oracle for the numerical accountants in the audit (prv-accountant, Opacus's
``PRVAccountant``, dp-accounting's PLD): it brackets eps(delta) of T steps of the
Poisson-subsampled Gaussian mechanism (sampling rate q, noise multiplier sigma) from
both sides, for each direction of add/remove adjacency separately.

With mu0 = N(0, sigma^2), mu1 = N(1, sigma^2) and M = (1 - q) mu0 + q mu1, the two
dominating pairs are

* ``"remove"``: (P, Q) = (M, mu0), privacy loss L(x) = log((1 - q) + q e^{(2x-1)/(2 sigma^2)});
* ``"add"``:    (P, Q) = (mu0, M), privacy loss -L(x).

For a pair, delta(eps) = E_P[(1 - e^{eps - S})_+] where S is the sum of T independent
copies of the privacy loss under P, and the add/remove eps is the larger of the two
directions' eps.

Two discretisations on the grid h Z, both composed exactly by FFT (float64):

* upper (pessimistic): "connect the dots" (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi
  2022): each Q-mass at likelihood ratio Gamma = e^L is split between the two
  neighbouring atoms gamma_j <= Gamma <= gamma_{j+1} linearly in gamma (so the hockey-stick
  curve of the discrete pair interpolates the true one linearly in e^eps, which is convex,
  hence dominates it), P-masses are gamma_j times Q-masses, and the P-mass above the top
  atom goes to +infinity.  The discrete pair dominates the true one, so its composition
  does too; its error is second order in h.
* lower (optimistic): every loss is rounded *down* to the grid (P-masses kept); mass below
  the grid is dropped (loss -infinity).  S only decreases, and (1 - e^{eps - s})_+ is
  non-decreasing in s, so delta only decreases: error first order, at most T h in eps.

During composition, mass cut from the tails of a partial sum goes to +infinity (upper) or
is dropped / moved to the edge (lower), so every truncation keeps the side it is on.
The per-segment masses are integrated in x by 5-point Gauss-Legendre rules (no
differences of nearby CDF values), and the FFT round-off (about 1e-16 of the largest
mass) is far below any delta audited; the bounds are certified up to that float64
round-off, which is what "independent numerical bracket" means here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import signal, special

from dpsym.errors import require, require_integer

__all__ = ["DIRECTIONS", "MAX_ATOMS", "PLDBounds", "auto_h", "pld_delta_bounds",
           "pld_epsilon_bounds"]

Direction = Literal["remove", "add"]
DIRECTIONS: tuple[Direction, ...] = ("remove", "add")
REF = "dpsym.peers.pld (oracle)"

_GL_X, _GL_W = np.polynomial.legendre.leggauss(5)


@dataclass(frozen=True)
class PLDBounds:
    """eps(delta) of T steps bracketed: lower <= exact <= upper, for one direction (or
    "both": the add/remove eps, the larger of the two directions)."""

    q: float
    sigma: float
    steps: int
    delta: float
    direction: str
    h: float
    lower: float
    upper: float


def _loss(x: np.ndarray, q: float, sigma: float) -> np.ndarray:
    """L(x) = log((1 - q) + q e^{(2x - 1)/(2 sigma^2)}), overflow-free."""
    t = (2 * x - 1) / (2 * sigma * sigma) + math.log(q)
    return np.logaddexp(math.log1p(-q), t)


def _x_of_loss(eps: np.ndarray, q: float, sigma: float) -> np.ndarray:
    """The x with L(x) = eps (eps > log(1 - q)); -inf at and below log(1 - q)."""
    eps = np.asarray(eps, dtype=float)
    out = np.full(eps.shape, -np.inf)
    ok = eps > math.log1p(-q)
    e = eps[ok]
    # e^eps - (1 - q) = e^eps (1 - (1 - q) e^{-eps}), computed without cancellation
    log_num = e + np.log(-np.expm1(math.log1p(-q) - e))
    out[ok] = sigma * sigma * (log_num - math.log(q)) + 0.5
    return out


def _density(x: np.ndarray, q: float, sigma: float, which: str) -> np.ndarray:
    g0 = np.exp(-x * x / (2 * sigma * sigma)) / (sigma * math.sqrt(2 * math.pi))
    if which == "mu0":
        return g0
    g1 = np.exp(-(x - 1) ** 2 / (2 * sigma * sigma)) / (sigma * math.sqrt(2 * math.pi))
    return (1 - q) * g0 + q * g1


def _cdf(x: np.ndarray, q: float, sigma: float, which: str) -> np.ndarray:
    c0 = special.ndtr(x / sigma)
    if which == "mu0":
        return c0
    return (1 - q) * c0 + q * special.ndtr((x - 1) / sigma)


def _sf(x: np.ndarray, q: float, sigma: float, which: str) -> np.ndarray:
    s0 = special.ndtr(-x / sigma)
    if which == "mu0":
        return s0
    return (1 - q) * s0 + q * special.ndtr(-(x - 1) / sigma)


def _integrate(a: np.ndarray, b: np.ndarray, f, width: float) -> np.ndarray:
    """Per-interval integrals of ``f`` (vectorised, returning k rows) over [a_i, b_i].

    Each interval is cut into ceil((b - a)/width) panels, each integrated by the 5-point
    Gauss-Legendre rule, and the panels are summed back: no differences of nearby CDF
    values, so each integral keeps its relative precision.
    """
    npan = np.maximum(1, np.ceil((b - a) / width).astype(np.int64))
    idx = np.repeat(np.arange(len(a)), npan)
    first = np.cumsum(npan) - npan
    j = np.arange(len(idx)) - np.repeat(first, npan)
    step = (b - a) / npan
    pa = a[idx] + j * step[idx]
    pb = pa + step[idx]
    mid, half = (pa + pb) / 2, (pb - pa) / 2
    nodes = mid[:, None] + half[:, None] * _GL_X[None, :]
    vals = f(nodes)  # (k, panels, 5)
    panel = np.sum(vals * (half[:, None] * _GL_W[None, :])[None], axis=2)
    return np.stack([np.bincount(idx, weights=row, minlength=len(a)) for row in panel])


def _grid(q: float, sigma: float, direction: Direction, h: float, tail: float
          ) -> tuple[int, int, float]:
    """Atom range [i0, i1] (loss i h) and the x beyond which the loss is cut.

    The x cut is where the upper Gaussian tail of mu1 falls below ``tail``; the loss range
    is the image of (-inf, x_cut] (remove) or of [x_lo, +inf) (add)."""
    z = float(-special.ndtri(max(tail, 1e-300)))
    x_cut = 1 + max(z, 1.0) * sigma
    l_cut = float(_loss(np.array([x_cut]), q, sigma)[0])
    if direction == "remove":
        lo, hi = math.log1p(-q), l_cut
    else:
        lo, hi = -l_cut, -math.log1p(-q)
    return math.floor(lo / h), math.ceil(hi / h), x_cut


def _single_step(q: float, sigma: float, direction: Direction, h: float,
                 pessimistic: bool, tail: float) -> tuple[int, np.ndarray, float]:
    """(offset, P-masses on atoms (offset + k) h, P-mass at +infinity) of one step.

    Losses beyond the grid (probability < ``tail``) go to the safe side: to +infinity
    (pessimistic) or rounded down to the top atom (optimistic) at the top; at the bottom
    (add direction only) to the bottom atom (pessimistic) or dropped (optimistic).
    """
    i0, i1, x_cut = _grid(q, sigma, direction, h, tail)
    eps = np.arange(i0, i1 + 1) * h
    sign = 1.0 if direction == "remove" else -1.0
    xs = _x_of_loss(sign * eps, q, sigma)  # increasing (remove) / decreasing (add) in eps
    p_law, q_law = ("M", "mu0") if direction == "remove" else ("mu0", "M")
    a, b = (xs[:-1], xs[1:]) if direction == "remove" else (xs[1:], xs[:-1])
    # Below x = -40 sigma neither law has mass worth a float (e^-800); the lowest loss
    # segment of the remove direction starts at x = -infinity.
    x_floor = -40.0 * sigma
    a = np.where(np.isfinite(a), np.maximum(a, x_floor), x_floor)
    b = np.maximum(b, a)
    width = sigma / 8
    n = len(eps)
    if not pessimistic:
        seg = _integrate(a, b, lambda x: _density(x, q, sigma, p_law)[None], width)[0]
        masses = np.zeros(n)
        masses[:-1] = seg
        if direction == "remove":
            masses[-1] += float(_sf(xs[-1:], q, sigma, p_law)[0])  # rounded down to the top
        return i0, masses, 0.0
    g = np.exp(eps)
    g_lo, g_hi = g[:-1], g[1:]

    def split(x: np.ndarray) -> np.ndarray:
        dens = _density(x, q, sigma, q_law)
        lam = np.exp(sign * _loss(x, q, sigma))
        t = np.clip((lam - g_lo_rep) / (g_hi_rep - g_lo_rep), 0.0, 1.0)
        return np.stack([dens * (1 - t), dens * t])

    # the likelihood-ratio grid of each panel's segment, broadcast over its nodes
    npan = np.maximum(1, np.ceil((b - a) / width).astype(np.int64))
    g_lo_rep = np.repeat(g_lo, npan)[:, None]
    g_hi_rep = np.repeat(g_hi, npan)[:, None]
    parts = _integrate(a, b, split, width)
    qm = np.zeros(n)
    qm[:-1] += parts[0]
    qm[1:] += parts[1]
    p_inf = 0.0
    if direction == "remove":
        # Q-mass above the top atom goes to the top atom; P's remaining mass there,
        # delta(eps_top) >= 0, goes to +infinity.
        q_top = float(_sf(xs[-1:], q, sigma, q_law)[0])
        p_top = float(_sf(xs[-1:], q, sigma, p_law)[0])
        qm[-1] += q_top
        p_inf = max(0.0, p_top - g[-1] * q_top)
    else:
        # Q-mass below the bottom atom (x beyond x_cut) goes to the bottom atom: its P-mass
        # is then overstated by at most g_0 Q(x > x_cut) < tail (only more loss).
        qm[0] += float(_sf(np.array([x_cut]), q, sigma, q_law)[0])
    return i0, qm * g, p_inf


def _trim(off: int, m: np.ndarray, pessimistic: bool, tail: float
          ) -> tuple[int, np.ndarray]:
    """Cut the tails of mass < ``tail``, each to its safe side.

    Pessimistic: the left tail is rounded up to the new left edge, the right tail goes to
    +infinity (it leaves the array, so 1 - sum counts it).  Optimistic: the right tail is
    rounded down to the new right edge, the left tail is dropped (loss -infinity).
    """
    c = np.cumsum(m)
    lo = int(np.searchsorted(c, tail))
    rc = np.cumsum(m[::-1])
    hi = len(m) - int(np.searchsorted(rc, tail))
    lo, hi = min(lo, hi - 1), max(hi, lo + 1)
    core = m[lo:hi].copy()
    if pessimistic:
        core[0] += m[:lo].sum()
    else:
        core[-1] += m[hi:].sum()
    return off + lo, core


def _convolve(a: tuple[int, np.ndarray], b: tuple[int, np.ndarray],
              pessimistic: bool, tail: float) -> tuple[int, np.ndarray]:
    # FFT round-off leaves values of about -1e-16 * max where the exact value is ~0.
    out = np.clip(signal.fftconvolve(a[1], b[1]), 0.0, None)
    return _trim(a[0] + b[0], out, pessimistic, tail)


def _compose(off: int, m: np.ndarray, steps: int, pessimistic: bool, tail: float
             ) -> tuple[int, np.ndarray, float]:
    """T-fold composition by binary powering: (offset, finite masses, mass at +infinity).

    The arrays hold only finite losses and are not renormalised, so the convolution of two
    of them is exactly the finite part of the sum; what is missing from 1 is at +infinity
    (pessimistic) or was dropped at -infinity (optimistic, reported as 0).
    """
    result: tuple[int, np.ndarray] | None = None
    base = _trim(off, m, pessimistic, tail)
    k = steps
    while True:
        if k & 1:
            result = base if result is None else _convolve(result, base, pessimistic, tail)
        k >>= 1
        if not k:
            break
        base = _convolve(base, base, pessimistic, tail)
    assert result is not None
    inf_mass = max(0.0, 1.0 - float(result[1].sum())) if pessimistic else 0.0
    return result[0], result[1], inf_mass


def _delta_at(eps: float, off: int, m: np.ndarray, inf_mass: float, h: float) -> float:
    s = (off + np.arange(len(m))) * h
    sel = s > eps
    return inf_mass + float(np.sum(m[sel] * -np.expm1(eps - s[sel])))


def _epsilon_at(delta: float, off: int, m: np.ndarray, inf_mass: float, h: float) -> float:
    if _delta_at(0.0, off, m, inf_mass, h) <= delta:
        return 0.0
    require(inf_mass < delta, "delta", delta,
            f"delta > the mass sent to +infinity ({inf_mass:.3g}): refine h or the tails", REF)
    lo, hi = 0.0, 1.0
    while _delta_at(hi, off, m, inf_mass, h) > delta:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if _delta_at(mid, off, m, inf_mass, h) > delta:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    return hi


def _check(q: float, sigma: float, steps: int, h: float) -> int:
    require(0 < q < 1, "q", q, "0 < q < 1", REF)
    require(sigma > 0, "sigma", sigma, "sigma > 0", REF)
    require(h > 0, "h", h, "h > 0", REF)
    return require_integer("steps", steps, REF, minimum=1)


def _composed(q: float, sigma: float, steps: int, direction: Direction, h: float,
              pessimistic: bool, tail: float) -> tuple[int, np.ndarray, float]:
    off, m, _ = _single_step(q, sigma, direction, h, pessimistic, tail)
    # a step's +infinity mass is simply absent from m, so it is counted in 1 - sum
    return _compose(off, m, steps, pessimistic, tail)


def _tail(delta: float, steps: int) -> float:
    """Tail mass cut at each truncation: every cut moves delta by at most this much, and
    there are at most 2 log2(T) + 3 of them, so in all by at most 1e-6 of delta."""
    return 1e-6 * delta / (2 * max(1, steps).bit_length() + 3)


def pld_delta_bounds(q: float, sigma: float, steps: int, eps: float,
                     direction: Direction = "remove", h: float = 1e-4) -> tuple[float, float]:
    """(lower, upper) on delta(eps) of ``steps`` Poisson-subsampled Gaussian steps, one
    direction of add/remove adjacency, grid ``h`` (see the module docstring)."""
    t = _check(q, sigma, steps, h)
    require(direction in DIRECTIONS, "direction", direction, f"one of {DIRECTIONS}", REF)
    out = []
    tail = 1e-22
    for pess in (False, True):
        off, m, inf_mass = _composed(q, sigma, t, direction, h, pess, tail)
        out.append(_delta_at(eps, off, m, inf_mass, h))
    return out[0], out[1]


#: Largest array a composition may hold (float64 entries): bounds memory and FFT time.
MAX_ATOMS = 1 << 22


def auto_h(q: float, sigma: float, steps: int, target: float = 2e-4) -> float:
    """A grid for which the lower bound's slack (at most T h) is ``target`` when the
    arrays fit in :data:`MAX_ATOMS`, else the finest grid that fits.

    The width of a T-step sum is estimated from a coarse pass over one step: its own
    range, plus 30 standard deviations of the sum.
    """
    t = _check(q, sigma, steps, 1.0)
    widths = []
    for d in DIRECTIONS:
        off, m, _ = _single_step(q, sigma, d, 1e-3, False, 1e-12)
        x = (off + np.arange(len(m))) * 1e-3
        mass = m.sum()
        mean = float(np.sum(m * x) / mass)
        sd = math.sqrt(max(0.0, float(np.sum(m * (x - mean) ** 2) / mass)))
        widths.append(len(m) * 1e-3 + 30 * math.sqrt(t) * sd)
    return max(target / t, max(widths) / MAX_ATOMS)


def pld_epsilon_bounds(q: float, sigma: float, steps: int, delta: float,
                       direction: Direction | Literal["both"] = "both",
                       h: float | None = None) -> PLDBounds:
    """eps(delta) of ``steps`` Poisson-subsampled Gaussian steps, bracketed.

    ``direction`` is ``"remove"``, ``"add"`` or ``"both"`` (the add/remove eps: the larger
    of the two).  ``h`` is the loss grid (default :func:`auto_h`): the lower bound is
    within about ``steps * h`` of the exact eps, the upper within a second-order term;
    both are float64.

    >>> b = pld_epsilon_bounds(0.001, 3.0, 100, 1e-6, "remove")
    >>> round(b.lower, 5), round(b.upper, 5)
    (0.0111, 0.0112)
    """
    h = auto_h(q, sigma, steps) if h is None else h
    t = _check(q, sigma, steps, h)
    dirs = DIRECTIONS if direction == "both" else (direction,)
    require(direction == "both" or direction in DIRECTIONS, "direction", direction,
            "one of 'remove', 'add', 'both'", REF)
    lows, ups = [], []
    for d in dirs:
        for pess, acc in ((False, lows), (True, ups)):
            off, m, inf_mass = _composed(q, sigma, t, d, h, pess, _tail(delta, t))
            acc.append(_epsilon_at(delta, off, m, inf_mass, h))
    return PLDBounds(q, sigma, t, delta, direction, h, max(lows), max(ups))
