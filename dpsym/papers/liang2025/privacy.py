"""Liang et al. 2025, Sec. 3.1 and App. B: last-iterate RDP of DPSGD-GC and DPSGD-DC.

The bounds are *assembled* here, with sympy, from the pieces the proofs combine, and the
numeric functions evaluate the assembled expressions (lambdified to mpmath), so that each
formula lives in one place and the ledger can compare it with what the paper prints
(:mod:`.printed`):

* the Gaussian Renyi divergence ``D_alpha(N(u, s^2) || N(0, s^2)) = alpha u^2 / (2 s^2)``,
  integrated by sympy (:func:`dpsym.fdp.symbolic.gaussian_renyi_divergence`);
* Lemma 2.6 (shift reduction): a shift ``a`` absorbed by noise of variance ``s^2`` costs
  ``alpha a^2 / (2 s^2)``; the proofs use ``s^2 = (1 - beta) eta^2 sigma^2``;
* Lemma 3.2, eq. (10): with probability ``q = b/n`` the differing example is in the batch,
  the means differ by at most ``2 eta C / b`` and the noise of psi has variance
  ``beta eta^2 sigma^2``; convexity in the second argument (Lemma A.9) weights the Gaussian
  cost by ``q``: ``2 alpha C^2 / (beta n b sigma^2)`` (eqs. (38)-(40));
* Lemma 3.2, eq. (11): Lemma A.12 (Mironov, Talwar & Zhang 2019, Thm 11),
  ``2 alpha q^2 / s^2`` at ``q = b/n``, ``s = b sqrt(beta) sigma / (2C)``, under
  ``b <= n/5``, ``sigma > 8C/(b sqrt(beta))`` and ``alpha <= alpha*(q, s)``;
* eq. (44) (Thm 3.3): the recursion with all shifts ``a_t = 0`` sums ``T`` per-step costs;
* eqs. (47)-(48) (Thm 3.4): starting at ``z_tau = D`` (free: both iterates lie in K) the
  paper pays the whole shift at once, ``a_tau = (1 + eta L) D``, and the minimum over
  ``tau`` is at ``tau = T - 1``.

Adjacency.  The proof of (10) takes ``D' = D u {x}`` and bounds
``D_alpha(P_D || P_D')`` only (the mixture in the second argument); (10), (12) and (14)
are *not* proved, and are false, in the other order (:mod:`.adjacency`).  The "n^2"
variants (11), (13), (15) rest on Lemma A.12, which covers both orders.

Symbols: see :mod:`dpsym.papers.liang2025._common`.  Every bound is computed with guard
digits and rounded up.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.errors import require
from dpsym.fdp.symbolic import gaussian_renyi_divergence
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.liang2025._common import PAPER, S, check
from dpsym.papers.registry import cite
from dpsym.rdp.conversions import epsilon_from_rdp
from dpsym.rdp.gaussian_mixture import sgm_alpha_star
from dpsym.shifts.smooth_reduction import shift_cost_of_schedule

__all__ = [
    "VARIANTS",
    "algorithm_1_updates",
    "eq_10_add_remove_expr",
    "eq_10_expr",
    "eq_11_expr",
    "eq_12_expr",
    "eq_13_expr",
    "eq_14_expr",
    "eq_15_expr",
    "eq_47",
    "eq_48",
    "eq_48_expr",
    "gaussian_cost_expr",
    "lem_2_4",
    "lem_2_6_expr",
    "lem_3_2",
    "lem_3_2_cost_expr",
    "lem_a_12_expr",
    "sgm_admissible",
    "sgm_noise",
    "thm_3_3",
    "thm_3_4",
]

#: "nb": eqs. (10), (12), (14), no side conditions; "n2": eqs. (11), (13), (15), under
#: b <= n/5, sigma > 8C/(b sqrt(beta)), alpha <= alpha*(b/n, b sqrt(beta) sigma/(2C)).
VARIANTS = ("nb", "n2")

REF_32 = cite(PAPER, "Lemma 3.2")
REF_33 = cite(PAPER, "Thm 3.3")
REF_34 = cite(PAPER, "Thm 3.4")


# --- the pieces, symbolically ----------------------------------------------------------------

@functools.cache
def gaussian_cost_expr() -> tuple[sp.Expr, sp.Symbol, sp.Symbol]:
    """``(alpha u^2/(2 s2), u, s2)``: D_alpha(N(u, s2) || N(0, s2)) from the sympy integral."""
    d = gaussian_renyi_divergence()
    by_name = {s.name: s for s in d.derived.free_symbols}
    mu, alpha = by_name["mu"], by_name["alpha"]
    u, s2 = sp.symbols("u s2", positive=True)
    return d.derived.subs({mu: u / sp.sqrt(s2), alpha: S.alpha}), u, s2


def lem_2_6_expr(a: sp.Expr, s2: sp.Expr) -> sp.Expr:
    """Lemma 2.6: the cost ``alpha a^2 / (2 s2)`` of reducing a shift by ``a`` with noise
    of variance ``s2`` (the Gaussian divergence at mean difference ``a``)."""
    g, u, v = gaussian_cost_expr()
    return g.subs({u: a, v: s2})


def lem_3_2_cost_expr(shift: sp.Expr) -> sp.Expr:
    """The step cost of B.1, eqs. (38)-(40): ``q D_alpha(N(shift, beta eta^2 sigma^2) || N(0, .))``
    with q = b/n (Lemma A.9 weights the Gaussian cost of a sampled step by q)."""
    q = S.b / S.n
    return sp.simplify(q * lem_2_6_expr(shift, S.beta * S.eta ** 2 * S.sigma ** 2))


@functools.cache
def eq_10_expr() -> sp.Expr:
    """Lemma 3.2, eq. (10): :func:`lem_3_2_cost_expr` at the proof's mean difference 2 eta C/b.

    Under add/remove adjacency one clipped gradient moves the mean by at most eta C / b;
    the proof's 2 eta C / b (a replace-one bound) makes (10) four times larger than needed.
    """
    return lem_3_2_cost_expr(2 * S.eta * S.C / S.b)


@functools.cache
def eq_10_add_remove_expr() -> sp.Expr:
    """The step cost of (38)-(40) at the add/remove mean difference ``eta C/b`` (one clipped
    gradient enters or leaves the sum): a quarter of (10)."""
    return lem_3_2_cost_expr(S.eta * S.C / S.b)


def sgm_noise() -> sp.Expr:
    """The normalised noise ``s = b sqrt(beta) sigma / (2C)`` of the SGM step in (11)."""
    return S.b * sp.sqrt(S.beta) * S.sigma / (2 * S.C)


@functools.cache
def lem_a_12_expr() -> tuple[sp.Expr, sp.Symbol, sp.Symbol]:
    """Lemma A.12 (Mironov, Talwar & Zhang 2019, Thm 11): ``(2 alpha q^2 / s^2, q, s)``,
    the bound on the sampled Gaussian mechanism for alpha <= alpha*(q, s), q <= 1/5, s > 4."""
    q, s = sp.symbols("q s", positive=True)
    return 2 * S.alpha * q ** 2 / s ** 2, q, s


@functools.cache
def eq_11_expr() -> sp.Expr:
    """Lemma 3.2, eq. (11): Lemma A.12 at q = b/n and s = :func:`sgm_noise`."""
    expr, q, s = lem_a_12_expr()
    return sp.simplify(expr.subs({q: S.b / S.n, s: sgm_noise()}))


def _per_step(variant: str) -> sp.Expr:
    require(variant in VARIANTS, "variant", variant, f"one of {VARIANTS}", REF_32)
    return eq_10_expr() if variant == "nb" else eq_11_expr()


def _shift_term(a: sp.Expr) -> sp.Expr:
    """Lemma 2.6 with the proofs' noise share ``(1 - beta) eta^2 sigma^2`` (eq. (43))."""
    return lem_2_6_expr(a, (1 - S.beta) * S.eta ** 2 * S.sigma ** 2)


@functools.cache
def eq_12_expr() -> sp.Expr:
    """Thm 3.3, eq. (12): eq. (44) with every shift ``a_t = 0``, i.e. T per-step costs (10)."""
    t = sp.Symbol("t", integer=True, nonnegative=True)
    return sp.simplify(sp.summation(eq_10_expr() + _shift_term(sp.Integer(0)), (t, 0, S.T - 1)))


@functools.cache
def eq_13_expr() -> sp.Expr:
    """Thm 3.3, eq. (13): as (12) with the per-step cost (11)."""
    t = sp.Symbol("t", integer=True, nonnegative=True)
    return sp.simplify(sp.summation(eq_11_expr(), (t, 0, S.T - 1)))


@functools.cache
def eq_48_expr(variant: str = "nb") -> tuple[sp.Expr, sp.Symbol]:
    """Eq. (48): ``(T - tau)`` per-step costs + the one-step shift ``a_tau = (1 + eta L) D``.

    Returns ``(expression, tau)``; Theorem 3.4 is its minimum over tau in {0..T-1}.
    """
    tau = sp.Symbol("tau", integer=True, nonnegative=True)
    return (S.T - tau) * _per_step(variant) + _shift_term((1 + S.eta * S.L) * S.D), tau


def _thm_3_4_expr(variant: str) -> sp.Expr:
    expr, tau = eq_48_expr(variant)
    # (48) decreases in tau (the per-step cost is positive), so the minimum is at T - 1.
    return sp.simplify(expr.subs(tau, S.T - 1))


@functools.cache
def eq_14_expr() -> sp.Expr:
    """Thm 3.4, eq. (14): (48) at its minimiser tau = T - 1."""
    return _thm_3_4_expr("nb")


@functools.cache
def eq_15_expr() -> sp.Expr:
    """Thm 3.4, eq. (15): (48) with the per-step cost (11), at tau = T - 1."""
    return _thm_3_4_expr("n2")


# --- numbers ---------------------------------------------------------------------------------

_ARGS = (S.alpha, S.T, S.n, S.b, S.eta, S.C, S.sigma, S.beta, S.L, S.D)


@functools.cache
def _fn(key: str):
    expr = {"eq10": eq_10_expr, "eq11": eq_11_expr, "eq12": eq_12_expr, "eq13": eq_13_expr,
            "eq14": eq_14_expr, "eq15": eq_15_expr}[key]()
    return sp.lambdify(_ARGS, expr, "mpmath")


def _eval(key: str, p: dict) -> mpf:
    vals = [p.get(s.name, mpf(1)) for s in _ARGS]  # absent symbols do not occur in expr
    return mpf(_fn(key)(*vals))


def sgm_admissible(*, alpha: Number, n: int, b: int, C: Number, sigma: Number, beta: Number,
                   ref: str = REF_32, dps: int = DEFAULT_DPS) -> None:
    """Raise unless the "n^2" side conditions hold: ``b <= n/5``, ``sigma > 8C/(b sqrt(beta))``
    and ``alpha <= alpha*(b/n, b sqrt(beta) sigma/(2C))`` (Lemma 3.2, Thms 3.3, 3.4).

    alpha* is :func:`dpsym.rdp.gaussian_mixture.sgm_alpha_star` (MTZ19, Thm 11), rounded down.
    """
    with precision(dps + GUARD_DPS):
        p = check(ref, alpha=alpha, n=n, b=b, C=C, sigma=sigma, beta=beta)
        require(5 * p["b"] <= p["n"], "b", b, f"b <= n/5 = {mpf(p['n']) / 5}", ref)
        thresh = 8 * p["C"] / (p["b"] * mpmath.sqrt(p["beta"]))
        require(p["sigma"] > thresh, "sigma", sigma,
                f"sigma > 8C/(b sqrt(beta)) = {mpmath.nstr(thresh, 10)}", ref)
        s = p["b"] * mpmath.sqrt(p["beta"]) * p["sigma"] / (2 * p["C"])
        q = mpf(p["b"]) / p["n"]
    a_star = sgm_alpha_star(q, s, dps=dps)
    with precision(dps + GUARD_DPS):
        require(p["alpha"] <= a_star, "alpha", alpha,
                f"alpha <= alpha*(b/n, b sqrt(beta) sigma/(2C)) = {mpmath.nstr(a_star, 10)}",
                ref)


def _bound(keys: tuple[str, str], ref: str, variant: str, p: dict, sgm: dict, dps: int) -> mpf:
    """The "nb" or "n2" expression of ``keys`` at ``p`` (side conditions first), rounded up."""
    with precision(dps + GUARD_DPS):
        require(variant in VARIANTS, "variant", variant, f"one of {VARIANTS}", ref)
    if variant == "n2":
        sgm_admissible(**sgm, ref=ref, dps=dps)
    with precision(dps + GUARD_DPS):
        out = _eval(keys[0] if variant == "nb" else keys[1], p)
    return round_up(out, dps)


def lem_3_2(*, alpha: Number, n: int, b: int, C: Number, sigma: Number, beta: Number,
            variant: str = "nb", dps: int = DEFAULT_DPS) -> mpf:
    """Lemma 3.2: the additive cost of one noisy step in the shifted divergence,

        D_alpha^((1+eta L) z)(psi(mu) || psi'(nu)) <= D_alpha^(z)(mu || nu) + cost,
        cost = 2 alpha C^2 / (beta n b sigma^2)         (10, ``variant="nb"``)
        cost = 8 alpha C^2 / (beta n^2 sigma^2)         (11, ``variant="n2"``, side conditions).

    (10) is proved for ``D' = D u {x}`` in the second argument only (see :mod:`.adjacency`).

    >>> from dpsym.numerics import nstr
    >>> nstr(lem_3_2(alpha=2, n=100, b=10, C=1, sigma=1, beta="0.5"), 10)
    '0.008'
    """
    sgm = dict(alpha=alpha, n=n, b=b, C=C, sigma=sigma, beta=beta)
    with precision(dps + GUARD_DPS):
        p = check(REF_32, **sgm)
    return _bound(("eq10", "eq11"), REF_32, variant, p, sgm, dps)


def thm_3_3(*, alpha: Number, T: int, n: int, b: int, C: Number, sigma: Number, beta: Number,
            variant: str = "nb", dps: int = DEFAULT_DPS) -> mpf:
    """Theorem 3.3 (DPSGD-GC): (alpha, eps)-RDP of the last iterate with

        eps = 2 alpha C^2 T / (beta n b sigma^2)      (12, ``variant="nb"``)
        eps = 8 alpha C^2 T / (beta n^2 sigma^2)      (13, ``variant="n2"``: b <= n/5,
                                                        sigma > 8C/(b sqrt beta), alpha <= alpha*).

    Neither L nor eta enters: with all shifts 0 the factor (1 + eta L) of Lemma 3.2 never
    acts, so (12)/(13) hold for any loss (they are subsampled composition bounds).  (12)
    holds in one adjacency order only (:mod:`.adjacency`).

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_3_3(alpha="1.1", T=49, n=8, b=2, C=2, sigma=4, beta="0.5"), 12)
    '3.36875'
    """
    sgm = dict(alpha=alpha, n=n, b=b, C=C, sigma=sigma, beta=beta)
    with precision(dps + GUARD_DPS):
        p = check(REF_33, T=T, **sgm)
    return _bound(("eq12", "eq13"), REF_33, variant, p, sgm, dps)


def thm_3_4(*, alpha: Number, n: int, b: int, eta: Number, C: Number, sigma: Number,
            beta: Number, L: Number, D: Number, variant: str = "nb",
            dps: int = DEFAULT_DPS) -> mpf:
    """Theorem 3.4 (DPSGD-DC, domain of diameter D): (alpha, eps)-RDP for every T with

        eps = 2 alpha C^2/(beta n b sigma^2) + S          (14)
        eps = 8 alpha C^2/(beta n^2 sigma^2) + S          (15)
        S = alpha (1 + eta L)^2 D^2 / (2 eta^2 sigma^2 (1 - beta))

    ((15) under the side conditions of Thm 3.3).  The statement says "DPSGD-GC"; it is about
    DPSGD-DC (a misprint).  The bound does not depend on T; for small T it exceeds (12),
    and the guarantee that "converges" is the minimum of the two
    (:func:`dpsym.papers.liang2025.closed_forms.combined_rho`).

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_3_4(alpha="1.1", n=8, b=2, eta="0.2", C=2, sigma=4, beta="0.5", L=1, D=1), 10)
    '2.54375'
    """
    sgm = dict(alpha=alpha, n=n, b=b, C=C, sigma=sigma, beta=beta)
    with precision(dps + GUARD_DPS):
        p = check(REF_34, eta=eta, L=L, D=D, **sgm)
    return _bound(("eq14", "eq15"), REF_34, variant, p, sgm, dps)


def eq_47(*, alpha: Number, n: int, b: int, eta: Number, C: Number, sigma: Number,
          beta: Number, L: Number, D: Number, a: Sequence[Number], variant: str = "nb",
          dps: int = DEFAULT_DPS) -> mpf:
    """Eq. (47) for a given shift schedule ``a = (a_tau, .., a_{T-1})`` of length k = T - tau:

        D_alpha(theta_T || theta'_T)
            <= k cost(10 or 11) + alpha sum a_t^2 / (2 eta^2 sigma^2 (1 - beta)),

    valid when ``z_tau = D``, ``z_{t+1} = (1 + eta L) z_t - a_t >= 0`` and ``z_T = 0`` (checked
    by :func:`dpsym.shifts.smooth_reduction.shift_cost_of_schedule`, which raises otherwise).
    ``a = [(1 + eta L) D]`` is the paper's choice (Thm 3.4); the optimal schedule for each k
    is :func:`dpsym.shifts.smooth_reduction.k_step_allocation`.
    """
    ref = cite(PAPER, "eq. (47)")
    with precision(dps + GUARD_DPS):
        p = check(ref, alpha=alpha, n=n, b=b, eta=eta, C=C, sigma=sigma, beta=beta, L=L, D=D)
        require(len(a) >= 1, "a", a, "a schedule of length k >= 1", ref)
        c = 1 + p["eta"] * p["L"]
    cost, _ = shift_cost_of_schedule(c, p["D"], list(a), dps=dps + GUARD_DPS)
    step = lem_3_2(alpha=alpha, n=n, b=b, C=C, sigma=sigma, beta=beta, variant=variant,
                   dps=dps + GUARD_DPS)
    with precision(dps + GUARD_DPS):
        g, u, v = gaussian_cost_expr()
        shift = sp.lambdify((S.alpha, u, v), g, "mpmath")(
            p["alpha"], mpmath.sqrt(cost), (1 - p["beta"]) * p["eta"] ** 2 * p["sigma"] ** 2)
        out = len(a) * step + mpf(shift)
    return round_up(out, dps)


def eq_48(*, alpha: Number, T: int, tau: int, n: int, b: int, eta: Number, C: Number,
          sigma: Number, beta: Number, L: Number, D: Number, variant: str = "nb",
          dps: int = DEFAULT_DPS) -> mpf:
    """Eq. (48) at a given tau in {0..T-1}: ``(T - tau)`` per-step costs plus the one-step
    shift cost ``alpha (1 + eta L)^2 D^2 / (2 eta^2 sigma^2 (1 - beta))``."""
    ref = cite(PAPER, "eq. (48)")
    with precision(dps + GUARD_DPS):
        check(ref, T=T)
        require(isinstance(tau, int) and 0 <= tau < T, "tau", tau,
                f"tau in {{0, .., T-1 = {T - 1}}}", ref)
        c = 1 + to_mpf(eta) * to_mpf(L)
        a0 = c * to_mpf(D)
    return eq_47(alpha=alpha, n=n, b=b, eta=eta, C=C, sigma=sigma, beta=beta, L=L, D=D,
                 a=[a0] + [0] * (T - tau - 1), variant=variant, dps=dps)


def lem_2_4(*, alpha: Number, eps: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma 2.4 (Mironov 2017): (alpha, eps)-RDP implies (eps + log(1/delta)/(alpha-1), delta)-DP.

    The conversion itself is :func:`dpsym.rdp.conversions.epsilon_from_rdp` ("mironov2017").
    """
    return epsilon_from_rdp(alpha, eps, delta, conversion="mironov2017", dps=dps)


def algorithm_1_updates(T: int) -> tuple[int, int]:
    """Algorithm 1 as printed: ``t <- 0; repeat {update theta_{t+1}; t <- t + 1} until t > T``.

    Returns ``(updates performed, index of the output iterate)``: the loop runs T + 1
    updates but outputs theta_T (an off-by-one; the analysis is of T updates).
    """
    T = check(cite(PAPER, "Algorithm 1"), T=T)["T"]
    t, updates = 0, 0
    while True:
        updates += 1  # theta_{t+1} <- Pi_K(theta_t - eta (g_t + zeta_t))
        t += 1
        if t > T:
            break
    return updates, T
