"""Tran & Cutkosky 2022, Sec. 4, App. B and E: Algorithm 2, Lemma 17 / Eq. (3), Algorithm 4,
Lemma 7, Theorems 8 and 9.

Notation.  Steps t = 1..T; epoch ``q_t = floor((t-1)/N)``; ``A_q`` is the anchor, the iterate at
the first step of epoch q (the paper's ``w_{q_t N}``, "the iterate at the beginning of the
epoch").  With ``g_t = grad f(A_{q_t}, x_t)`` and ``beta = 1 - alpha``:

* ``G_[a,b] = sum_{t=a}^{b} beta^{b-t} g_t``,
* ``Delta_[a,b] = sum beta^{b-t} (grad f(A_{q_t}, x_t) - grad f(A_{q_t - 1}, x_t))``,
* ``r_[a,b] = sum beta^{b-t} (grad f(w_t, x_t) - grad f(A_{q_t}, x_t))``,

so ``m_t = alpha G_[1,t] + alpha r_[1,t]`` (Eq. 2).  Lemma 17 (Eq. 3) rewrites ``G_[1,t]``, with
``t = qN + r``, ``r in [0, N-1]``, as ``beta^{t-r} G_[1,r] + (sum_i beta^{Ni} (1-gamma)^{q-i-1})
G_[r+1,r+N] + sum_{i=1}^{q-1} C_i ((1-gamma) Delta_{W_i} + gamma G_{W_i})`` over the windows
``W_i = [t-iN+1, t-(i-1)N]``, ``C_i = sum_{j<i} (1-gamma)^j beta^{(i-1-j)N}``.  Algorithm 4
evaluates this with every window sum taken through COMPOSE from three noisy trees (F^G,
F^Delta, F^r); :func:`alg_4_coefficients` is that linear map, used both to reconstruct
(:func:`alg_4`) and for the exact noise variance (:func:`alg_2_noise_variance`).

Lemma 17 needs the sample at step t to be the sample at step t - N (one permutation for all
epochs): :func:`lem_17_residual` shows it symbolically, :func:`lem_17_reconstruction_error`
numerically.  :func:`alg_2` runs Algorithm 2 (float64) with either permutation rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.aggregation import (
    GaussianGuarantee,
    Node,
    budget_guarantee,
    dyadic_nodes,
    epoch_of,
    expand_windows,
    max_node_count,
    node_values,
    released_at,
    window_coefficients,
    worst_record_budget,
)
from dpsym.errors import require, require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.registry import cite
from dpsym.papers.tran2022 import formulas as fm

__all__ = [
    "Alg2Run",
    "Thm9Parameters",
    "alg_2",
    "alg_2_V",
    "alg_2_node_std",
    "alg_2_noise_variance",
    "alg_4",
    "alg_4_coefficients",
    "alg_4_noise_monte_carlo",
    "lem_7",
    "lem_7_var2_forms",
    "lem_17_reconstruction_error",
    "lem_17_residual",
    "lem_17_windows",
    "thm_8",
    "thm_8_g_budget_le_2n",
    "thm_8_sigma",
    "thm_9",
    "thm_9_parameters",
    "v_le_2n_count",
]

PAPER = "tran2022"


def _ref(what: str) -> str:
    return cite(PAPER, what)


# --- Lemma 17 and Algorithm 4 --------------------------------------------------------------

def lem_17_windows(t: int, N: int, beta: Any, gamma: Any) -> list[tuple[str, int, int, Any]]:
    """The right-hand side of Lemma 17 (Eq. 3) as weighted windows ``(tree, a, b, weight)``.

    ``tree`` is ``"G"`` or ``"D"`` (Delta).  The i = 0 term of Algorithm 4's loop multiplies a
    window of future steps by an empty sum and is left out.
    """
    ref = _ref("Lemma 17")
    t = require_integer("t", t, ref, minimum=1)
    N = require_integer("N", N, ref, minimum=1)
    q, r = divmod(t, N)
    out: list[tuple[str, int, int, Any]] = []
    if r >= 1:
        out.append(("G", 1, r, beta ** (t - r)))
    if q >= 1:
        w = 0
        for i in range(q):
            w = w + beta ** (N * i) * (1 - gamma) ** (q - i - 1)
        out.append(("G", r + 1, r + N, w))
    c: Any = 1  # C_1; C_{i+1} = beta^N C_i + (1-gamma)^i
    for i in range(1, q):
        a, b = t - i * N + 1, t - (i - 1) * N
        out.append(("D", a, b, c * (1 - gamma)))
        out.append(("G", a, b, c * gamma))
        c = beta**N * c + (1 - gamma) ** i
    return out


def alg_4_coefficients(t: int, N: int, alpha: Any, gamma: Any) -> dict[tuple[str, Node], Any]:
    """Algorithm 4 as a linear map: ``m_hat_t = sum coef[(tree, node)] * F_hat^tree[node]``.

    ``tree`` in ``"G"``, ``"D"`` (F^Delta), ``"r"``.  Generic in the number type of alpha, gamma.
    """
    beta = 1 - alpha
    wins = [(tree, a, b, alpha * w) for tree, a, b, w in lem_17_windows(t, N, beta, gamma)]
    wins.append(("r", 1, t, alpha))
    return expand_windows(wins, beta)


def alg_4(values: dict[str, dict[Node, Any]], t: int, N: int, alpha: Any, gamma: Any) -> Any:
    """Algorithm 4 (App. B): ``m_hat_t`` from the released node values of the three trees."""
    total: Any = 0
    for (tree, v), c in alg_4_coefficients(t, N, alpha, gamma).items():
        total = total + c * values[tree][v]
    return total


def _rotation(N: int, q: int) -> list[int]:
    return [(k + q) % N for k in range(N)]


def lem_17_residual(N: int, T: int, fresh: bool) -> sp.Expr:
    """G_[1,T] minus the right-hand side of Lemma 17, expanded, for symbolic anchor gradients.

    ``g_{q,k}`` stands for grad f(A_q, x_k).  Epoch q samples x_{pi^q(slot)}: the identity
    permutation every epoch (``fresh=False``), or a different one per epoch (``fresh=True``:
    the rotation k -> k + q mod N, a deterministic stand-in for a fresh draw).  The residual
    is a polynomial in alpha, gamma and the g's; 0 means the identity holds for every alpha,
    gamma and every loss.
    """
    ref = _ref("Lemma 17")
    N = require_integer("N", N, ref, minimum=2)
    T = require_integer("T", T, ref, minimum=1)
    alpha, gamma = sp.symbols("alpha gamma")
    beta = 1 - alpha
    g = {(q, k): sp.Symbol(f"g_{q}_{k}") for q in range(-1, T // N + 2) for k in range(N)}

    def x(t: int) -> int:
        q, slot = epoch_of(t, N)
        return (_rotation(N, q) if fresh else list(range(N)))[slot - 1]

    def leaf(tree: str, t: int) -> sp.Expr:
        q = epoch_of(t, N)[0]
        return g[(q, x(t))] if tree == "G" else g[(q, x(t))] - g[(q - 1, x(t))]

    def window(tree: str, a: int, b: int) -> sp.Expr:
        return sum(beta ** (b - t) * leaf(tree, t) for t in range(a, b + 1))

    rhs = sum(w * window(tree, a, b) for tree, a, b, w in lem_17_windows(T, N, beta, gamma))
    return sp.expand(window("G", 1, T) - rhs)


def lem_17_reconstruction_error(N: int, T: int, d: int = 3, alpha: float = 0.3,
                                gamma: float = 0.2, fresh: bool = False, seed: int = 0) -> float:
    """max_t ||Alg. 4's G_[1,t] - G_[1,t]|| / max_t ||G_[1,t]||, noise-free trees (float64).

    Anchor gradients grad f(A_q, x_k) are i.i.d. standard Gaussian vectors in R^d (seeded);
    permutations are one fixed uniform draw (``fresh=False``) or a fresh uniform draw per epoch.
    """
    ref = _ref("Lemma 17")
    N = require_integer("N", N, ref, minimum=1)
    T = require_integer("T", T, ref, minimum=1)
    rng = np.random.default_rng(seed)
    epochs = T // N + 2
    grads = rng.standard_normal((epochs + 1, N, d))  # grads[q + 1] = anchor q's gradients
    fixed = rng.permutation(N)
    perms = [fixed if not fresh else rng.permutation(N) for _ in range(epochs)]
    leaves_g, leaves_d = [], []
    for t in range(1, T + 1):
        q, slot = epoch_of(t, N)
        k = perms[q][slot - 1]
        leaves_g.append(grads[q + 1, k])
        leaves_d.append(grads[q + 1, k] - grads[q, k])
    beta = 1 - alpha
    trees = {"G": node_values(leaves_g, beta), "D": node_values(leaves_d, beta)}
    worst, size = 0.0, 0.0
    direct = np.zeros(d)
    for t in range(1, T + 1):
        direct = beta * direct + leaves_g[t - 1]
        wins = lem_17_windows(t, N, beta, gamma)
        est = np.zeros(d)
        for (tree, v), c in expand_windows(wins, beta).items():
            est = est + c * trees[tree][v]
        worst = max(worst, float(np.linalg.norm(est - direct)))
        size = max(size, float(np.linalg.norm(direct)))
    return worst / size


# --- Algorithm 2's noise, Lemma 7, Theorem 8 ------------------------------------------------

def alg_2_V(N: Number, T: Number, dps: int = DEFAULT_DPS) -> tuple[mpf, mpf]:
    """Algorithm 2's node counts (V_{<=2N}, V_{>2N}) = (3 log2 N, 4 (T/N) log2 N)."""
    vals = {"N": N, "T": T}
    return fm.evaluate(fm.ALG2_V_LE, vals, dps=dps), fm.evaluate(fm.ALG2_V_GT, vals, dps=dps)


def alg_2_node_std(tree: str, node: Node, N: Number, T: Number, sigma: Number, G: Number,
                   L: Number, eta: Number, printed: bool = False,
                   dps: int = DEFAULT_DPS) -> mpf:
    """Standard deviation of a node's noise in Algorithm 2.

    G nodes: ``delta_G sigma sqrt(V)`` with ``delta_G = 4G`` and V_{<=2N} if the node ends at
    step <= 2N, else V_{>2N}.  Delta and r nodes: ``2 eta N L sigma sqrt(V_{>2N})`` (App. E.1);
    ``printed=True`` uses Algorithm 2's ``2 eta N`` (no L).
    """
    ref = _ref("Alg. 2")
    require(tree in ("G", "D", "r"), "tree", tree, "'G', 'D' or 'r'", ref)
    with precision(dps + GUARD_DPS):
        v_le, v_gt = alg_2_V(N, T, dps=dps + GUARD_DPS)
        s = to_mpf(sigma, "sigma", ref)
        if tree == "G":
            out = 4 * to_mpf(G) * s * mpmath.sqrt(v_le if node.z <= 2 * to_mpf(N) else v_gt)
        else:
            sens = 2 * to_mpf(eta) * to_mpf(N) * (1 if printed else to_mpf(L))
            out = sens * s * mpmath.sqrt(v_gt)
    with precision(dps):
        return +out


def alg_2_noise_variance(t: int, N: int, T: Number, alpha: Number, gamma: Number,
                         sigma: Number, G: Number, L: Number, eta: Number,
                         dps: int = 30, float64: bool = False) -> mpf | float:
    """Exact per-coordinate variance of ``m_hat_t - m_t`` in Algorithm 2 (Algorithm 4's map).

    ``sum_{(tree, node)} coef^2 * std(tree, node)^2`` with the coefficients of
    :func:`alg_4_coefficients` (a node used by several windows carries one noise vector).
    ``float64=True`` runs the same map in floating point (for plotting sweeps).
    """
    ref = _ref("Alg. 2 / Alg. 4")
    t = require_integer("t", t, ref, minimum=1)
    N = require_integer("N", N, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        a, g = to_mpf(alpha, "alpha", ref), to_mpf(gamma, "gamma", ref)
        stds = {tr: {} for tr in ("G", "D", "r")}

        def std2(tree: str, v: Node) -> Any:
            key = "le" if (tree == "G" and v.z <= 2 * N) else "gt"
            if key not in stds[tree]:
                s = alg_2_node_std(tree, v, N, T, sigma, G, L, eta, dps=dps + GUARD_DPS)
                stds[tree][key] = float(s) ** 2 if float64 else s * s
            return stds[tree][key]

        coefs = alg_4_coefficients(t, N, float(a) if float64 else a, float(g) if float64 else g)
        total: Any = 0.0 if float64 else mpf(0)
        for (tree, v), c in coefs.items():
            total += c * c * std2(tree, v)
    if float64:
        return float(total)
    with precision(dps):
        return +total


@dataclass(frozen=True)
class Alg4MonteCarlo:
    """Exact vs sampled variance of the noise Algorithm 4 carries into m_hat_t (one coordinate)."""

    exact: float
    sampled: float
    draws: int
    z: float          # (sampled - exact) / (exact sqrt(2/draws))


def alg_4_noise_monte_carlo(t: int, N: int, T: int, alpha: float, gamma: float, sigma: float,
                            G: float, L: float, eta: float, draws: int = 40000,
                            seed: int = 0) -> Alg4MonteCarlo:
    """Sample the noise of m_hat_t window by window, as Eq. (3) reads: one Gaussian per node
    of each tree (:func:`alg_2_node_std`), each window of :func:`lem_17_windows` rebuilt through
    COMPOSE on its own (a node shared by windows is the same draw), weighted as in Algorithm 4,
    plus the r prefix.  Compared with :func:`alg_2_noise_variance` (coefficients merged per
    node) it checks the merge and the per-node variances."""
    ref = _ref("Alg. 4")
    t = require_integer("t", t, ref, minimum=1)
    draws = require_integer("draws", draws, ref, minimum=2)
    exact = float(alg_2_noise_variance(t, N, T, alpha, gamma, sigma, G, L, eta))
    rng = np.random.default_rng(seed)
    z = {(tr, v): rng.standard_normal(draws) * float(
        alg_2_node_std(tr, v, N, T, sigma, G, L, eta, dps=20))
        for tr in ("G", "D", "r") for v in dyadic_nodes(t)}
    x = np.zeros(draws)
    beta = 1 - alpha
    wins = [(tr, a, b, alpha * w) for tr, a, b, w in lem_17_windows(t, N, beta, gamma)]
    for tr, a, b, w in [*wins, ("r", 1, t, alpha)]:
        for v, c in window_coefficients(a, b, beta):
            x += w * c * z[(tr, v)]
    sampled = float(np.mean(x**2))
    return Alg4MonteCarlo(exact, sampled, draws, (sampled - exact) / (exact * np.sqrt(2 / draws)))


def lem_7(G: Number, L: Number, alpha: Number, eta: Number, d: Number, T: Number, N: Number,
          eps: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma 7's printed bound on E||m_hat_t - m_t|| (gamma = eta N and sigma = 4 sqrt(ell)/eps
    already substituted, as printed)."""
    ref = _ref("Lemma 7")
    with precision(dps + GUARD_DPS):
        dl = to_mpf(delta, "delta", ref)
        require(0 < dl < 1, "delta", delta, "0 < delta < 1", ref)
        ell = mpmath.log(1 / dl)
    return fm.evaluate(fm.LEM_7, {"G": G, "L": L, "alpha": alpha, "eta": eta, "d": d, "T": T,
                                "N": N, "epsilon": eps, "ell": ell}, dps=dps)


@dataclass(frozen=True)
class Var2Forms:
    """Lemma 7's Var_2: the weight of G_[r+1,r+N]'s noise in alpha G_[1,t], three ways."""

    sum_of_squares: mpf   # sum_i (1-alpha)^{2Ni} (1-gamma)^{2(q-i-1)}: the first printed line
    square_of_sum: mpf    # (sum_i (1-alpha)^{Ni} (1-gamma)^{q-i-1})^2: one noise vector, the truth
    printed_bound: mpf    # 1/(1 - e^-1)^2: the printed final bound


def lem_7_var2_forms(N: int, q: int, alpha: Number, gamma: Number,
                     dps: int = DEFAULT_DPS) -> Var2Forms:
    """Var_2 of Lemma 7's proof (App. E.2).  The noise of the window G_[r+1,r+N] is one random
    vector, used with weight (1-alpha)^{Ni}(1-gamma)^{q-i-1} for every i (Eq. (3)); the first
    printed line sums the squared weights, which understates its variance, while the printed
    final bound 1/(1-e^-1)^2 bounds the square of the summed weights (Prop. 14's special case)."""
    ref = _ref("Lemma 7 (Var_2)")
    N = require_integer("N", N, ref, minimum=1)
    q = require_integer("q", q, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        a, g = to_mpf(alpha, "alpha", ref), to_mpf(gamma, "gamma", ref)
        require(0 < a <= 1, "alpha", alpha, "0 < alpha <= 1", ref)
        require(0 < g < 1, "gamma", gamma, "0 < gamma < 1", ref)
        w = [(1 - a) ** (N * i) * (1 - g) ** (q - i - 1) for i in range(q)]
        out = Var2Forms(mpmath.fsum(x * x for x in w), mpmath.fsum(w) ** 2,
                        1 / (1 - mpmath.exp(-1)) ** 2)
    with precision(dps):
        return Var2Forms(+out.sum_of_squares, +out.square_of_sum, +out.printed_bound)


def thm_8(sigma: Number, k: int = 3, dps: int = DEFAULT_DPS) -> GaussianGuarantee:
    """Theorem 8: Algorithm 2 is (z, 3z/(2 sigma^2))-RDP (``k = 3`` budgets as printed); the
    per-tree count of App. E.1 gives ``k = 4`` (G inside [1, 2N], G outside, Delta, r)."""
    return budget_guarantee(k, sigma, dps=dps)


def thm_8_sigma(eps: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Theorem 8's noise multiplier 4 sqrt(log(1/delta)) / eps."""
    ref = _ref("Thm 8")
    with precision(dps + GUARD_DPS):
        dl = to_mpf(delta, "delta", ref)
        require(0 < dl < 1, "delta", delta, "0 < delta < 1", ref)
        e = to_mpf(eps, "eps", ref)
        require(e > 0, "eps", eps, "eps > 0", ref)
        out = fm.evaluate(fm.THM_8_SIGMA, {"ell": mpmath.log(1 / dl), "epsilon": e},
                         dps=dps + GUARD_DPS)
    return round_up(out, dps)


def v_le_2n_count(N: int) -> int:
    """Exact max over placements of the number of tree nodes ending at step <= 2N that contain a
    record (it occurs once in each of epochs 0 and 1); App. E.1 grants V_{<=2N} = 3 log2 N."""
    N = require_integer("N", N, _ref("Thm 8"), minimum=1)
    count, exhaustive = max_node_count(2 * N, N, dyadic_nodes(2 * N))
    assert exhaustive  # N^2 placements
    return count


def thm_8_g_budget_le_2n(N: int, alpha: Number, dps: int = 30) -> tuple[mpf, mpf]:
    """(budget used, granted) by the G-tree nodes ending <= 2N for the worst placement.

    Used: ``sum_nu (Delta_nu / delta_G)^2`` with ``Delta_nu = 2G S_nu`` (one 2G per occurrence,
    weights beta^{z-t}) and ``delta_G = 4G``; granted: V_{<=2N} = 3 log2 N (App. E.1).
    """
    ref = _ref("Thm 8")
    N = require_integer("N", N, ref, minimum=2)
    with precision(dps):
        a = to_mpf(alpha, "alpha", ref)
        best, _ = worst_record_budget(2 * N, N, 1 - a, dyadic_nodes(2 * N),
                                      factor=lambda _v: mpf(1) / 2)
        return best.sum_sq, alg_2_V(N, 2 * N, dps=dps)[0]


# --- Theorem 9 -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Thm9Parameters:
    """Theorem 9's choices at (N, eps, d): T = N^(7/3) eps^(4/3) / d^(2/3), eta = 1/sqrt(NT),
    gamma = eta N, alpha = N^(3/4) eps / (T^(3/4) sqrt d) (= 1/N at that T)."""

    T: mpf
    eta: mpf
    gamma: mpf
    alpha: mpf


def thm_9_parameters(N: Number, eps: Number, d: Number, T: Number | None = None,
                     dps: int = DEFAULT_DPS) -> Thm9Parameters:
    """Theorem 9's parameters; an integer ``T`` (e.g. the floor) evaluates alpha, eta there."""
    vals = {"N": N, "epsilon": eps, "d": d}
    if T is None:
        TT = fm.evaluate(fm.THM_9_T, vals, dps=dps)
    else:
        with precision(dps):
            TT = to_mpf(T, "T", _ref("Thm 9"))
    vals["T"] = TT
    eta = fm.evaluate(fm.ETA, vals, dps=dps)
    return Thm9Parameters(TT, eta, fm.evaluate(fm.GAMMA_9.subs(fm.eta, fm.ETA), vals, dps=dps),
                          fm.evaluate(fm.THM_9_ALPHA, vals, dps=dps))


def thm_9(R: Number, L: Number, G: Number, N: Number, eps: Number, delta: Number, d: Number,
          dps: int = DEFAULT_DPS) -> mpf:
    """Theorem 9's printed bound on E||grad F(w_hat)|| (K = 16 log2 T log(1/delta), T = T_9).

    Its domain: N >= 1 samples, eps > 0, dimension d >= 1, and at least one step,
    T = N^(7/3) eps^(4/3) / d^(2/3) >= 1, i.e. d <= N^(7/2) eps^2 (below, log2 T < 0 and
    the printed bound turns negative).
    """
    ref = _ref("Thm 9")
    with precision(dps + GUARD_DPS):
        dl = to_mpf(delta, "delta", ref)
        require(0 < dl < 1, "delta", delta, "0 < delta < 1", ref)
        Nv, ev, dv = to_mpf(N, "N", ref), to_mpf(eps, "eps", ref), to_mpf(d, "d", ref)
        require(Nv >= 1, "N", N, "N >= 1 (the number of samples)", ref)
        require(ev > 0, "eps", eps, "eps > 0", ref)
        require(dv >= 1, "d", d, "d >= 1 (the dimension)", ref)
        d_max = Nv ** mpf(3.5) * ev**2
        require(dv <= d_max, "d", d, f"d <= N^(7/2) eps^2 = {mpmath.nstr(d_max, 8)} (at least "
                "one step: T = N^(7/3) eps^(4/3) / d^(2/3) >= 1)", ref)
        ell = mpmath.log(1 / dl)
        TT = thm_9_parameters(N, eps, d, dps=dps + GUARD_DPS).T
    return fm.evaluate(fm.THM_9_PRINTED, {"R": R, "L": L, "G": G, "N": N, "epsilon": eps,
                                        "ell": ell, "d": d, "T": TT}, dps=dps)


# --- Algorithm 2, run ----------------------------------------------------------------------

@dataclass(frozen=True)
class Alg2Run:
    """One run of Algorithm 2 (float64): iterates and the reconstruction's exactness."""

    w: np.ndarray                 # w_1..w_{T+1}
    recon_rel_error: float        # max_t ||m_hat_t - m_t - noise_t|| / max_t ||m_t||
    gradient_evaluations: int


def alg_2(grad: Callable[[np.ndarray, int], np.ndarray], N: int, T: int, w1: np.ndarray,
          eta: float, alpha: float, gamma: float, sigma: float, G: float, L: float,
          seed: int = 0, fixed_permutation: bool = True, noise: bool = True) -> Alg2Run:
    """Run Algorithm 2 with Algorithm 4's reconstruction (float64 simulation, seeded).

    Every node of the three trees is released once, at its last step, with the noise of
    :func:`alg_2_node_std`; ``m_hat_t`` is rebuilt by :func:`alg_4` from the noisy nodes and
    the step is ``w_{t+1} = w_t - eta m_hat_t / ||m_hat_t||``.  The true momentum m_t is
    tracked alongside, so ``recon_rel_error`` measures how far Algorithm 4's value, minus the
    noise it carries, is from m_t: ~1e-16 when Lemma 17 holds (one permutation for all
    epochs, ``fixed_permutation=True``), O(1) with a fresh permutation per epoch.
    """
    ref = _ref("Alg. 2")
    N = require_integer("N", N, ref, minimum=1)
    T = require_integer("T", T, ref, minimum=1)
    rng = np.random.default_rng(seed)
    beta = 1.0 - alpha
    w = np.array(w1, dtype=float)
    dim = w.size
    stds: dict[tuple[str, bool], float] = {}

    def std(tree: str, v: Node) -> float:
        key = (tree, tree == "G" and v.z <= 2 * N)
        if key not in stds:
            stds[key] = float(alg_2_node_std(tree, v, N, T, sigma, G, L, eta, dps=20))
        return stds[key]

    clean: dict[str, dict[Node, np.ndarray]] = {"G": {}, "D": {}, "r": {}}
    noisy: dict[str, dict[Node, np.ndarray]] = {"G": {}, "D": {}, "r": {}}
    noise_of: dict[str, dict[Node, np.ndarray]] = {"G": {}, "D": {}, "r": {}}
    leaves: dict[str, dict[int, np.ndarray]] = {"G": {}, "D": {}, "r": {}}
    anchors: list[np.ndarray] = []
    perm = rng.permutation(N)
    m = np.zeros(dim)
    ws = [w.copy()]
    worst, size, evals = 0.0, 0.0, 0
    for t in range(1, T + 1):
        q, slot = epoch_of(t, N)
        if slot == 1:
            anchors.append(w.copy())
            if t > 1 and not fixed_permutation:
                perm = rng.permutation(N)
        k = int(perm[slot - 1])
        g_anchor = grad(anchors[q], k)
        g_now = grad(w, k)
        evals += 2
        leaves["G"][t] = g_anchor
        leaves["r"][t] = g_now - g_anchor
        if q >= 1:
            leaves["D"][t] = g_anchor - grad(anchors[q - 1], k)
            evals += 1
        m = beta * m + alpha * g_now
        for v in released_at(t):
            for tree in ("G", "D", "r"):
                if tree == "D" and v.y <= N:
                    continue
                if v.length == 1:
                    val = leaves[tree][t]
                else:
                    h = v.length // 2
                    val = beta**h * clean[tree][Node(v.y, v.y + h - 1)] + clean[tree][
                        Node(v.y + h, v.z)]
                clean[tree][v] = val
                z = rng.standard_normal(dim) * std(tree, v) if noise else np.zeros(dim)
                noise_of[tree][v] = z
                noisy[tree][v] = val + z
        m_hat = alg_4(noisy, t, N, alpha, gamma)
        carried = alg_4(noise_of, t, N, alpha, gamma)
        worst = max(worst, float(np.linalg.norm(m_hat - carried - m)))
        size = max(size, float(np.linalg.norm(m)))
        w = w - eta * m_hat / np.linalg.norm(m_hat)
        ws.append(w.copy())
    return Alg2Run(np.array(ws), worst / size, evals)

