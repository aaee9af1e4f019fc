"""The recorded peer values, their exact values, and the audit's findings.

The records (tests/reference/peers/*.json) hold what each peer computed, with library,
version and exact call; exact.json holds, per case, the oracle's value and dpsym's.  These
tests (always run, peers or not): the files are complete; dpsym agrees with the oracle on
every stored case; a sample of stored values is recomputed live (oracle and dpsym); and
each finding of the audit is what the recorded and exact values say.  The peers' values
are data here, never a reference for dpsym.
"""

from __future__ import annotations

import math

import mpmath
import pytest
from mpmath import mpf

from dpsym import gdp_epsilon, poisson_gaussian_rdp
from dpsym.numerics import agreeing_digits
from dpsym.peers import audit
from dpsym.peers.exact import oracle_gdp_epsilon, oracle_log_a, oracle_poisson_rdp
from dpsym.peers.pld import pld_epsilon_bounds
from dpsym.peers.records import LIBRARIES, case_key, load, load_exact

EXACT = load_exact()["cases"]


def _m(text: str) -> mpf:
    """A stored decimal string as an mpf at 60 digits (not at the global precision)."""
    with mpmath.workdps(60):
        return mpf(text)

ALL = [r for lib in LIBRARIES for r in load(lib)["records"]]


def test_files_are_complete():
    assert len(ALL) >= 200
    counts = audit.record_counts()
    assert set(counts) == set(LIBRARIES) and all(n >= 20 for n in counts.values())
    versions = audit.library_versions()
    assert versions["dp-accounting"] == "0.6.0"
    for r in ALL:
        assert r["library"] and r["call"] and r["quantity"], r["id"]
        assert (r["value"] is None) != (r["error"] is None), r["id"]
        assert load(r["library"])["version"]
    # TF-Privacy is transcribed: every record says where it comes from
    assert all(r["source"] and r["test"] for r in load("tf-privacy")["records"])


def test_every_case_has_an_exact_value():
    missing = [r["id"] for r in ALL if case_key(r["quantity"], r["params"]) not in EXACT]
    assert not missing, missing[:5]
    errors = [k for k, v in EXACT.items() if "error" in v]
    assert not errors, errors[:5]


def test_dpsym_agrees_with_the_oracle_on_every_stored_case():
    worst = {}
    for k, v in EXACT.items():
        if "digits" not in v:
            continue
        need = 28 if v["quantity"] == "epsilon_rdp" else 38
        assert v["digits"] >= need, (k, v["digits"])
        worst[v["quantity"]] = min(worst.get(v["quantity"], 99), v["digits"])
    assert set(worst) >= {"rdp", "log_a", "epsilon_rdp", "epsilon_gdp", "delta_gdp",
                          "epsilon_clt"}


#: A deterministic sample of stored cases recomputed live (integer and fractional orders,
#: the dp-accounting test case, an alpha = 1.25 case where dp-accounting returns inf).
LIVE_RDP = [("rdp", {"q": 0.01, "sigma": 2.5, "alpha": 1.5, "steps": 50}),
            ("rdp", {"q": 0.05, "sigma": 0.8, "alpha": 1.25, "steps": 1}),
            ("rdp", {"q": 0.1, "sigma": 1.0, "alpha": 16.0, "steps": 1}),
            ("rdp", {"q": 0.01, "sigma": 0.1, "alpha": 128.0, "steps": 1})]


@pytest.mark.parametrize("quantity,params", LIVE_RDP, ids=[case_key(*c) for c in LIVE_RDP])
def test_stored_rdp_recomputed(quantity, params):
    v = EXACT[case_key(quantity, params)]
    p = params
    exact = oracle_poisson_rdp(p["q"], p["sigma"], p["alpha"], p["steps"], dps=40)
    ours = poisson_gaussian_rdp(p["q"], p["sigma"], p["alpha"], p["steps"], dps=40)
    assert agreeing_digits(exact, _m(v["exact"])) >= 38
    assert agreeing_digits(ours, _m(v["dpsym"])) >= 38


def test_stored_log_a_and_gdp_recomputed():
    v = EXACT[case_key("log_a", {"q": 0.0001, "sigma": 1.0, "alpha": 1.5})]
    assert agreeing_digits(oracle_log_a(0.0001, 1.0, 1.5, dps=40), _m(v["exact"])) >= 38
    v = EXACT[case_key("epsilon_gdp", {"mu": 50.0, "delta": 1e-100})]
    assert agreeing_digits(oracle_gdp_epsilon(50.0, 1e-100, dps=40), _m(v["exact"])) >= 38
    assert agreeing_digits(gdp_epsilon(50.0, 1e-100, dps=40), _m(v["dpsym"])) >= 38


def test_stored_pld_bracket_recomputed():
    """One stored bracket (sigma 3, q 0.001, 100 steps, delta 1e-6) recomputed on its grid."""
    p = {"q": 0.001, "sigma": 3.0, "steps": 100, "delta": 1e-6}
    v = EXACT[case_key("epsilon_pld", p)]
    for d in ("remove", "add"):
        b = pld_epsilon_bounds(p["q"], p["sigma"], p["steps"], p["delta"], d, h=v["h"])
        assert math.isclose(b.lower, float(v[d][0]), rel_tol=1e-9)
        assert math.isclose(b.upper, float(v[d][1]), rel_tol=1e-9)


def test_brackets_are_ordered():
    for k, v in EXACT.items():
        if v["quantity"] == "epsilon_pld":
            for d in ("remove", "add", "both"):
                assert float(v[d][0]) <= float(v[d][1]), k


# --- the findings ---------------------------------------------------------------------

F = {f.key: f for f in audit.findings()}


def test_dp_accounting_fractional_orders():
    f = F["dp-accounting/fractional-rdp"]
    assert f.peer.startswith("0.00067057974")  # what dp-accounting computes
    assert f.exact == "0.00065007089719"
    assert 0.0315 < f.rel_error < 0.0316  # +3.15%
    worst = max(r["rel_error"] for r in audit.rdp_rows("dp-accounting", "rdp/")
                if r["alpha"] == 1.1 and r["rel_error"] is not None)
    assert worst > 0.07  # +7.4% on the grid; far more at q = 0.1, sigma = 5
    assert "inf" in f.consequence and "(0.05, 0.8)" in f.consequence
    # never an under-estimate where the RDP is not tiny (the series only over-counts)
    for r in audit.rdp_rows("dp-accounting", "rdp/"):
        if r["rel_error"] is not None and r["alpha"] != int(r["alpha"]) and _m(r["exact"]) > 1e-9:
            assert r["rel_error"] > -1e-9, r


def test_tf_privacy_inherits():
    f = F["tf-privacy/inherits"]
    assert "3.2392676" in f.peer and "22.6248601" in f.peer and "order 1.7" in f.peer
    assert "3.2391922" in f.exact and "22.5970358" in f.exact and "order 1.6" in f.exact


def test_opacus_rdp_is_right():
    f = F["opacus/rdp-correct"]
    assert abs(f.rel_error) < 1e-11
    assert "7.32911117143" in f.peer


def test_test_suite_reference_is_imprecise():
    f = F["dp-accounting/test-reference"]
    assert 5e-5 < abs(f.rel_error) < 1e-4  # up to 7.7e-5, inside the test's rtol = 1e-4


def test_prv_analytic_reference():
    f = F["prv-accountant/analytic-reference"]
    assert f.peer.startswith("0.0;")
    assert f.exact.startswith("6.1492e-2155")
    assert 1e-14 < abs(f.rel_error) < 1e-12


def test_autodp_default_amplification():
    f = F["autodp/default-amplification"]
    rows = audit.rdp_rows("autodp", "rdp_default/")
    ints = max(r["rel_error"] for r in rows if r["rel_error"] is not None
               and r["alpha"] == int(r["alpha"]))
    frac = max(r["rel_error"] for r in rows if r["rel_error"] is not None
               and r["alpha"] != int(r["alpha"]))
    assert ints > 25 and frac > 25  # >= 26x (integer) and >= 243x (fractional) here
    assert f.rel_error == ints
    # an upper bound, up to float64's cancellation at RDP ~ 1e-8 (alpha = 2, q = 0.001)
    assert all(r["rel_error"] > -1e-8 for r in rows if r["rel_error"] is not None
               and _m(r["exact"]) > 1e-9)


def test_prv_values_are_remove_direction_upper_bounds():
    f = F["opacus+prv-accountant/prv-upper"]
    assert f.peer == "0.270403364058018680360362395731"
    assert "remove [0.260237, 0.260337]" in f.exact  # inside the issue's [0.25984, 0.26034]
    for r in audit.pld_rows():
        up_remove = float(r["remove"][1])
        assert float(r["asserted"]) > up_remove  # above the exact remove-direction eps
        assert float(r["asserted"]) - up_remove < 0.012  # by at most about eps_error
        # the add direction, left out by the PRV accountant, is below the reported value
        assert float(r["add"][1]) < float(r["asserted"])


def test_opacus_gdp_findings():
    f = F["opacus/gdp-test-steps"]
    assert "6.601567" in f.peer and "6.601567" in f.exact
    g = F["gdp/extremes"]
    assert "ValueError" in g.peer and "inf" in g.peer
    assert g.exact.startswith("2312.83952925")
