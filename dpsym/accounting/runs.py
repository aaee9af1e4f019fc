"""Run records: one DP-SGD run (sampling, adjacency, sigma, steps) with its RDP bounds.

The records below bind a run to the RDP bounds that apply to it (upper bound ``rdp`` and,
where one is known, a worst-case lower bound ``rdp_lower``); :class:`dpsym.accounting.
RdpAccountant` uses them for the leaves of its events, and :func:`gdp_account` accounts
for a :class:`GaussianDP` record.  Every number is an mpf at the requested precision; the
reported eps (or delta) is an upper bound, rounded up.

DP-SGD runs are described by their sampling scheme (Poisson, fixed size without
replacement "fswor", fixed size with replacement "fswr"), adjacency ("add-remove" or
"replace-one"), noise multiplier and number of steps.  Each record gives a certified
upper bound on the RDP of the run (:meth:`rdp`) and, where one is known, a lower bound on
the worst-case RDP of the same run (:meth:`rdp_lower`, integer orders): the gap between
the two is what the accountant may be losing.  The fixed-size bounds are those of Birrell,
Ebrahimi, Behnia & Pacheco 2024 (:mod:`dpsym.rdp.taylor`,
:mod:`dpsym.rdp.fixed_size_replacement`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from mpmath import mpf

from dpsym.errors import HypothesisError, require, require_integer
from dpsym.numerics import GUARD_DPS, Number, precision, round_down, round_up, to_mpf
from dpsym.rdp.subsampled_gaussian import poisson_gaussian_rdp

__all__ = [
    "ADJACENCIES",
    "DEFAULT_ORDERS",
    "SAMPLINGS",
    "TAYLOR_ORDERS",
    "AccountingReport",
    "FixedSizeSampledGaussian",
    "GaussianDP",
    "PoissonSampledGaussian",
    "default_orders",
    "gdp_account",
]

SAMPLINGS = ("poisson", "fswor", "fswr")
ADJACENCIES = ("add-remove", "replace-one")
_BIRRELL = "Birrell et al. 2024"

#: Default Renyi orders: a few fractional ones near 1 (evaluated by quadrature), every
#: integer to 64 (exact binomial sums), then a sparse tail to 1024.
DEFAULT_ORDERS: tuple[Number, ...] = (
    "1.25", "1.5", "1.75", *range(2, 65), 80, 96, 128, 256, 512, 1024,
)


#: Orders for the Taylor-expansion bounds of Birrell et al. 2024: their remainders need
#: M_{sigma,k} up to k ~ alpha + m, which costs seconds per order beyond alpha ~ 100
#: (the paper itself uses orders up to 63).
TAYLOR_ORDERS: tuple[Number, ...] = ("1.25", "1.5", "1.75", *range(2, 65))


def _is_integer(alpha: Number) -> bool:
    try:
        return Fraction(str(alpha)).denominator == 1
    except ValueError:
        return False


def _check_adjacency(adjacency: str) -> None:
    require(adjacency in ADJACENCIES, "adjacency", adjacency, f"one of {ADJACENCIES}",
            "dpsym account")


def _taylor_order(m: object, adjacency: str) -> int:
    # Thm 3.4 (and C.9) expand to order m >= 3; App. B (add/remove) allows m >= 1.
    if adjacency == "replace-one":
        return require_integer("m", m, f"{_BIRRELL}, Thm 3.4 (Taylor order)", minimum=3)
    return require_integer("m", m, f"{_BIRRELL}, App. B (Taylor order)", minimum=1)


def _steps_times_lower(one_step: mpf | None, steps: int, dps: int) -> mpf | None:
    if one_step is None:
        return None
    with precision(dps + GUARD_DPS):
        return round_down(steps * one_step, dps)


def _log_h_lower(alpha: Number, sigma: Number, q: Number, steps: int, dps: int) -> mpf:
    """steps * log H_{alpha,sigma}(q) / (alpha - 1), rounded down (integer alpha)."""
    from dpsym.rdp.gaussian_mixture import log_H

    with precision(dps + GUARD_DPS):
        v = log_H(alpha, sigma, q, dps=dps + GUARD_DPS) / (to_mpf(alpha) - 1)
        return round_down(steps * v, dps)


@dataclass(frozen=True)
class PoissonSampledGaussian:
    """``steps`` rounds of DP-SGD with Poisson sampling and the Gaussian mechanism.

    Each round includes every example independently with probability ``q``, clips
    per-example gradients to norm 1 and adds N(0, sigma^2 I); rounds compose additively.

    * ``adjacency="add-remove"``: one round is (alpha, eps(alpha))-RDP with eps(alpha) of
      Mironov, Talwar & Zhang 2019 (:func:`dpsym.rdp.poisson_gaussian_rdp`).  The bound
      is attained (zero gradients for D', one unit gradient added), so at integer alpha
      :meth:`rdp_lower` returns the same quantity rounded down.
    * ``adjacency="replace-one"``: Birrell et al. 2024, Thm C.9, Taylor order ``m``, in
      the *conservative* variant of :func:`dpsym.rdp.taylor.poisson_replace_one_rdp`
      (the paper's sigma -> 2 sigma step is not justified for the coupled chi^k terms);
      no lower bound.
    """

    q: Number
    sigma: Number
    steps: int = 1
    adjacency: str = "add-remove"
    m: int = 4

    def __post_init__(self) -> None:
        _check_adjacency(self.adjacency)
        _taylor_order(self.m, self.adjacency)

    def rdp(self, alpha: Number, dps: int = 30) -> mpf:
        """Certified upper bound on the RDP of the run at order ``alpha`` (rounded up)."""
        if self.adjacency == "add-remove":
            return poisson_gaussian_rdp(self.q, self.sigma, alpha, steps=self.steps, dps=dps)
        from dpsym.rdp.taylor import poisson_replace_one_rdp

        return poisson_replace_one_rdp(alpha, self.sigma, self.q, self.m, steps=self.steps,
                                       variant="conservative", dps=dps)

    def rdp_lower(self, alpha: Number, dps: int = 30) -> mpf | None:
        """Lower bound on the worst-case RDP of the run (integer alpha; else None)."""
        if self.adjacency != "add-remove" or not _is_integer(alpha):
            return None
        if Fraction(str(self.q)) == 1:
            # q = 1 is the Gaussian mechanism itself, alpha/(2 sigma^2): the certified
            # enclosure's closed form (log H of eq. (8) needs q < 1).
            from dpsym.rdp.subsampled_gaussian import poisson_gaussian_rdp_enclosures

            enc = poisson_gaussian_rdp_enclosures(self.q, self.sigma, [alpha],
                                                  steps=self.steps, dps=dps)[0]
            return round_down(enc.lower, dps)
        # Mironov et al.'s A_alpha(q, sigma) = H_{alpha, 2 sigma}(q) (dpsym.rdp.gaussian_mixture).
        with precision(dps + GUARD_DPS):
            s2 = 2 * to_mpf(self.sigma, "sigma", "dpsym account")
        return _log_h_lower(alpha, s2, self.q, self.steps, dps)

    def describe(self) -> dict[str, str]:
        out = {"type": "poisson_subsampled_gaussian", "sampling": "poisson",
               "q": str(self.q), "sigma": str(self.sigma), "steps": str(self.steps),
               "adjacency": self.adjacency}
        if self.adjacency == "add-remove":
            out["bound"] = "Mironov, Talwar & Zhang 2019 (exact A_alpha)"
            out["lower_bound"] = "the same A_alpha, attained (integer orders)"
        else:
            out["taylor_order"] = str(self.m)
            out["bound"] = (f"{_BIRRELL}, Thm C.9 (conservative variant, Taylor order "
                            f"m={self.m})")
            out["lower_bound"] = "none"
        return out


@dataclass(frozen=True)
class FixedSizeSampledGaussian:
    """``steps`` rounds of DP-SGD with fixed-size minibatches and the Gaussian mechanism.

    Each round draws ``batch_size`` = |B| of ``dataset_size`` = |D| examples, uniformly
    without replacement (``replacement=False``, FSwoR) or as |B| iid uniform indices
    (``replacement=True``, FSwR), clips per-example gradients to C, adds N(0, C^2 sigma^2 I)
    to their sum and divides by |B| (Birrell, Ebrahimi, Behnia & Pacheco 2024, eq. (2));
    q = |B|/|D|; rounds compose additively (eq. (4)).  Upper bounds (:meth:`rdp`):

    * FSwoR, add/remove: Thms 3.1-3.3 / App. B, Taylor order ``m``
      (:func:`dpsym.rdp.taylor.fswor_add_remove_rdp`);
    * FSwoR, replace-one: Thms 3.4-3.5 (:func:`dpsym.rdp.taylor.fswor_replace_one_rdp`);
    * FSwR, add/remove: Thm 3.6 (K = |B|, H bounded by the smaller of the order-``m``
      Taylor bound and the convexity bound;
      :func:`dpsym.rdp.fixed_size_replacement.upper_bound_rdp`) times ``steps``;
    * FSwR, replace-one: not covered by the paper (raises).

    Lower bounds on the worst-case RDP (:meth:`rdp_lower`, integer orders):

    * FSwoR, add/remove: steps * log H_{alpha,sigma}(q)/(alpha-1): Thm 3.1's mixture is
      attained when every other example has clipped gradient g and the differing one -g
      (||g|| = C), and with gradients constant in theta the rounds are independent;
    * FSwoR, replace-one: Wang, Balle & Kasiviswanathan 2019, Prop. 11 (eq. (133));
    * FSwR, add/remove: Thm 3.7, exact when alpha^2 |B|^2 <= 2 10^4, else with the index
      sets T_k = {0, 1, 2, |B|} (a truncation, so still a lower bound) for alpha <= 10,
      else eq. (120) (the n = |B| term alone).
    """

    batch_size: int
    dataset_size: int
    sigma: Number
    steps: int = 1
    replacement: bool = False
    adjacency: str = "add-remove"
    m: int = 4

    def __post_init__(self) -> None:
        ref = f"{_BIRRELL}, Sec. 3.1"
        b = require_integer("batch_size", self.batch_size, ref, minimum=1)
        n = require_integer("dataset_size", self.dataset_size, ref, minimum=2)
        require(b < n, "batch_size", b, f"batch_size < dataset_size = {n} (q < 1)",
                f"{_BIRRELL}, Thms 3.1, 3.4, 3.6")
        _check_adjacency(self.adjacency)
        _taylor_order(self.m, self.adjacency)
        if self.replacement and self.adjacency == "replace-one":
            raise HypothesisError("adjacency", self.adjacency,
                                  "add-remove for sampling with replacement (FSwR is "
                                  "analysed under add/remove only)", f"{_BIRRELL}, Thm 3.6")

    @property
    def q(self) -> Fraction:
        return Fraction(int(self.batch_size), int(self.dataset_size))

    @property
    def sampling(self) -> str:
        return "fswr" if self.replacement else "fswor"

    def rdp(self, alpha: Number, dps: int = 30) -> mpf:
        """Certified upper bound on the RDP of the run at order ``alpha`` (rounded up)."""
        from dpsym.rdp import taylor

        if not self.replacement:
            fn = (taylor.fswor_add_remove_rdp if self.adjacency == "add-remove"
                  else taylor.fswor_replace_one_rdp)
            return fn(alpha, self.sigma, self.q, self.m, steps=self.steps, dps=dps)
        from dpsym.rdp.fixed_size_replacement import upper_bound_rdp

        one = upper_bound_rdp(alpha, self.sigma, self.batch_size, self.dataset_size,
                              m=self.m, dps=dps + GUARD_DPS)
        with precision(dps + GUARD_DPS):
            return round_up(int(self.steps) * one, dps)

    def rdp_lower(self, alpha: Number, dps: int = 30) -> mpf | None:
        """Lower bound on the worst-case RDP of the run (integer alpha; else None)."""
        if not _is_integer(alpha):
            return None
        a = int(Fraction(str(alpha)))
        if not self.replacement:
            if self.adjacency == "add-remove":
                return _log_h_lower(a, self.sigma, self.q, self.steps, dps)
            from dpsym.rdp.wang2019 import wang_lower_rdp

            return wang_lower_rdp(a, self.sigma, self.q, steps=self.steps, dps=dps)
        from dpsym.rdp import fixed_size_replacement as fswr

        b = int(self.batch_size)
        if a * a * b * b <= 20_000 or a <= 10:
            # Exact recursion when cheap (O(alpha^2 |B|^2) terms), else truncated sets.
            sets = "exact" if a * a * b * b <= 20_000 else "figure1"
            one = fswr.lower_bound_rdp(a, self.sigma, b, self.dataset_size,
                                       index_sets=sets, dps=dps + GUARD_DPS)
        else:
            one = max(fswr.crude_lower_bound_rdp(a, self.sigma, self.batch_size, self.q,
                                                 dps=dps + GUARD_DPS), mpf(0))
        return _steps_times_lower(one, int(self.steps), dps)

    def describe(self) -> dict[str, str]:
        out = {"type": "fixed_size_subsampled_gaussian", "sampling": self.sampling,
               "batch_size": str(self.batch_size), "dataset_size": str(self.dataset_size),
               "q": str(self.q), "sigma": str(self.sigma), "steps": str(self.steps),
               "adjacency": self.adjacency, "taylor_order": str(self.m)}
        if self.replacement:
            out["bound"] = f"{_BIRRELL}, Thm 3.6 (K = |B|, Taylor order m={self.m})"
            out["lower_bound"] = f"{_BIRRELL}, Thm 3.7 (exact or truncated) / eq. (120)"
        elif self.adjacency == "add-remove":
            out["bound"] = f"{_BIRRELL}, Thms 3.1-3.3 (Taylor order m={self.m})"
            out["lower_bound"] = f"{_BIRRELL}, Thm 3.1 attained: log H / (alpha - 1)"
        else:
            out["bound"] = f"{_BIRRELL}, Thms 3.4-3.5 (Taylor order m={self.m})"
            out["lower_bound"] = "Wang, Balle & Kasiviswanathan 2019, Prop. 11 (eq. (133))"
        return out


SampledGaussian = PoissonSampledGaussian | FixedSizeSampledGaussian


def default_orders(event: SampledGaussian) -> tuple[Number, ...]:
    """:data:`DEFAULT_ORDERS` for Poisson add/remove, :data:`TAYLOR_ORDERS` otherwise."""
    if isinstance(event, PoissonSampledGaussian) and event.adjacency == "add-remove":
        return DEFAULT_ORDERS
    return TAYLOR_ORDERS


@dataclass(frozen=True)
class GaussianDP:
    """A mu-GDP mechanism (Dong, Roth & Su 2022); e.g. ``steps`` full-batch Gaussian steps
    of sensitivity/sigma = m compose to mu = m sqrt(steps)."""

    mu: Number


@dataclass
class AccountingReport:
    """What an accountant found.

    ``target`` is ``"epsilon"`` (given delta) or ``"delta"`` (given eps); ``value`` the
    bound; ``order`` the best Renyi order (None for GDP); ``rdp`` the composed RDP upper
    bound per order; ``rdp_lower`` a lower bound on the worst-case composed RDP per order
    (None where none is known); ``alternatives`` maps every other conversion to its
    (value, order).
    """

    target: str
    value: mpf
    given: mpf
    conversion: str
    order: mpf | None = None
    rdp: list[tuple[mpf, mpf]] = field(default_factory=list)
    rdp_lower: list[tuple[mpf, mpf | None]] = field(default_factory=list)
    alternatives: dict[str, tuple[mpf, mpf | None]] = field(default_factory=dict)
    mechanism: dict[str, str] = field(default_factory=dict)
    dps: int = 30

    def __float__(self) -> float:
        return float(self.value)

    def __format__(self, spec: str) -> str:
        return format(float(self.value), spec)

    def to_dict(self) -> dict[str, object]:
        """Every field as JSON-ready values (numbers as decimal strings at ``dps`` digits)."""
        from dpsym.balls import decimal_string

        def s(x: mpf | None, rounding: str = "up") -> str | None:
            return None if x is None else decimal_string(x, self.dps, rounding)

        other = "delta" if self.target == "epsilon" else "epsilon"
        return {self.target: s(self.value), other: s(self.given, "nearest"),
                "order": s(self.order, "nearest"),
                "conversion": self.conversion,
                "rdp": [[s(a, "nearest"), s(v)] for a, v in self.rdp],
                "rdp_lower": [[s(a), s(v, "down")] for a, v in self.rdp_lower],
                "alternatives": {c: {self.target: s(v), "order": s(a, "nearest")}
                                 for c, (v, a) in self.alternatives.items()},
                "mechanism": dict(self.mechanism), "dps": self.dps}


def _given(delta: Number | None, eps: Number | None, dps: int) -> mpf:
    with precision(dps):
        return +to_mpf(delta if delta is not None else eps, "delta" if delta is not None else "eps")


def _target(delta: Number | None, eps: Number | None) -> str:
    require((delta is None) != (eps is None), "delta/eps", f"delta={delta}, eps={eps}",
            "exactly one of --delta and --eps", "dpsym account")
    return "epsilon" if delta is not None else "delta"


def gdp_account(
    event: GaussianDP, delta: Number | None = None, eps: Number | None = None, dps: int = 30
) -> AccountingReport:
    """eps at ``delta`` (or delta at ``eps``) of a mu-GDP run, by the exact Lemma A.3 curve."""
    from dpsym.fdp import gdp_delta, gdp_epsilon

    target = _target(delta, eps)
    if target == "epsilon":
        value = gdp_epsilon(event.mu, delta, dps=dps)
    else:
        value = gdp_delta(event.mu, eps, dps=dps)
    return AccountingReport(
        target=target,
        value=value,
        given=_given(delta, eps, dps),
        conversion="gdp_exact",
        mechanism={"type": "gaussian_dp", "mu": str(event.mu),
                   "reference": "Dong, Roth & Su 2022, Cor. 2.13"},
        dps=dps,
    )
