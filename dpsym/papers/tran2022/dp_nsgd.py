"""Tran & Cutkosky 2022, Sec. 3, App. D: DP-NSGD (Alg. 1), Theorems 4 and 6, Lemmas 5, 11, 12.

Algorithm 1 is normalized SGD with momentum ``m_t = (1-alpha) m_{t-1} + alpha grad f(w_t, x)``
(``m_0 = 0``), one sample per step, a fresh permutation per epoch of N steps, and tree
noise: every dyadic node gets ``N(0, 16 alpha^2 G^2 sigma^2 V I)`` and ``m_hat_t = m_t +
sum_{[y,z] in COMPOSE(1,t)} (1-alpha)^{t-z} zeta_[y,z]``.  Steps are 1-based, step t is in
epoch ``floor((t-1)/N)``; the tree must have depth ``R >= floor(log2 T) + 1`` for COMPOSE's
nodes to exist (:func:`alg_1_depth`).

Statements: :func:`alg_1_V` (the node count V), :func:`thm_4` (privacy),
:func:`thm_4_sigma` and the conversion steps of App. D.1, :func:`lem_5`, :func:`lem_11`,
:func:`lem_12`, :func:`thm_6` with :func:`thm_6_parameters`; :func:`alg_1` runs the
algorithm.  Evidence functions: :func:`thm_4_rdp_epsilon_at_printed_sigma` (the delta
condition), :func:`thm_4_node_sensitivity` vs :func:`thm_4_node_sensitivity_worst` (the
occurrence count of App. D.1), :func:`thm_4_record_budget` (the per-record budget over
placements), :func:`lem_5_step` (the case analysis of App. F), :func:`lem_11_initial_error`
(m_0 = 0), :func:`lem_12_exact` (the expected noise norm).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.aggregation import (
    GaussianGuarantee,
    Node,
    budget_guarantee,
    epoch_of,
    prefix_noise_variance,
    window_coefficients,
    worst_node_weight,
    worst_record_budget,
)
from dpsym.errors import require, require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.registry import cite
from dpsym.papers.tran2022 import formulas as fm

__all__ = [
    "Alg1Run",
    "Thm6Parameters",
    "alg_1",
    "alg_1_V",
    "alg_1_depth",
    "alg_1_node_std",
    "expected_gaussian_norm",
    "lem_5",
    "lem_5_scan",
    "lem_5_step",
    "lem_11",
    "lem_11_initial_error",
    "lem_12",
    "lem_12_exact",
    "thm_4",
    "thm_4_delta_threshold",
    "thm_4_node_sensitivity",
    "thm_4_node_sensitivity_worst",
    "thm_4_rdp_epsilon_at_printed_sigma",
    "thm_4_record_budget",
    "thm_4_sigma",
    "thm_4_sigma_simplified",
    "thm_4_sigma_threshold",
    "thm_6",
    "thm_6_parameters",
]

PAPER = "tran2022"


def _ref(what: str) -> str:
    return cite(PAPER, what)


def _ell(delta: Number, ref: str) -> mpf:
    d = to_mpf(delta, "delta", ref)
    require(0 < d < 1, "delta", delta, "0 < delta < 1", ref)
    return mpmath.log(1 / d)


def _pos(x: Number, name: str, ref: str) -> mpf:
    v = to_mpf(x, name, ref)
    require(v > 0, name, x, f"{name} > 0", ref)
    return v


# --- Algorithm 1 and Theorem 4 -------------------------------------------------------------

def alg_1_depth(T: int) -> int:
    """Smallest tree depth R with every COMPOSE(1, t), t <= T, in the tree: floor(log2 T) + 1."""
    T = require_integer("T", T, _ref("Alg. 1"), minimum=1)
    return T.bit_length()


def alg_1_V(N: int, T: int, R: int | None = None) -> Fraction:
    """Algorithm 1's V = (min(R, floor(log2 N)) + 1) T/N + sum_{j=floor(log2 N)+1}^{R} floor(T/2^j).

    Exact rational; R defaults to :func:`alg_1_depth`.  App. D.1 writes the first factor as
    min(R + 1, floor(log2 N + 1)), the same number.

    >>> alg_1_V(4, 16)
    Fraction(15, 1)
    """
    ref = _ref("Alg. 1")
    N = require_integer("N", N, ref, minimum=1)
    T = require_integer("T", T, ref, minimum=1)
    R = alg_1_depth(T) if R is None else require_integer("R", R, ref, minimum=0)
    lgN = N.bit_length() - 1
    return (min(R, lgN) + 1) * Fraction(T, N) + sum(T >> j for j in range(lgN + 1, R + 1))


def alg_1_node_std(alpha: Number, G: Number, sigma: Number, V: Number,
                   dps: int = DEFAULT_DPS) -> mpf:
    """Standard deviation of every node's noise in Algorithm 1: 4 alpha G sigma sqrt(V)."""
    return fm.evaluate(fm.ALG1_NODE_STD, {"alpha": alpha, "G": G, "sigma": sigma, "V": V},
                      dps=dps)


def thm_4(sigma: Number, dps: int = DEFAULT_DPS) -> GaussianGuarantee:
    """Theorem 4: Algorithm 1 is (z, z/(2 sigma^2))-RDP for all z, i.e. 1/(2 sigma^2)-zCDP and
    (1/sigma)-GDP (Thm 10 with rho = 1/(sigma sqrt V))."""
    return budget_guarantee(1, sigma, dps=dps)


def thm_4_sigma(eps: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Theorem 4's noise multiplier 2 sqrt(log(1/delta)) / eps.

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_4_sigma(1, "1e-5"), 10)
    '6.786140424'
    """
    ref = _ref("Thm 4")
    with precision(dps + GUARD_DPS):
        ell = _ell(delta, ref)
        e = _pos(eps, "eps", ref)
    return round_up(fm.evaluate(fm.THM_4_SIGMA, {"ell": ell, "epsilon": e}, dps=dps + GUARD_DPS),
                    dps)


def thm_4_sigma_threshold(eps: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """App. D.1's quadratic-formula threshold 1/(sqrt(2 ell + 2 eps) - sqrt(2 ell)) (as printed)."""
    ref = _ref("Thm 4 (App. D.1)")
    with precision(dps + GUARD_DPS):
        ell, e = _ell(delta, ref), _pos(eps, "eps", ref)
    return round_up(fm.evaluate(fm.THM_4_THRESHOLD, {"ell": ell, "epsilon": e},
                               dps=dps + GUARD_DPS), dps)


def thm_4_sigma_simplified(eps: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """App. D.1's simplified sufficient noise multiplier sqrt(2 ell + 2 eps) / eps (as printed)."""
    ref = _ref("Thm 4 (App. D.1)")
    with precision(dps + GUARD_DPS):
        ell, e = _ell(delta, ref), _pos(eps, "eps", ref)
    return round_up(fm.evaluate(fm.THM_4_SIMPLIFIED, {"ell": ell, "epsilon": e},
                               dps=dps + GUARD_DPS), dps)


def thm_4_rdp_epsilon_at_printed_sigma(eps: Number, delta: Number, k: int = 1,
                                       factor: Number = 2, dps: int = DEFAULT_DPS) -> mpf:
    """eps certified by the RDP route at the printed sigma = factor sqrt(ell)/eps with k budgets.

    Thm 4 is ``k = 1, factor = 2``; Thm 8 is ``k = 3`` (as printed) or ``4`` (recount),
    ``factor = 4``.  The conversion is Mironov's at the best order (= Bun & Steinke 2016,
    Lemma 3.5), the one App. D.1 uses.
    """
    ref = _ref("Thm 4 (App. D.1)")
    with precision(dps + GUARD_DPS):
        ell, e = _ell(delta, ref), _pos(eps, "eps", ref)
        s = to_mpf(factor) / 2 * fm.evaluate(fm.THM_4_SIGMA, {"ell": ell, "epsilon": e},
                                             dps=dps + GUARD_DPS)
    return budget_guarantee(k, s, dps=dps).epsilon(delta, "zcdp")


def thm_4_delta_threshold(k: int = 1, factor: int = 2) -> sp.Expr:
    """Smallest ell / eps for which sigma = factor sqrt(ell)/eps meets eps by the paper's route.

    The route (App. D.1, E.1): (z, k z/(2 sigma^2))-RDP gives eps = k z/(2 sigma^2) + ell/(z-1)
    (:data:`formulas.RDP_TO_DP`), minimised over z by sympy; at sigma = factor sqrt(ell)/eps,
    solving eps_RDP = eps for ell gives ell >= c eps with c returned exactly.  App. D.1 needs
    ell >= eps (delta <= e^-eps); Thm 4 prints delta >= e^-eps.
    """
    zz = [r for r in sp.solve(sp.diff(fm.RDP_TO_DP, fm.z), fm.z) if (r - 1).is_positive]
    best = sp.simplify(fm.RDP_TO_DP.subs(fm.z, zz[0]))
    at = best.subs({fm.k: k, fm.sigma: sp.Rational(factor, 2) * fm.THM_4_SIGMA})
    sol = sp.solve(sp.Eq(at, fm.eps), fm.ell)
    return sp.nsimplify(sp.simplify(sol[0] / fm.eps))


def thm_4_node_sensitivity(node: Node, N: int, alpha: Number, G: Number = 1,
                           dps: int = DEFAULT_DPS) -> mpf:
    """App. D.1's node sensitivity, as printed: 2 alpha G sum_{j<ceil(|z-y|/N)} (1-alpha)^{jN}."""
    ref = _ref("Thm 4 (App. D.1)")
    N = require_integer("N", N, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        a, g = _pos(alpha, "alpha", ref), _pos(G, "G", ref)
        n = -(-(node.z - node.y) // N)
        s = mpmath.fsum((1 - a) ** (j * N) for j in range(n))
        out = 2 * a * g * s
    return round_up(out, dps)


def thm_4_node_sensitivity_worst(node: Node, N: int, alpha: Number, G: Number = 1,
                                 dps: int = DEFAULT_DPS) -> mpf:
    """True worst-case node sensitivity over placements: 2 alpha G sup S (one occurrence per epoch
    meeting the node, each as late as possible: :func:`dpsym.aggregation.worst_node_weight`)."""
    ref = _ref("Thm 4 (App. D.1)")
    with precision(dps + GUARD_DPS):
        a, g = _pos(alpha, "alpha", ref), _pos(G, "G", ref)
        out = 2 * a * g * worst_node_weight(node, N, 1 - a)
    return round_up(out, dps)


@dataclass(frozen=True)
class RecordBudgetCheck:
    """Worst record footprint in Alg. 1's tree vs the budget Thm 4 grants it."""

    N: int
    T: int
    alpha: mpf
    used: mpf            # max over placements of sum_nu (Delta_nu / (4 alpha G))^2
    granted: mpf         # V
    count: int           # nodes the worst placement meets
    max_node_ratio: mpf  # max Delta_nu / (4 alpha G) at that placement
    exhaustive: bool

    @property
    def holds(self) -> bool:
        return self.used <= self.granted


def thm_4_record_budget(N: int, T: int, alpha: Number, limit: int = 20000,
                        dps: int = 30) -> RecordBudgetCheck:
    """For Alg. 1's calibration (every node 4 alpha G sigma sqrt V), the Gaussian budget one record
    uses is ``sum_nu (Delta_nu / 4 alpha G)^2 / (sigma^2 V)`` with ``Delta_nu = 2 alpha G S_nu``;
    Thm 4 needs ``sum_nu S_nu^2 / 4 <= V``.  Maximised over the record's placements
    (exhaustive up to ``limit`` placements)."""
    ref = _ref("Thm 4")
    N = require_integer("N", N, ref, minimum=1)
    T = require_integer("T", T, ref, minimum=1)
    with precision(dps):
        a = _pos(alpha, "alpha", ref)
        best, exhaustive = worst_record_budget(T, N, 1 - a, factor=lambda _v: mpf(1) / 2,
                                               limit=limit)
        V = alg_1_V(N, T)
        return RecordBudgetCheck(N, T, a, best.sum_sq, mpf(V.numerator) / V.denominator,
                                 best.count, best.max_weight, exhaustive)


# --- Lemma 5 -------------------------------------------------------------------------------

def lem_5(R: Number, eta: Number, T: Number, L: Number, mean_error: Number,
          dps: int = DEFAULT_DPS) -> mpf:
    """Lemma 5: E||grad F(w_hat)|| <= 3R/(2 eta T) + 3 L eta / 4 + (3/T) sum_t E||eps_hat_t||.

    ``mean_error`` is (1/T) sum_t E||m_hat_t - grad F(w_t)||; R bounds E[F(w_1) - F(w_{T+1})].
    """
    return fm.evaluate(fm.LEM_5, {"R": R, "eta": eta, "T": T, "L": L, "E1": mean_error}, dps=dps)


@dataclass(frozen=True)
class Lemma5Step:
    """The inner-product step of Lemma 5's proof at one (grad F, eps_hat) pair."""

    lhs: float          # -<g, m/||m||>, m = g + e
    rhs: float          # -2/3 ||g|| + 2 ||e||
    case2_claim: bool   # the proof's case 2 says lhs <= 0 when ||e|| > ||g||/2

    @property
    def final_holds(self) -> bool:
        return self.lhs <= self.rhs + 1e-12


def lem_5_step(g: np.ndarray, e: np.ndarray) -> Lemma5Step:
    """Evaluate Lemma 5's key inequality and its case-2 claim at g = grad F(w_t), e = eps_hat_t."""
    g, e = np.asarray(g, float), np.asarray(e, float)
    m = g + e
    require(np.linalg.norm(m) > 0, "e", "e = -g", "m_hat != 0 (the update divides by ||m_hat||)",
            _ref("Lemma 5"))
    lhs = float(-g @ m / np.linalg.norm(m))
    rhs = float(-2 / 3 * np.linalg.norm(g) + 2 * np.linalg.norm(e))
    case2 = bool(np.linalg.norm(e) > np.linalg.norm(g) / 2)
    return Lemma5Step(lhs, rhs, (not case2) or lhs <= 1e-12)


@dataclass(frozen=True)
class Lemma5Scan:
    """Seeded scan of Lemma 5's inner-product step over random (grad F, eps_hat) pairs."""

    samples: int
    final_violations: int      # -<g, m/|m|> > -2/3 |g| + 2 |e|
    case2_violations: int      # ||e|| > ||g||/2 and -<g, m/|m|> > 0 (the proof's case 2)
    max_final_gap: float       # max of lhs - rhs (<= 0 means the lemma's step holds)


def lem_5_scan(samples: int = 100000, seed: int = 0) -> Lemma5Scan:
    """Random g ~ N(0, I), e = s * N(0, I) with s log-uniform in [1e-2, 1e2], d in {1, 2, 3, 10}
    (the same inequality as :func:`lem_5_step`, vectorised)."""
    rng = np.random.default_rng(seed)
    final = case2 = 0
    worst = -np.inf
    for dim in (1, 2, 3, 10):
        n = samples // 4
        g = rng.standard_normal((n, dim))
        e = rng.standard_normal((n, dim)) * 10 ** rng.uniform(-2, 2, size=(n, 1))
        m = g + e
        nm, ng, ne = (np.linalg.norm(x, axis=1) for x in (m, g, e))
        keep = nm > 0
        lhs = -np.einsum("ij,ij->i", g, m)[keep] / nm[keep]
        rhs = -2 / 3 * ng[keep] + 2 * ne[keep]
        final += int(np.sum(lhs > rhs + 1e-12))
        case2 += int(np.sum((ne[keep] > ng[keep] / 2) & (lhs > 1e-12)))
        worst = max(worst, float(np.max(lhs - rhs)))
    return Lemma5Scan(4 * (samples // 4), final, case2, worst)


# --- Lemmas 11 and 12 ----------------------------------------------------------------------

def lem_11(G: Number, alpha: Number, eta: Number, N: Number, L: Number,
           dps: int = DEFAULT_DPS) -> mpf:
    """Lemma 11: E||m_t - grad F(w_t)|| <= 2 G sqrt(alpha) + 2 eta N L + eta L / alpha."""
    return fm.evaluate(fm.LEM_11, {"G": G, "alpha": alpha, "eta": eta, "N": N, "L": L}, dps=dps)


def lem_11_initial_error(alpha: Number, t: int, G: Number = 1, dps: int = DEFAULT_DPS) -> mpf:
    """||m_t - grad F(w_t)|| = (1-alpha)^t G when every record has the same linear loss
    f(w, x) = <g, w>, ||g|| = G (so L = 0, grad F = g, m_0 = 0 as in Alg. 1): the weights
    alpha sum_{i<=t} (1-alpha)^{t-i} = 1 - (1-alpha)^t miss the initial momentum."""
    ref = _ref("Lemma 11")
    t = require_integer("t", t, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        a, g = _pos(alpha, "alpha", ref), _pos(G, "G", ref)
        require(a <= 1, "alpha", alpha, "alpha <= 1", ref)
        # m_t = alpha sum_i (1-alpha)^{t-i} g, computed by the recursion itself.
        m = mpf(0)
        for _ in range(t):
            m = (1 - a) * m + a * g
        out = abs(m - g)
    with precision(dps):
        return +out


def lem_12(alpha: Number, G: Number, sigma: Number, d: Number, V: Number, T: Number,
           dps: int = DEFAULT_DPS) -> mpf:
    """Lemma 12: E||m_hat_t - m_t|| <= 4 alpha G sigma sqrt(d V log2 T)."""
    return fm.evaluate(fm.LEM_12, {"alpha": alpha, "G": G, "sigma": sigma, "d": d, "V": V,
                                 "T": T}, dps=dps)


def expected_gaussian_norm(d: int, dps: int = DEFAULT_DPS) -> mpf:
    """E||X|| for X ~ N(0, I_d): sqrt(2) Gamma((d+1)/2) / Gamma(d/2) (< sqrt(d))."""
    d = require_integer("d", d, "chi distribution mean", minimum=1)
    with precision(dps + GUARD_DPS):
        out = mpmath.sqrt(2) * mpmath.gamma(mpf(d + 1) / 2) / mpmath.gamma(mpf(d) / 2)
    with precision(dps):
        return +out


def lem_12_exact(alpha: Number, G: Number, sigma: Number, d: int, V: Number, t: int,
                 weighted: bool = True, dps: int = DEFAULT_DPS) -> mpf:
    """Exact E||m_hat_t - m_t|| of Algorithm 1: node std * sqrt(sum w^2) * E||N(0, I_d)||.

    ``weighted=True`` is Algorithm 1 (weights (1-alpha)^{t-z}); ``False`` is the unweighted
    noise_t of Lemma 12's proof.
    """
    ref = _ref("Lemma 12")
    t = require_integer("t", t, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        a = _pos(alpha, "alpha", ref)
        v = to_mpf(V, "V", ref)
        s = alg_1_node_std(a, G, sigma, v, dps=dps + GUARD_DPS)
        beta = (1 - a) if weighted else mpf(1)
        var = prefix_noise_variance(t, beta, s * s)
        out = mpmath.sqrt(var) * expected_gaussian_norm(d, dps=dps + GUARD_DPS)
    with precision(dps):
        return +out


# --- Theorem 6 -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Thm6Parameters:
    """Theorem 6's choices at (N, eps, delta, d): T solves T log2 T = eps N^2 / sqrt(d ell)."""

    T: mpf
    eta: mpf
    alpha: mpf
    sigma: mpf
    ell: mpf


def thm_6_parameters(N: Number, eps: Number, delta: Number, d: Number,
                     dps: int = DEFAULT_DPS) -> Thm6Parameters:
    """Thm 6's T (Lambert W: T = c ln 2 / W(c ln 2), c = eps N^2 / sqrt(d ell)), eta, alpha (= 1/N
    at that T), sigma = 2 sqrt(ell) / eps.  T is real here; :func:`alg_1` rounds it down."""
    ref = _ref("Thm 6")
    with precision(dps + GUARD_DPS):
        n, e, dd = _pos(N, "N", ref), _pos(eps, "eps", ref), _pos(d, "d", ref)
        require(n >= 1, "N", N, "N >= 1 (the number of samples)", ref)
        ell = _ell(delta, ref)
        c = fm.evaluate(fm.THM_6_T * fm.lg, {"epsilon": e, "N": n, "d": dd, "ell": ell, "lg": 1},
                       dps=dps + GUARD_DPS)
        T = c * mpmath.log(2) / mpmath.lambertw(c * mpmath.log(2)).real
        # the rates divide by log2 T: T log2 T = eps N^2 / sqrt(d ell) must leave T > 1
        require(T > 1, "eps", eps, f"T > 1 steps, i.e. eps N^2 / sqrt(d ln(1/delta)) = "
                f"{mpmath.nstr(c, 6)} > 0 at {dps} digits (with N = {N}, d = {d})", ref)
        vals = {"epsilon": e, "N": n, "d": dd, "ell": ell, "T": T}
        eta = fm.evaluate(fm.ETA, vals, dps=dps + GUARD_DPS)
        alpha = fm.evaluate(fm.THM_6_ALPHA, vals, dps=dps + GUARD_DPS)
        sigma = fm.evaluate(fm.THM_4_SIGMA, vals, dps=dps + GUARD_DPS)
    with precision(dps):
        return Thm6Parameters(+T, +eta, +alpha, +sigma, +ell)


def thm_6(R: Number, L: Number, G: Number, N: Number, eps: Number, delta: Number, d: Number,
          T: Number | None = None, dps: int = DEFAULT_DPS) -> mpf:
    """Theorem 6's printed bound on E||grad F(w_hat)|| (T: :func:`thm_6_parameters` if omitted)."""
    ref = _ref("Thm 6")
    with precision(dps + GUARD_DPS):
        ell = _ell(delta, ref)
        TT = thm_6_parameters(N, eps, delta, d, dps=dps + GUARD_DPS).T if T is None else T
    return fm.evaluate(fm.THM_6_PRINTED, {"R": R, "L": L, "G": G, "N": N, "epsilon": eps,
                                        "ell": ell, "d": d, "T": TT}, dps=dps)


# --- Algorithm 1, run ----------------------------------------------------------------------

@dataclass(frozen=True)
class Alg1Run:
    """Iterates of one run (float64): ``w[t-1] = w_t`` for t = 1..T+1."""

    w: np.ndarray
    noise_norms: np.ndarray   # ||m_hat_t - m_t||
    V: Fraction
    node_std: float


def alg_1(grad: Callable[[np.ndarray, int], np.ndarray], N: int, T: int, w1: np.ndarray,
          eta: float, alpha: float, sigma: float, G: float, seed: int = 0,
          R: int | None = None, fixed_permutation: bool = False) -> Alg1Run:
    """Run Algorithm 1 (float64 simulation, seeded).

    ``grad(w, i)`` is grad f(w, x_i) for record i in 0..N-1.  Node noises are drawn once each,
    when first used.  ``fixed_permutation`` reuses one permutation for every epoch (the paper
    draws a fresh one per epoch).
    """
    ref = _ref("Alg. 1")
    N = require_integer("N", N, ref, minimum=1)
    T = require_integer("T", T, ref, minimum=1)
    R = alg_1_depth(T) if R is None else R
    require(alg_1_depth(T) <= R, "R", R, f"R >= floor(log2 T) + 1 = {alg_1_depth(T)}", ref)
    V = alg_1_V(N, T, R)
    s = float(alg_1_node_std(alpha, G, sigma, V, dps=20))
    rng = np.random.default_rng(seed)
    w = np.array(w1, dtype=float)
    dim = w.size
    Z: dict[Node, np.ndarray] = {}
    ws = [w.copy()]
    noise_norms = []
    m = np.zeros(dim)
    perm = rng.permutation(N)
    for t in range(1, T + 1):
        _q, slot = epoch_of(t, N)
        if slot == 1 and t > 1 and not fixed_permutation:
            perm = rng.permutation(N)
        m = (1 - alpha) * m + alpha * grad(w, int(perm[slot - 1]))
        noise = np.zeros(dim)
        for v, c in window_coefficients(1, t, 1 - alpha):
            if v not in Z:
                Z[v] = rng.standard_normal(dim) * s
            noise += c * Z[v]
        m_hat = m + noise
        noise_norms.append(float(np.linalg.norm(noise)))
        w = w - eta * m_hat / np.linalg.norm(m_hat)
        ws.append(w.copy())
    return Alg1Run(np.array(ws), np.array(noise_norms), V, s)

