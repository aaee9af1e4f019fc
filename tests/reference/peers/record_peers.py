"""Record what the installed peer accountants compute, for dpsym's peer audit.

Not part of the test run: the recorded files are.  Run in a separate virtualenv that has
the peers (and not dpsym), from the repository root::

    python3 -m venv /tmp/peers
    /tmp/peers/bin/pip install torch==2.13.0      # CPU wheel; opacus needs it
    /tmp/peers/bin/pip install opacus dp-accounting prv-accountant autodp mpmath
    /tmp/peers/bin/python tests/reference/peers/record_peers.py

It (re)writes ``dp_accounting.json``, ``opacus.json``, ``prv_accountant.json``,
``autodp.json`` and ``order_grids.json`` next to this file.  Every record holds the
library, its version, the exact call (a Python expression, evaluated here with the
imports below) and the value: ``repr(float)``, ``"inf"``/``"nan"``, or ``None`` with the
exception text in ``error``.  Exact values are *not* computed here (see make_exact.py).

The cases:

* ``rdp``: one-step or composed RDP of the Poisson-subsampled Gaussian on two grids
  (FIGURE_GRID for the relative-error figure, WIDE_GRID for the fractional orders near
  1), plus dp-accounting's own test case (q = 0.01, sigma = 2.5, 50 steps);
* ``log_a``: log A_alpha on the ten parameter sets of dp-accounting's
  ``test_compute_log_a_equals_mp``, by dp-accounting, Opacus and by the test's own
  multiprecision reference ``_compute_a_mp`` (an unsplit mpmath.quad at mpmath's default
  15 digits), imported from the installed test module;
* ``epsilon_rdp``: eps of a whole run through each library's accountant (its default
  orders and its conversion);
* ``epsilon_clt``: Opacus's ``GaussianAccountant`` (the Poisson CLT mu, then eps(mu));
* ``epsilon_gdp``: eps of mu-GDP at a delta (Opacus ``eps_from_mu``; dp-accounting's PLD
  of the Gaussian mechanism with standard deviation 1/mu);
* ``delta_gdp``: the analytic delta(eps) of mu-GDP that prv-accountant's tests use as
  "exact" (``compute_delta_exact`` in tests/test_accountant.py: the expression below);
* ``epsilon_pld``: the numerical accountants (prv-accountant's ``PRVAccountant``,
  Opacus's ``PRVAccountant``, dp-accounting's ``PLDAccountant``) on the 34 runs of Opacus's
  tests/prv_accountant.py (delta 1e-6), whose asserted values are recorded as well.
"""

from __future__ import annotations

import importlib.metadata as md
import json
import math
import platform
import signal
import sys
import warnings
from pathlib import Path
from types import FrameType

import dp_accounting
import dp_accounting.pld.privacy_loss_distribution
import dp_accounting.rdp.rdp_privacy_accountant
import numpy
import opacus.accountants
import opacus.accountants.analysis.gdp
import opacus.accountants.analysis.rdp
import prv_accountant  # noqa: F401  (the recorded calls are eval'd here)
import scipy
import scipy.stats
from autodp.mechanism_zoo import ExactGaussianMechanism, SubsampleGaussianMechanism
from autodp.transformer_zoo import AmplificationBySampling, Composition
from dp_accounting.rdp import rdp_privacy_accountant_test  # noqa: F401  (eval'd calls)

warnings.simplefilter("ignore")
HERE = Path(__file__).resolve().parent
TIMEOUT = 300

FIGURE_QS = (0.001, 0.01, 0.1)
FIGURE_SIGMA = 1.0
FIGURE_ALPHAS = (1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 8.0, 10.5, 16.0,
                 24.0, 32.0)
WIDE_QS = (0.001, 0.01, 0.05, 0.1)
WIDE_SIGMAS = (0.8, 2.5, 5.0)
WIDE_ALPHAS = (1.1, 1.25, 1.5, 2.0, 2.5, 8.0)
DPA_TEST = {"q": 0.01, "sigma": 2.5, "steps": 50, "alphas": (1.5, 2.5, 5.0, 50.0, 100.0)}

#: dp-accounting's test_compute_log_a_equals_mp parameters (rdp_privacy_accountant_test.py)
LOG_A_PARAMS = [(1e-7, 0.1, 1.01), (1e-6, 0.1, 256.0), (1e-5, 0.1, 256.1), (1e-6, 1.0, 27.0),
                (1e-4, 1.0, 1.5), (1e-3, 1.0, 2.0), (0.01, 10.0, 20.0), (0.1, 100.0, 20.5),
                (0.99, 0.1, 256.0), (0.999, 100.0, 256.1)]

#: Opacus tests/prv_accountant.py: (sigma, q, steps) -> asserted eps at delta = 1e-6
#: (computed there "from https://github.com/microsoft/prv_accountant"); the three rows
#: commented out in that file are left out here too.
OPACUS_PRV = {
    (0.8, 0.001, 100): "0.270403364058018680360362395731",
    (1.5, 0.001, 100): "0.0393694193095203287535710501288",
    (2.0, 0.001, 100): "0.0291045369484074882560076247273",
    (3.0, 0.001, 100): "0.0215200934390882663016508757892",
    (0.8, 0.05, 100): "6.74105193941409996938318727189",
    (1.5, 0.05, 100): "1.95385313568420015961635272106",
    (2.0, 0.05, 100): "1.28363737962406521120328761754",
    (3.0, 0.05, 100): "0.767933789666825572517439013609",
    (0.8, 0.2, 100): "24.3336641779225644199868838768",
    (1.5, 0.2, 100): "8.49897785912163072907787864096",
    (2.0, 0.2, 100): "5.67205560882372950004537415225",
    (3.0, 0.2, 100): "3.38122051022184422208738396876",
    (0.8, 0.001, 1000): "0.477771266184522591657923840103",
    (1.5, 0.001, 1000): "0.0998206602308474855167474970585",
    (2.0, 0.001, 1000): "0.0712187825381152272985474382949",
    (3.0, 0.001, 1000): "0.0476159308713589302097801692071",
    (0.8, 0.05, 1000): "19.5258428053837356230815203162",
    (1.5, 0.05, 1000): "6.20996924657726712126759593957",
    (2.0, 0.05, 1000): "4.17279986668931890392286732094",
    (3.0, 0.05, 1000): "2.52757432605973830774814814504",
    (0.8, 0.001, 20000): "1.29600925757016161021795142005",
    (1.5, 0.001, 20000): "0.437005108654860807693154356457",
    (2.0, 0.001, 20000): "0.305837939762453436820521801565",
    (3.0, 0.001, 20000): "0.194031030686054706269061398416",
    (1.5, 0.05, 20000): "38.3066179140872336006395926233",
    (2.0, 0.05, 20000): "24.4217185703225858617315680021",
    (3.0, 0.05, 20000): "13.9611146992367061159256991232",
    (0.8, 0.001, 50000): "2.03451480771586634688219419331",
    (1.5, 0.001, 50000): "0.704218384555810095193351116905",
    (2.0, 0.001, 50000): "0.491354910211401318953505779064",
    (3.0, 0.001, 50000): "0.309694161156544023327796821832",
    (1.5, 0.05, 50000): "73.1901767238329625797632616013",
    (2.0, 0.05, 50000): "45.2369958613306906158868514467",
    (3.0, 0.05, 50000): "24.9420056431444763234139827546",
}
OPACUS_PRV_SOURCE = "opacus 1.6.0 opacus/tests/prv_accountant.py (msr_values; test_values)"

#: GDP extremes: (mu, delta)
GDP_CASES = [(mu, d) for mu in (0.5, 1.0, 5.0, 10.0, 50.0)
             for d in (1e-5, 1e-10, 1e-50, 1e-100)]
#: prv-accountant tests/test_accountant.py compute_delta_exact(eps, mu): mu = 1 is its
#: homogeneous test (sqrt(10000)/100), sqrt(2.5) its heterogeneous one.
DELTA_GDP_CASES = [(eps, mu) for mu in (1.0, math.sqrt(2.5)) for eps in (0.5, 1.0, 4.0, 10.0,
                                                                        30.0, 100.0)]
COMPUTE_DELTA_EXACT = ("scipy.stats.norm.cdf(-eps/mu+mu/2)-numpy.exp(eps)*"
                       "scipy.stats.norm.cdf(-eps/mu-mu/2)")


class _TimeoutError(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _TimeoutError


signal.signal(signal.SIGALRM, _alarm)


def run(call: str, env: dict | None = None) -> tuple[object, str | None]:
    """eval ``call``; (value, None) or (None, error text)."""
    signal.alarm(TIMEOUT)
    try:
        return eval(call, globals(), env or {}), None
    except _TimeoutError:
        return None, f"timeout after {TIMEOUT} s"
    except Exception as exc:  # the error is what is recorded
        return None, f"{type(exc).__name__}: {exc}"
    finally:
        signal.alarm(0)


def show(v: object) -> str | None:
    if v is None:
        return None
    f = float(v)
    return repr(f) if math.isfinite(f) else ("inf" if f > 0 else "nan" if f != f else "-inf")


class Book:
    def __init__(self, library: str, dist: str) -> None:
        self.library, self.dist, self.version = library, dist, md.version(dist)
        self.records: list[dict] = []

    def add(self, rid: str, quantity: str, params: dict, call: str, env: dict | None = None,
            **extra: object) -> object:
        value, err = run(call, env)
        rec = {"id": f"{self.library}/{rid}", "library": self.library, "version": self.version,
               "quantity": quantity, "params": params, "call": call, "value": show(value),
               "error": err, **extra}
        self.records.append(rec)
        return value

    def write(self) -> None:
        path = HERE / f"{self.library.replace('-', '_')}.json"
        path.write_text(json.dumps({
            "library": self.library, "distribution": self.dist, "version": self.version,
            "python": platform.python_version(), "machine": platform.machine(),
            "numpy": numpy.__version__, "scipy": scipy.__version__,
            "script": "tests/reference/peers/record_peers.py",
            "records": self.records}, indent=1) + "\n")
        print(f"{len(self.records):4d} records -> {path.name}")


def rdp_grid() -> list[tuple[float, float, float, int]]:
    pts = [(q, FIGURE_SIGMA, a, 1) for q in FIGURE_QS for a in FIGURE_ALPHAS]
    pts += [(q, s, a, 1) for q in WIDE_QS for s in WIDE_SIGMAS for a in WIDE_ALPHAS]
    pts += [(DPA_TEST["q"], DPA_TEST["sigma"], a, DPA_TEST["steps"]) for a in DPA_TEST["alphas"]]
    seen, out = set(), []
    for p in pts:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


def rdp_params(q: float, s: float, a: float, t: int) -> dict:
    return {"q": q, "sigma": s, "alpha": a, "steps": t}


def record_dp_accounting(book: Book) -> None:
    for q, s, a, t in rdp_grid():
        book.add(f"rdp/q={q},sigma={s},alpha={a},steps={t}", "rdp", rdp_params(q, s, a, t),
                 f"float(dp_accounting.rdp.RdpAccountant(orders=[{a!r}]).compose("
                 f"dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent({q!r}, "
                 f"dp_accounting.GaussianDpEvent({s!r})), {t}))._rdp[0])")
    for q, s, a in LOG_A_PARAMS:
        p = {"q": q, "sigma": s, "alpha": a}
        book.add(f"log_a/q={q},sigma={s},alpha={a}", "log_a", p,
                 f"dp_accounting.rdp.rdp_privacy_accountant._compute_log_a({q!r}, {s!r}, {a!r})")
        book.add(f"log_a_mp_test_reference/q={q},sigma={s},alpha={a}", "log_a", p,
                 f"rdp_privacy_accountant_test._log_float_mp(rdp_privacy_accountant_test."
                 f"_compute_a_mp({s!r}, {q!r}, {a!r}))",
                 source="dp_accounting/rdp/rdp_privacy_accountant_test.py (installed) "
                        "_compute_a_mp, the reference of test_compute_log_a_equals_mp "
                        "(assert_allclose rtol=1e-4, atol=1e-8)")
    # whole runs through the accountant: default orders, its conversion
    for name, q, s, t, d in [("opacus-test-run", 0.04, 1.5, 2250, 1e-5),
                             ("tf-example-no-microbatching", 0.01, 0.7, 120, 1e-5),
                             ("tf-example-microbatching", 0.01, 0.35, 120, 1e-5),
                             ("dpa-test-run", 0.01, 2.5, 50, 1e-5)]:
        call = (f"dp_accounting.rdp.RdpAccountant().compose(dp_accounting.SelfComposedDpEvent("
                f"dp_accounting.PoissonSampledDpEvent({q!r}, dp_accounting.GaussianDpEvent({s!r}"
                f")), {t})).get_epsilon_and_optimal_order({d!r})")
        value, err = run(call)
        book.records.append({
            "id": f"dp-accounting/epsilon_rdp/{name}", "library": book.library,
            "version": book.version, "quantity": "epsilon_rdp",
            "params": {"q": q, "sigma": s, "steps": t, "delta": d,
                       "orders": "dp-accounting-default"},
            "call": call, "value": None if value is None else show(value[0]),
            "order": None if value is None else float(value[1]), "error": err})
    for mu, d in GDP_CASES:
        book.add(f"epsilon_gdp/mu={mu},delta={d}", "epsilon_gdp", {"mu": mu, "delta": d},
                 f"dp_accounting.pld.privacy_loss_distribution.from_gaussian_mechanism("
                 f"{1 / mu!r}).get_epsilon_for_delta({d!r})",
                 method="PLD of the Gaussian mechanism, standard deviation 1/mu, "
                        "pessimistic, default discretisation 1e-4")
        book.add(f"epsilon_gdp_rdp/mu={mu},delta={d}", "epsilon_gdp", {"mu": mu, "delta": d},
                 f"dp_accounting.rdp.RdpAccountant().compose(dp_accounting.GaussianDpEvent("
                 f"{1 / mu!r})).get_epsilon({d!r})",
                 method="RDP of the Gaussian mechanism (an upper bound, not the exact eps)")
    for (s, q, t) in OPACUS_PRV:
        if t > 20000:
            continue  # PLD self-composition of 50000 steps is slow; the others suffice
        book.add(f"epsilon_pld/sigma={s},q={q},steps={t}", "epsilon_pld",
                 {"q": q, "sigma": s, "steps": t, "delta": 1e-6},
                 f"dp_accounting.pld.pld_privacy_accountant.PLDAccountant().compose("
                 f"dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent({q!r}, "
                 f"dp_accounting.GaussianDpEvent({s!r})), {t})).get_epsilon(1e-6)",
                 method="PLDAccountant defaults (pessimistic, discretisation 1e-4)")


def record_opacus(book: Book) -> None:
    for q, s, a, t in rdp_grid():
        book.add(f"rdp/q={q},sigma={s},alpha={a},steps={t}", "rdp", rdp_params(q, s, a, t),
                 f"opacus.accountants.analysis.rdp.compute_rdp(q={q!r}, noise_multiplier={s!r}, "
                 f"steps={t}, orders=[{a!r}])[0]")
    for q, s, a in LOG_A_PARAMS:
        book.add(f"log_a/q={q},sigma={s},alpha={a}", "log_a", {"q": q, "sigma": s, "alpha": a},
                 f"opacus.accountants.analysis.rdp._compute_log_a({q!r}, {s!r}, {a!r})")
    call = ("(lambda a: (setattr(a, 'history', [(1.5, 0.04, int(90 / 0.04))]), "
            "a.get_epsilon(delta=1e-5))[1])(opacus.accountants.RDPAccountant())")
    book.add("epsilon_rdp/accountants_test.test_rdp_accountant", "epsilon_rdp",
             {"q": 0.04, "sigma": 1.5, "steps": 2250, "delta": 1e-5, "orders": "opacus-default"},
             call, asserted="7.32911117143",
             source="opacus/tests/accountants_test.py test_rdp_accountant "
                    "(assertAlmostEqual, 7 places)")
    for t in (2249, 2250):
        book.add(f"epsilon_clt/steps={t}", "epsilon_clt",
                 {"q": 0.04, "sigma": 1.5, "steps": t, "delta": 1e-5},
                 f"opacus.accountants.analysis.gdp.compute_eps_poisson(steps={t}, "
                 f"noise_multiplier=1.5, sample_rate=0.04, delta=1e-5)",
                 source="opacus/tests/accountants_test.py test_gdp_accountant: steps = "
                        "int(90 // 0.04) = 2249, asserts 6.59 < eps < 6.6")
    for mu, d in GDP_CASES:
        book.add(f"epsilon_gdp/mu={mu},delta={d}", "epsilon_gdp", {"mu": mu, "delta": d},
                 f"opacus.accountants.analysis.gdp.eps_from_mu(mu={mu!r}, delta={d!r})",
                 method="brentq on the bracket [0, 500]")
    for (s, q, t), value in OPACUS_PRV.items():
        p = {"q": q, "sigma": s, "steps": t, "delta": 1e-6}
        book.records.append({
            "id": f"opacus/epsilon_pld_asserted/sigma={s},q={q},steps={t}",
            "library": book.library, "version": book.version, "quantity": "epsilon_pld",
            "params": p, "call": f"msr_values[({s}, {q}, {t})]", "value": value, "error": None,
            "source": OPACUS_PRV_SOURCE,
            "method": "asserted to 4 places against PRVAccountant().get_epsilon(delta=1e-6) "
                      "(eps_error 0.01, delta_error 1e-9): the upper end of the interval"})
        book.add(f"epsilon_pld/sigma={s},q={q},steps={t}", "epsilon_pld", p,
                 f"(lambda a: (setattr(a, 'history', [({s!r}, {q!r}, {t})]), "
                 f"a.get_epsilon(delta=1e-6))[1])(opacus.accountants.PRVAccountant())",
                 method="PRVAccountant.get_epsilon: the upper end (eps_error 0.01)")
    book.add("epsilon_pld/accountants_test.test_prv_accountant", "epsilon_pld",
             {"q": 0.04, "sigma": 1.5, "steps": 2249, "delta": 1e-5},
             "(lambda a: (setattr(a, 'history', [(1.5, 0.04, int(90 // 0.04))]), "
             "a.get_epsilon(delta=1e-5))[1])(opacus.accountants.PRVAccountant())",
             asserted="6.777395712150674",
             source="opacus/tests/accountants_test.py test_prv_accountant (steps = "
                    "int(90 // 0.04) = 2249)")


def record_prv(book: Book) -> None:
    for q, s, a, t in rdp_grid():
        book.add(f"rdp/q={q},sigma={s},alpha={a},steps={t}", "rdp", rdp_params(q, s, a, t),
                 f"{t} * prv_accountant.PoissonSubsampledGaussianMechanism(sampling_probability="
                 f"{q!r}, noise_multiplier={s!r}).rdp({a!r})")
    for eps, mu in DELTA_GDP_CASES:
        book.add(f"delta_gdp/eps={eps},mu={mu}", "delta_gdp", {"eps": eps, "mu": mu},
                 COMPUTE_DELTA_EXACT, {"eps": eps, "mu": mu, "scipy": scipy, "numpy": numpy},
                 source="microsoft/prv_accountant tests/test_accountant.py compute_delta_exact "
                        "(the analytic reference of its Gaussian tests)")
    for (s, q, t) in OPACUS_PRV:
        call = (f"prv_accountant.PRVAccountant(prvs=[prv_accountant.PoissonSubsampledGaussian"
                f"Mechanism(sampling_probability={q!r}, noise_multiplier={s!r})], "
                f"max_self_compositions=[{t}], eps_error=0.01, delta_error=1e-9)"
                f".compute_epsilon(delta=1e-6, num_self_compositions=[{t}])")
        value, err = run(call)
        book.records.append({
            "id": f"prv-accountant/epsilon_pld/sigma={s},q={q},steps={t}",
            "library": book.library, "version": book.version, "quantity": "epsilon_pld",
            "params": {"q": q, "sigma": s, "steps": t, "delta": 1e-6}, "call": call,
            "value": None if value is None else show(value[2]),
            "lower": None if value is None else show(value[0]),
            "estimate": None if value is None else show(value[1]), "error": err,
            "method": "compute_epsilon -> (lower, estimate, upper); value is the upper"})


def record_autodp(book: Book) -> None:
    env = {"SubsampleGaussianMechanism": SubsampleGaussianMechanism,
           "AmplificationBySampling": AmplificationBySampling, "Composition": Composition,
           "ExactGaussianMechanism": ExactGaussianMechanism}
    pts = rdp_grid()
    tf = json.loads((HERE / "tf_privacy.json").read_text())
    pts += [(r["params"]["q"], r["params"]["sigma"], r["params"]["alpha"], 1)
            for r in tf["records"] if r["id"].startswith("tf-privacy/autodp_test_reference/")]
    for q, s, a, t in pts:
        p = rdp_params(q, s, a, t)
        book.add(f"rdp_default/q={q},sigma={s},alpha={a},steps={t}", "rdp", p,
                 f"Composition()([AmplificationBySampling(PoissonSampling=True)("
                 f"ExactGaussianMechanism({s!r}), {q!r})], [{t}]).get_RDP({a!r})", env,
                 method="default Poisson amplification (improved_bound_flag=False), as in "
                        "autodp's test_dp_sgd_poisson_sampling_add_remove.py")
        book.add(f"rdp_zoo/q={q},sigma={s},alpha={a},steps={t}", "rdp", p,
                 f"SubsampleGaussianMechanism({{'prob': {q!r}, 'sigma': {s!r}, 'coeff': {t}}})"
                 f".get_RDP({a!r})", env,
                 method="mechanism_zoo.SubsampleGaussianMechanism (improved_bound_flag=True)")


def main() -> None:
    grids = {
        "dp-accounting-default": list(dp_accounting.rdp.rdp_privacy_accountant.DEFAULT_RDP_ORDERS),
        "opacus-default": list(opacus.accountants.RDPAccountant.DEFAULT_ALPHAS),
        # compute_dp_sgd_privacy_lib.compute_dp_sgd_privacy (TF-Privacy, transcribed)
        "tf-privacy-compute-dp-sgd-privacy": [1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 3.0, 3.5, 4.0,
                                              4.5, *range(5, 64), 128, 256, 512],
    }
    (HERE / "order_grids.json").write_text(json.dumps(
        {"note": "RDP order grids of the peers' accountants (read from the installed "
                 "libraries; the TF-Privacy one transcribed from compute_dp_sgd_privacy_lib.py)",
         "grids": {k: [float(x) for x in v] for k, v in grids.items()}}, indent=1) + "\n")
    for lib, dist, fn in (("dp-accounting", "dp-accounting", record_dp_accounting),
                          ("opacus", "opacus", record_opacus),
                          ("prv-accountant", "prv-accountant", record_prv),
                          ("autodp", "autodp", record_autodp)):
        book = Book(lib, dist)
        fn(book)
        book.write()
    print("python", sys.version.split()[0])


if __name__ == "__main__":
    main()
