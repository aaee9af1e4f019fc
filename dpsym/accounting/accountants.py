"""Accountants: consume events (:mod:`dpsym.accounting.events`), report privacy bounds.

Each accountant has ``supports(event)``, ``compose(event, count=1)`` (returns the accountant,
so calls chain and it can sit inside a training loop), ``get_epsilon(delta)`` and
``get_delta(eps)``.  Results convert cleanly: ``float(r)`` and ``format(r, ".4f")`` give the
bound, ``r.to_dict()`` a JSON-ready dict.

* :class:`RdpAccountant` -- Renyi DP, a certified upper bound.  Poisson (and full-batch)
  Gaussian steps under add/remove use Mironov, Talwar & Zhang 2019's exact A_alpha by the
  certified series of :mod:`dpsym.rdp.arb_series`; the order is optimised over *real* alpha
  by default (the union of Opacus's and dp-accounting's default grids, then a
  golden-section search around the best grid order), so its eps is never above the one
  either library reports with the same conversion.  Fixed-size sampling and Poisson
  replace-one use Birrell et al. 2024's bounds on the Taylor grid.
* :class:`PldAccountant` -- privacy-loss distributions, a certified *interval* (lower,
  upper) of a user-set width (:mod:`dpsym.pld`), for Gaussian and Poisson-sampled Gaussian
  steps (add/remove: both directions composed separately, the maximum reported).
* :class:`GdpAccountant` -- Gaussian DP: exact for full-batch Gaussian steps, the central
  limit theorem of Bu, Dong, Long & Su 2020 (mu = q sqrt(T (e^{1/sigma^2} - 1))) for Poisson
  sampling, which is an approximation, *not* a bound (``certified`` False).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import mpmath
from mpmath import mpf

from dpsym.accounting.events import (
    DpEvent,
    FixedSizeSampledEvent,
    GaussianEvent,
    PoissonSampledEvent,
    flatten,
)
from dpsym.accounting.runs import (
    TAYLOR_ORDERS,
    AccountingReport,
    FixedSizeSampledGaussian,
    PoissonSampledGaussian,
)
from dpsym.errors import HypothesisError, require
from dpsym.numerics import GUARD_DPS, Number, minimize_scalar, precision, round_up, to_mpf
from dpsym.rdp.conversions import (
    CONVERSIONS,
    REFERENCES,
    delta_from_rdp,
    epsilon_from_rdp,
    rdp_to_delta,
    rdp_to_epsilon,
)
from dpsym.rdp.subsampled_gaussian import poisson_gaussian_rdp_enclosures

__all__ = [
    "DPSYM_DEFAULT_ORDERS",
    "DP_ACCOUNTING_ORDERS",
    "OPACUS_ORDERS",
    "RELATIONS",
    "GdpAccountant",
    "PldAccountant",
    "RdpAccountant",
    "rdp_account",
]

RELATIONS = ("add-remove", "replace-one")
REF = "dpsym.accounting"

#: Opacus 1.x ``DEFAULT_ALPHAS`` and dp-accounting's ``DEFAULT_RDP_ORDERS``, as exact decimals.
OPACUS_ORDERS: tuple[Fraction, ...] = (*(Fraction(10 + x, 10) for x in range(1, 100)),
                                       *(Fraction(k) for k in range(12, 64)))
DP_ACCOUNTING_ORDERS: tuple[Fraction, ...] = (
    *(Fraction(10 + x, 10) for x in range(1, 100)), *(Fraction(k) for k in range(11, 64)),
    *(Fraction(k) for k in (128, 256, 512, 1024)))
#: The union of both grids: dpsym's starting grid before the real-alpha search.
DPSYM_DEFAULT_ORDERS: tuple[Fraction, ...] = tuple(sorted(set(OPACUS_ORDERS)
                                                          | set(DP_ACCOUNTING_ORDERS)))


def _check_relation(relation: str) -> None:
    require(relation in RELATIONS, "relation", relation, f"one of {RELATIONS}", REF)


def _gaussian_sigma(ev: DpEvent) -> Fraction | None:
    return ev.noise_multiplier if isinstance(ev, GaussianEvent) else None

#: The finest PLD interval width a caller may ask for (see :class:`PldAccountant`).
MIN_PLD_WIDTH = 1e-7


class _Accountant:
    """Shared bookkeeping: the composed events as a multiset of leaf events."""

    name = "accountant"

    def __init__(self, relation: str = "add-remove") -> None:
        _check_relation(relation)
        self.relation = relation
        self._leaves: dict[DpEvent, int] = {}

    def supports(self, event: DpEvent) -> bool:
        """True when every leaf of ``event`` is one this accountant can account for."""
        try:
            for leaf, _ in flatten(event):
                self._check_leaf(leaf)
        except HypothesisError:
            return False
        return True

    def _check_leaf(self, leaf: DpEvent) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def compose(self, event: DpEvent, count: int = 1) -> _Accountant:
        """Add ``count`` runs of ``event`` (raises HypothesisError if unsupported)."""
        require(isinstance(event, DpEvent), "event", event, "a dpsym DpEvent", REF)
        leaves = flatten(event, count)
        for leaf, _ in leaves:
            self._check_leaf(leaf)
        for leaf, c in leaves:
            self._leaves[leaf] = self._leaves.get(leaf, 0) + c
        self._changed()
        return self

    def _changed(self) -> None:
        pass

    @property
    def leaves(self) -> list[tuple[DpEvent, int]]:
        return list(self._leaves.items())


# --- RDP ----------------------------------------------------------------------------------


class RdpAccountant(_Accountant):
    """Renyi-DP accountant (certified upper bounds; see the module docstring).

    ``orders=None`` searches real alpha (fast leaves only; otherwise the Taylor grid);
    ``conversion`` is one of :data:`dpsym.rdp.conversions.CONVERSIONS`; ``taylor_order``
    is Birrell et al.'s m for the fixed-size and replace-one bounds.

    >>> from dpsym.accounting import GaussianEvent, PoissonSampledEvent, RdpAccountant
    >>> acc = RdpAccountant()
    >>> step = PoissonSampledEvent("0.01", GaussianEvent(1))
    >>> for _ in range(10):           # e.g. inside a training loop
    ...     _ = acc.compose(step)
    >>> _ = acc.compose(step, 990)
    >>> print(f"{acc.get_epsilon('1e-5'):.4f}")     # dp-accounting's grid gives 2.10137
    2.1013
    """

    name = "rdp"

    def __init__(self, relation: str = "add-remove", orders: Sequence[Number] | None = None,
                 conversion: str = "balle2020", taylor_order: int = 4, dps: int = 30) -> None:
        super().__init__(relation)
        require(conversion in CONVERSIONS, "conversion", conversion,
                f"one of {', '.join(CONVERSIONS)}", REF)
        self.orders = None if orders is None else list(orders)
        self.conversion = conversion
        self.m = taylor_order
        self.dps = dps
        self._cache: dict[tuple, list[mpf]] = {}

    def _run(self, leaf: DpEvent, count: int) -> PoissonSampledGaussian | FixedSizeSampledGaussian:
        """The run record whose ``rdp``/``rdp_lower`` bound ``count`` copies of ``leaf``."""
        sigma = _gaussian_sigma(leaf)
        if sigma is not None:
            # full batch: q = 1; replace-one moves the mean by 2, i.e. noise sigma/2
            s = sigma if self.relation == "add-remove" else sigma / 2
            return PoissonSampledGaussian(1, s, count, "add-remove", self.m)
        if isinstance(leaf, PoissonSampledEvent):
            return PoissonSampledGaussian(leaf.sampling_probability,
                                          leaf.event.noise_multiplier, count, self.relation,
                                          self.m)
        assert isinstance(leaf, FixedSizeSampledEvent)
        return FixedSizeSampledGaussian(leaf.batch_size, leaf.dataset_size,
                                        leaf.event.noise_multiplier, count,
                                        replacement=leaf.replacement,
                                        adjacency=self.relation, m=self.m)

    def _check_leaf(self, leaf: DpEvent) -> None:
        if isinstance(leaf, GaussianEvent):
            return
        if (isinstance(leaf, PoissonSampledEvent | FixedSizeSampledEvent)
                and isinstance(leaf.event, GaussianEvent)):
            if isinstance(leaf, FixedSizeSampledEvent):
                require(not (leaf.replacement and self.relation == "replace-one"),
                        "relation", self.relation, "add-remove for sampling with "
                        "replacement (Birrell et al. 2024 analyse FSwR under add/remove)",
                        "Birrell et al. 2024, Thm 3.6")
            return
        raise HypothesisError("event", type(leaf).__name__, "a Gaussian, Poisson-sampled "
                              "Gaussian or fixed-size-sampled Gaussian event", "RdpAccountant")

    def _changed(self) -> None:
        self._cache.clear()

    def _fast(self) -> bool:
        """Every leaf is evaluated by the certified series (Poisson/full batch, add/remove)."""
        return all(isinstance(r, PoissonSampledGaussian) and r.adjacency == "add-remove"
                   for r in (self._run(leaf, c) for leaf, c in self.leaves))

    def default_orders(self) -> list[Fraction] | list[Number]:
        if self.orders is not None:
            return list(self.orders)
        return list(DPSYM_DEFAULT_ORDERS) if self._fast() else list(TAYLOR_ORDERS)

    def rdp(self, orders: Sequence[Number], dps: int | None = None) -> list[mpf]:
        """The composed RDP (upper bound, rounded up) at each order."""
        dps = self.dps if dps is None else dps
        require(bool(self._leaves), "events", "none", "at least one composed event", REF)
        key = (tuple(str(a) for a in orders), dps)
        if key in self._cache:
            return self._cache[key]
        total = [mpf(0)] * len(orders)
        with precision(dps + GUARD_DPS):
            for leaf, c in self.leaves:
                run = self._run(leaf, c)
                if isinstance(run, PoissonSampledGaussian) and run.adjacency == "add-remove":
                    vals = [e.upper for e in poisson_gaussian_rdp_enclosures(
                        run.q, run.sigma, orders, steps=c, dps=dps + GUARD_DPS)]
                else:
                    vals = [run.rdp(a, dps=dps + GUARD_DPS) for a in orders]
                total = [t + v for t, v in zip(total, vals, strict=True)]
        out = [round_up(t, dps) for t in total]
        self._cache[key] = out
        return out

    def rdp_lower(self, orders: Sequence[Number], dps: int | None = None) -> list[mpf | None]:
        """A lower bound on the worst-case composed RDP (one kind of leaf only; else None)."""
        dps = self.dps if dps is None else dps
        if len(self._leaves) != 1:
            return [None] * len(orders)
        (leaf, c), = self.leaves
        run = self._run(leaf, c)
        return [run.rdp_lower(a, dps=dps) for a in orders]

    def _search(self, target: str, given: Fraction, order: mpf, orders: list[mpf],
                conversion: str) -> tuple[mpf, mpf] | None:
        """Golden-section search of the conversion's value over real alpha near ``order``."""
        i = orders.index(order)
        lo_a = orders[i - 1] if i > 0 else (1 + order) / 2
        hi_a = orders[i + 1] if i + 1 < len(orders) else 2 * order
        search_dps = 20

        def value(y: mpf) -> mpf:
            a = 1 + mpmath.exp(y)
            r = self.rdp([a], dps=search_dps)[0]
            if target == "epsilon":
                return epsilon_from_rdp(a, r, given, conversion, dps=search_dps)
            return delta_from_rdp(a, r, given, conversion, dps=search_dps)

        with precision(search_dps + GUARD_DPS):
            y, _ = minimize_scalar(value, mpmath.log(lo_a - 1), mpmath.log(hi_a - 1),
                                   rtol=mpf("1e-7"))
            a_star = 1 + mpmath.exp(y)
        # the final value at the found order, at full precision (any order is a valid bound)
        r = self.rdp([a_star], dps=self.dps)[0]
        f = epsilon_from_rdp if target == "epsilon" else delta_from_rdp
        return f(a_star, r, given, conversion, dps=self.dps), a_star

    def _account(self, target: str, given: Number, compare: bool, lower: bool
                 ) -> AccountingReport:
        orders_in = self.default_orders()
        with precision(self.dps + GUARD_DPS):
            g = Fraction(str(given)) if isinstance(given, str) else given
            orders = [to_mpf(a, "order", REF) for a in orders_in]
        rdp = self.rdp(orders_in)
        conv = rdp_to_epsilon if target == "epsilon" else rdp_to_delta
        value, order = conv(orders, rdp, g, conversion=self.conversion, dps=self.dps)
        if self.orders is None and self._fast() and self.conversion in ("balle2020",
                                                                         "mironov2017"):
            v, a = self._search(target, g, order, orders, self.conversion)
            if v < value:
                value, order = v, a
        alternatives: dict[str, tuple[mpf, mpf | None]] = {}
        if compare:
            for c in ("mironov2017", "balle2020", "asoodeh2021", "alc2021_lemma1"):
                if c != self.conversion:
                    alternatives[c] = conv(orders, rdp, g, conversion=c, dps=self.dps)
            singles = {c: v for c, v in alternatives.items() if c != "alc2021_lemma1"}
            if self.conversion in ("mironov2017", "balle2020", "asoodeh2021"):
                singles[self.conversion] = (value, order)
            if self.conversion != "best":
                alternatives["best"] = min(singles.values(), key=lambda r: r[0])
        mech: dict[str, str] = {"accountant": "rdp", "relation": self.relation,
                                "reference": REFERENCES[self.conversion]}
        if len(self._leaves) == 1:
            (leaf, c), = self.leaves
            mech = {**self._run(leaf, c).describe(), **mech}
        with precision(self.dps):
            giv = +to_mpf(given, "given", REF)
        return AccountingReport(
            target=target, value=value, given=giv, conversion=self.conversion, order=order,
            rdp=list(zip(orders, rdp, strict=True)),
            rdp_lower=list(zip(orders, self.rdp_lower(orders_in) if lower
                               else [None] * len(orders), strict=True)),
            alternatives=alternatives, mechanism=mech, dps=self.dps)

    def get_epsilon(self, delta: Number, compare: bool = False, lower: bool = False
                    ) -> AccountingReport:
        """eps at ``delta`` (an upper bound, rounded up).  ``compare`` adds the other
        conversions at the same orders; ``lower`` the worst-case RDP lower bounds."""
        with precision(self.dps + GUARD_DPS):
            d = to_mpf(delta, "delta", REF)
        require(0 < d < 1, "delta", delta, "0 < delta < 1", REF)
        return self._account("epsilon", delta, compare, lower)

    def get_delta(self, eps: Number, compare: bool = False, lower: bool = False
                  ) -> AccountingReport:
        """delta at ``eps`` (an upper bound, rounded up)."""
        with precision(self.dps + GUARD_DPS):
            e = to_mpf(eps, "eps", REF)
        require(e >= 0, "eps", eps, "eps >= 0", REF)
        return self._account("delta", eps, compare, lower)


# --- PLD ----------------------------------------------------------------------------------


class PldAccountant(_Accountant):
    """Certified privacy-loss-distribution accountant (an interval of width <= ``width``).

    Supported leaves: Gaussian and Poisson-sampled Gaussian.  Add/remove uses the two tight
    dominating pairs of the Poisson-subsampled Gaussian, composed separately; replace-one
    uses the antipodal pair of :class:`dpsym.pld.ReplaceOnePoissonGaussianPair` (standard,
    not proved dominating for vector gradients).  Fixed-size sampling is not supported: no
    dominating pair is known for it (Birrell et al. 2024 show that the worst case of the
    Renyi divergence is not the sigma/2 Poisson pair).

    >>> from dpsym.accounting import GaussianEvent, PldAccountant, PoissonSampledEvent
    >>> acc = PldAccountant(width=1e-3).compose(PoissonSampledEvent("0.01", GaussianEvent(1)),
    ...                                         1000)
    >>> iv = acc.get_epsilon("1e-5")
    >>> bool(iv.width <= 1e-3), f"{float(iv.lower):.3f}", f"{iv:.3f}"
    (True, '1.828', '1.829')
    """

    name = "pld"

    def __init__(self, relation: str = "add-remove", width: float = 1e-3,
                 rel_width: float = 1e-2, max_points: int = 1 << 22,
                 progress: object = None) -> None:
        super().__init__(relation)
        for name, w in (("width", width), ("rel_width", rel_width)):
            # Bounded work: the grid grows like 1/width (1e-7 takes ~40 s on one core).
            require(isinstance(w, int | float) and not isinstance(w, bool)
                    and MIN_PLD_WIDTH <= w <= 1, name, w,
                    f"{MIN_PLD_WIDTH:g} <= {name} <= 1 (the cap on the PLD resolution)", REF)
        self.width, self.rel_width, self.max_points = width, rel_width, max_points
        self.progress = progress

    def _check_leaf(self, leaf: DpEvent) -> None:
        if isinstance(leaf, GaussianEvent):
            return
        if isinstance(leaf, PoissonSampledEvent) and isinstance(leaf.event, GaussianEvent):
            return
        if isinstance(leaf, FixedSizeSampledEvent):
            raise HypothesisError("sampling", "fixed-size", "Poisson sampling (no dominating "
                                  "pair is known for fixed-size batches; use --method rdp)",
                                  "PldAccountant")
        raise HypothesisError("event", type(leaf).__name__, "a Gaussian or Poisson-sampled "
                              "Gaussian event", "PldAccountant")

    def scenarios(self) -> list[list]:
        """The factor lists of the directions to compose (one per dominating pair)."""
        from dpsym.pld import (
            Factor,
            GaussianPair,
            PoissonSubsampledGaussianPair,
            ReplaceOnePoissonGaussianPair,
        )

        require(bool(self._leaves), "events", "none", "at least one composed event", REF)
        dirs: dict[str, list] = {"remove": [], "add": []}
        for leaf, c in self.leaves:
            if isinstance(leaf, GaussianEvent):
                s = leaf.noise_multiplier
                mu = 1 / s if self.relation == "add-remove" else 2 / s
                for d in dirs.values():
                    d.append(Factor(GaussianPair(mu), c))
                continue
            q, s = leaf.sampling_probability, leaf.event.noise_multiplier
            if q == 0:
                continue
            if self.relation == "replace-one":
                pair = (GaussianPair(2 / s) if q == 1
                        else ReplaceOnePoissonGaussianPair(q, s))
                for d in dirs.values():
                    d.append(Factor(pair, c))
                continue
            for name, d in dirs.items():
                d.append(Factor(PoissonSubsampledGaussianPair(q, s, name), c))
        scen = [d for d in dirs.values() if d]
        if len(scen) == 2 and scen[0] == scen[1]:
            scen = scen[:1]
        return scen

    def get_epsilon(self, delta: Number, width: float | None = None):
        """A certified :class:`dpsym.pld.PLDInterval` for eps(delta)."""
        from dpsym.pld import certify_epsilon

        scen = self.scenarios()
        if not scen:  # nothing private was released
            from dpsym.pld import PLDInterval
            return PLDInterval("epsilon", mpf(str(delta)), mpf(0), mpf(0))
        return certify_epsilon(scen, delta, width=self.width if width is None else width,
                               max_points=self.max_points, progress=self.progress)

    def get_delta(self, eps: Number, rel_width: float | None = None):
        """A certified :class:`dpsym.pld.PLDInterval` for delta(eps)."""
        from dpsym.pld import certify_delta

        scen = self.scenarios()
        if not scen:
            from dpsym.pld import PLDInterval
            return PLDInterval("delta", mpf(str(eps)), mpf(0), mpf(0))
        return certify_delta(scen, eps,
                             rel_width=self.rel_width if rel_width is None else rel_width,
                             max_points=self.max_points, progress=self.progress)


# --- GDP / CLT ----------------------------------------------------------------------------


class GdpAccountant(_Accountant):
    """Gaussian-DP accountant: exact for full-batch Gaussian steps, CLT for Poisson sampling.

    Full batch: 1/sigma-GDP (2/sigma under replace-one), composing as sqrt(sum mu_i^2)
    (Dong, Roth & Su 2022, Cor. 3.3).  Poisson rate q, T steps, add/remove: the CLT of
    Bu, Dong, Long & Su 2020 ("Deep learning with Gaussian differential privacy", Harvard
    Data Science Review, Thm 5) gives mu ~ q sqrt(T (e^{1/sigma^2} - 1)); a limit, so the
    report is flagged ``certified=False``.
    """

    name = "gdp"

    def __init__(self, relation: str = "add-remove", dps: int = 30) -> None:
        super().__init__(relation)
        self.dps = dps

    def _check_leaf(self, leaf: DpEvent) -> None:
        if isinstance(leaf, GaussianEvent):
            return
        if (isinstance(leaf, PoissonSampledEvent) and isinstance(leaf.event, GaussianEvent)
                and self.relation == "add-remove"):
            return
        raise HypothesisError("event", type(leaf).__name__, "a Gaussian event, or a Poisson-"
                              "sampled Gaussian under add/remove (the CLT of Bu et al. 2020)",
                              "GdpAccountant")

    def mu(self) -> tuple[mpf, bool]:
        """(mu, certified): the composed GDP parameter and whether it is a bound."""
        require(bool(self._leaves), "events", "none", "at least one composed event", REF)
        certified = True
        with precision(self.dps + GUARD_DPS):
            total = mpf(0)
            for leaf, c in self.leaves:
                if isinstance(leaf, GaussianEvent):
                    s = to_mpf(leaf.noise_multiplier)
                    m = (1 if self.relation == "add-remove" else 2) / s
                    total += c * m * m
                else:
                    q = to_mpf(leaf.sampling_probability)
                    s = to_mpf(leaf.event.noise_multiplier)
                    total += q * q * c * mpmath.expm1(1 / (s * s))
                    certified = certified and q == 1
            out = mpmath.sqrt(total)
        return round_up(out, self.dps), certified

    def _report(self, target: str, given: Number) -> AccountingReport:
        from dpsym.fdp import gdp_delta, gdp_epsilon

        mu, certified = self.mu()
        value = (gdp_epsilon(mu, given, dps=self.dps) if target == "epsilon"
                 else gdp_delta(mu, given, dps=self.dps))
        with precision(self.dps):
            giv = +to_mpf(given, "given", REF)
        ref = ("Dong, Roth & Su 2022, Cor. 2.13 (exact)" if certified else
               "Bu, Dong, Long & Su 2020, CLT (an approximation, not a bound)")
        return AccountingReport(target=target, value=value, given=giv,
                                conversion="gdp_exact" if certified else "gdp_clt",
                                mechanism={"accountant": "gdp", "mu": mpmath.nstr(mu, 12),
                                           "certified": str(certified), "reference": ref},
                                dps=self.dps)

    def get_epsilon(self, delta: Number) -> AccountingReport:
        return self._report("epsilon", delta)

    def get_delta(self, eps: Number) -> AccountingReport:
        return self._report("delta", eps)


def rdp_account(
    event: PoissonSampledGaussian | FixedSizeSampledGaussian,
    delta: Number | None = None,
    eps: Number | None = None,
    orders: Sequence[Number] | None = None,
    conversion: str = "balle2020",
    dps: int = 30,
    compare: bool = False,
) -> AccountingReport:
    """eps at ``delta`` (or delta at ``eps``) of a run record, by :class:`RdpAccountant`.

    Kept for the run records of :mod:`dpsym.accounting.runs`; ``orders=None`` searches
    real alpha where the series applies.  Worst-case RDP lower bounds are included.
    """
    require((delta is None) != (eps is None), "delta/eps", f"delta={delta}, eps={eps}",
            "exactly one of delta and eps", REF)
    if isinstance(event, PoissonSampledGaussian):
        leaf: DpEvent = PoissonSampledEvent(event.q, GaussianEvent(event.sigma))
        relation, m = event.adjacency, event.m
    else:
        leaf = FixedSizeSampledEvent(event.dataset_size, event.batch_size,
                                     GaussianEvent(event.sigma), event.replacement)
        relation, m = event.adjacency, event.m
    acc = RdpAccountant(relation, orders=orders, conversion=conversion, taylor_order=m,
                        dps=dps)
    acc.compose(leaf, int(event.steps))
    if delta is not None:
        return acc.get_epsilon(delta, compare=compare, lower=True)
    return acc.get_delta(eps, compare=compare, lower=True)
