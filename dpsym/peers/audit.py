"""The peer audit: each finding with the peer's value, the exact value, the relative error,
the cause and the consequence for a user's eps.

Everything here is computed from the recorded peer values and the stored exact values
(:mod:`dpsym.peers.records`); nothing is typed in.  The exact values are those of the
independent oracles (:mod:`dpsym.peers.exact`, :mod:`dpsym.peers.pld`); the tests
recompute them and check dpsym against them, never against a peer.

A relative error is (peer - exact) / exact: positive means the peer reports more privacy
loss than there is (safe, but a user pays for it in noise or utility), negative means
less (unsafe).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass

from mpmath import mpf

from dpsym.numerics import nstr, precision, to_mpf
from dpsym.peers.exact import oracle_balle_epsilon
from dpsym.peers.records import LIBRARIES, case_key, load, load_exact

__all__ = [
    "Finding",
    "agreement_summary",
    "describe",
    "find_record",
    "findings",
    "library_versions",
    "pld_rows",
    "rdp_rows",
    "record_counts",
    "relative_error",
    "relative_error_table",
]

_DPS = 30


@dataclass(frozen=True)
class Finding:
    """One finding: what a peer computes against the exact value, and why it matters.

    ``peer`` and ``exact`` are the values as shown (strings: a number, an interval, "inf",
    an error); ``rel_error`` is (peer - exact)/exact where both are numbers (for an
    interval, against its nearer end), else None.
    """

    key: str
    library: str
    title: str
    case: str
    peer: str
    exact: str
    rel_error: mpf | None
    cause: str
    consequence: str


def relative_error(peer: str | float, exact: str | mpf) -> mpf | None:
    """(peer - exact)/exact at 30 digits, None when either is not a finite number."""
    if peer is None:
        return None
    with precision(_DPS):
        p = to_mpf(peer, allow_inf=True) if isinstance(peer, str) else to_mpf(peer)
        e = to_mpf(exact) if isinstance(exact, str) else +exact
        if not math.isfinite(float(p)) or e == 0:
            return None
        return (p - e) / e


def find_record(library: str, rid: str) -> dict:
    """The record of ``library`` whose id is ``<library>/<rid>``."""
    want = f"{library}/{rid}"
    for r in load(library)["records"]:
        if r["id"] == want:
            return r
    raise ValueError(f"rid={rid!r} violates 'a recorded case of {library}' (dpsym.peers.audit)")


def _exact_of(rec: dict) -> dict:
    return load_exact()["cases"][case_key(rec["quantity"], rec["params"])]


def library_versions() -> dict[str, str]:
    """Library -> version (as recorded)."""
    return {lib: load(lib)["version"] for lib in LIBRARIES}


def record_counts() -> dict[str, int]:
    """Library -> number of recorded cases."""
    return {lib: len(load(lib)["records"]) for lib in LIBRARIES}


def rdp_rows(library: str, prefix: str = "rdp") -> list[dict]:
    """Every recorded RDP of ``library`` whose id starts with ``<library>/<prefix>``, with
    the exact value and the relative error (None for inf or an error)."""
    out = []
    for r in load(library)["records"]:
        if r["quantity"] != "rdp" or not r["id"].startswith(f"{library}/{prefix}"):
            continue
        ex = _exact_of(r)
        out.append({**r["params"], "id": r["id"], "value": r["value"], "error": r["error"],
                    "exact": ex["exact"], "rel_error": relative_error(r["value"], ex["exact"])})
    return out


def relative_error_table(sigma: float = 1.0, steps: int = 1) -> dict[str, list[dict]]:
    """The figure's data: per library, the RDP rows at ``sigma``, one step (every q, alpha).

    autodp appears twice: its default Poisson amplification (``rdp_default``) and its
    zoo mechanism with the improved bound (``rdp_zoo``)."""
    out: dict[str, list[dict]] = {}
    for label, lib, prefix in (("dp-accounting", "dp-accounting", "rdp/"),
                               ("Opacus", "opacus", "rdp/"),
                               ("prv-accountant", "prv-accountant", "rdp/"),
                               ("autodp (default)", "autodp", "rdp_default/"),
                               ("autodp (zoo)", "autodp", "rdp_zoo/")):
        rows = [r for r in rdp_rows(lib, prefix) if r["sigma"] == sigma and r["steps"] == steps]
        out[label] = sorted(rows, key=lambda r: (r["q"], r["alpha"]))
    return out


def pld_rows() -> list[dict]:
    """The 34 runs of Opacus's PRV test (delta = 1e-6): the value asserted there, Opacus's
    and prv-accountant's live values, dp-accounting's PLD, and the exact brackets."""
    rows = []
    for r in load("opacus")["records"]:
        if not r["id"].startswith("opacus/epsilon_pld_asserted/"):
            continue
        p = r["params"]
        tail = r["id"].split("/", 2)[2]
        ex = load_exact()["cases"][case_key("epsilon_pld", p)]

        def value(lib: str, rid: str) -> str | None:
            try:
                rec = find_record(lib, rid)
            except ValueError:
                return None
            return rec["value"] if rec["error"] is None else f"({rec['error']})"

        rows.append({**p, "asserted": r["value"],
                     "opacus": value("opacus", f"epsilon_pld/{tail}"),
                     "prv_accountant": value("prv-accountant", f"epsilon_pld/{tail}"),
                     "dp_accounting": value("dp-accounting", f"epsilon_pld/{tail}"),
                     "remove": ex["remove"], "add": ex["add"], "both": ex["both"]})
    return rows


def _interval(pair: Iterable[str], n: int = 6) -> str:
    lo, hi = pair
    return f"[{nstr(mpf(lo), n)}, {nstr(mpf(hi), n)}]"


def _pct(x: mpf | None, n: int = 3) -> str:
    return "-" if x is None else f"{'+' if x >= 0 else ''}{nstr(100 * x, n)}%"


def _dp_accounting_fractional() -> list[Finding]:
    lib = "dp-accounting"
    ver = library_versions()[lib]
    rec = find_record(lib, "rdp/q=0.01,sigma=2.5,alpha=1.5,steps=50")
    ex = _exact_of(rec)["exact"]
    rows = rdp_rows(lib, "rdp/")
    frac = [r for r in rows if r["alpha"] != int(r["alpha"])]
    worst = max((r for r in frac if r["rel_error"] is not None and r["alpha"] == 1.1),
                key=lambda r: r["rel_error"])
    infs = [r for r in frac if r["value"] == "inf"]
    inf_125 = sorted({(r["q"], r["sigma"]) for r in infs if r["alpha"] == 1.25})
    # RDP is non-decreasing in alpha; the over-counted series is not
    by_qs: dict[tuple, list] = {}
    for r in rows:
        if r["steps"] == 1 and r["value"] not in (None, "inf"):
            by_qs.setdefault((r["q"], r["sigma"]), []).append((r["alpha"], float(r["value"])))
    decreasing = sorted(qs for qs, pts in by_qs.items()
                        if any(b[1] < a[1] for a, b in itertools.pairwise(sorted(pts))))
    tf = [find_record("tf-privacy", f"example_privacy/{n}") for n in
          ("no_microbatching_with_subsampling_rdp", "microbatching_with_subsampling_rdp")]
    tf_ex = [_exact_of(r) for r in tf]
    # the order dp-accounting picks for the microbatching run
    dpa_micro = find_record(lib, "epsilon_rdp/tf-example-microbatching")
    return [
        Finding(
            "dp-accounting/fractional-rdp", f"dp-accounting {ver}",
            "Fractional-order RDP is an upper bound, not the RDP",
            "its own test: q = 0.01, sigma = 2.5, 50 steps, alpha = 1.5",
            rec["value"], nstr(mpf(ex), 11), relative_error(rec["value"], ex),
            "_compute_log_a_frac adds |C(alpha, i)| for every term of the alternating "
            "binomial series (log|Gamma| drops the sign), so the series over-counts; its test "
            "was updated to the inflated 6.70579741e-04 (TF-Privacy's own test had asserted "
            "0.00065).",
            f"eps is over-reported, never under-reported, when the optimal order is "
            f"fractional: at alpha = 1.1 the RDP is up to {_pct(worst['rel_error'])} too "
            f"large (q = {worst['q']}, sigma = {worst['sigma']}); at alpha = 1.25 the series "
            f"does not converge in 1000 terms and the order is dropped (inf) for "
            f"{len(inf_125)} of the audited (q, sigma): "
            + ", ".join(f"({q}, {s})" for q, s in inf_125) + "; and the computed curve "
            "even decreases in alpha (impossible for an RDP) at "
            + ", ".join(f"(q, sigma) = ({q}, {s})" for q, s in decreasing) + "."),
        Finding(
            "tf-privacy/inherits", "TF-Privacy (tests), via dp-accounting",
            "TF-Privacy's asserted eps inherit the inflated fractional orders",
            "compute_dp_sgd_privacy_test: q = 0.01, 120 steps, delta = 1e-5, sigma = 0.7 "
            "(and 0.35 with microbatching)",
            f"{tf[0]['value']}; {tf[1]['value']} (order {dpa_micro['order']:g})",
            f"{nstr(mpf(tf_ex[0]['exact']), 8)}; {nstr(mpf(tf_ex[1]['exact']), 9)} "
            f"(order {tf_ex[1]['order']:g})",
            relative_error(tf[1]["value"], tf_ex[1]["exact"]),
            "TF-Privacy computes eps with dp-accounting's RdpAccountant, so its test values "
            "carry the over-counted fractional orders; with the exact RDP the optimum of the "
            "microbatching run moves to a lower order.",
            f"eps over-reported by {_pct(relative_error(tf[0]['value'], tf_ex[0]['exact']))} "
            f"and {_pct(relative_error(tf[1]['value'], tf_ex[1]['exact']))}: safe, small."),
    ]


def _opacus_rdp() -> Finding:
    rec = find_record("opacus", "epsilon_rdp/accountants_test.test_rdp_accountant")
    ex = _exact_of(rec)
    grid = [r for r in rdp_rows("opacus", "rdp/") if r["rel_error"] is not None]
    hi = max(grid, key=lambda r: r["rel_error"])
    lo = min(grid, key=lambda r: r["rel_error"])
    return Finding(
        "opacus/rdp-correct", f"Opacus {library_versions()['opacus']}",
        "The signed series is right",
        "accountants_test.test_rdp_accountant: q = 0.04, sigma = 1.5, 2250 steps, "
        "delta = 1e-5, Opacus's default orders",
        f"{rec['asserted']} (asserted); {rec['value']} (computed)",
        f"{nstr(mpf(ex['exact']), 15)} (order {ex['order']:g})",
        relative_error(rec["value"], ex["exact"]),
        "Opacus keeps the signs of the binomial coefficients in _compute_log_a_frac "
        "(prv-accountant's RDP is the same series).",
        f"none on its test (float64 round-off). On the audit's grid its one-step RDP is "
        f"within {_pct(hi['rel_error'], 2)} (q = {hi['q']}, sigma = {hi['sigma']}, alpha = "
        f"{hi['alpha']:g}) and {_pct(lo['rel_error'], 2)} (q = {lo['q']}, sigma = "
        f"{lo['sigma']}, alpha = {lo['alpha']:g}) of exact: the alternating series is cut "
        "where its terms fall below 1e-13 in absolute value, which at small q is a relative "
        "error of up to 1e-6, either way (a below-exact RDP is, strictly, not a bound).")


def _log_a_reference() -> Finding:
    lib = "dp-accounting"
    rows = []
    for r in load(lib)["records"]:
        if r["quantity"] != "log_a":
            continue
        ex = _exact_of(r)["exact"]
        rows.append((r, relative_error(r["value"], ex)))
    ref = [(r, e) for r, e in rows if "log_a_mp_test_reference" in r["id"] and e is not None]
    flt = {r["id"].split("/", 1)[1].split("/", 1)[1]: e for r, e in rows
           if "/log_a/" in r["id"] and e is not None}
    worst_r, worst_e = max(ref, key=lambda x: abs(x[1]))
    tail = worst_r["id"].split("/", 2)[2]
    p = worst_r["params"]
    return Finding(
        "dp-accounting/test-reference", f"dp-accounting {library_versions()[lib]} (tests)",
        "The test suite's multiprecision reference is imprecise",
        f"test_compute_log_a_equals_mp, q = {p['q']}, sigma = {p['sigma']}, "
        f"alpha = {p['alpha']} (the worst of its ten cases)",
        worst_r["value"], nstr(mpf(_exact_of(worst_r)["exact"]), 12), worst_e,
        "_compute_a_mp integrates the unsplit integrand with one mpmath.quad call at mpmath's "
        "default 15 digits; the peaked integrand defeats it.",
        f"none for users (the float code is closer: {_pct(abs(flt.get(tail, mpf(0))), 2)} "
        f"against the reference's {_pct(abs(worst_e), 2)}), but the test can only pass "
        "through rtol = 1e-4, so it cannot catch an error below 1e-4.")


def _prv_analytic() -> Finding:
    lib = "prv-accountant"
    r100 = find_record(lib, "delta_gdp/eps=100.0,mu=1.0")
    r10 = find_record(lib, "delta_gdp/eps=10.0,mu=1.0")
    e100, e10 = _exact_of(r100)["exact"], _exact_of(r10)["exact"]
    return Finding(
        "prv-accountant/analytic-reference", f"prv-accountant {library_versions()[lib]} (tests)",
        "The float64 'exact' delta of its Gaussian tests",
        "compute_delta_exact(eps, mu) of tests/test_accountant.py at mu = 1 "
        "(its homogeneous test), eps = 100 and eps = 10",
        f"{r100['value']}; {r10['value']}", f"{nstr(mpf(e100), 5)}; {nstr(mpf(e10), 17)}",
        relative_error(r10["value"], e10),
        "Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) in float64: below 1e-308 both terms "
        "underflow, and near it the difference of two nearly equal terms loses digits.",
        "none for users; the reference cannot check an accountant's delta below ~1e-300, "
        "and is itself off in the 13th digit at eps = 10.")


def _autodp() -> list[Finding]:
    lib = "autodp"
    ver = library_versions()[lib]
    rows = rdp_rows(lib, "rdp_default/")
    ints = [r for r in rows if r["rel_error"] is not None and r["alpha"] == int(r["alpha"])]
    frac = [r for r in rows if r["rel_error"] is not None and r["alpha"] != int(r["alpha"])]
    wi = max(ints, key=lambda r: r["rel_error"])
    wf = max(frac, key=lambda r: r["rel_error"])
    zoo = [r for r in rdp_rows(lib, "rdp_zoo/") if r["rel_error"] is not None]
    zoo_int = max((r for r in zoo if r["alpha"] == int(r["alpha"])),
                  key=lambda r: abs(r["rel_error"]))
    zoo_frac = max((r for r in zoo if r["alpha"] != int(r["alpha"])),
                   key=lambda r: r["rel_error"])
    # consequence for a run: q = 0.01, sigma = 1, 1000 steps, delta = 1e-5, eps over the
    # orders of the figure grid, with autodp's default RDP and with the exact RDP
    grid = sorted((r for r in rows if r["q"] == 0.01 and r["sigma"] == 1.0
                   and r["steps"] == 1), key=lambda r: r["alpha"])
    T = 1000
    with precision(_DPS):
        peer_eps, _ = oracle_balle_epsilon([r["alpha"] for r in grid],
                                           [T * mpf(r["value"]) for r in grid], "1e-5", _DPS)
        ex_eps, _ = oracle_balle_epsilon([r["alpha"] for r in grid],
                                         [T * mpf(r["exact"]) for r in grid], "1e-5", _DPS)
    return [Finding(
        "autodp/default-amplification", f"autodp {ver}",
        "The default Poisson amplification is loose",
        f"AmplificationBySampling(PoissonSampling=True) of ExactGaussianMechanism, worst "
        f"integer order: q = {wi['q']}, sigma = {wi['sigma']}, alpha = {wi['alpha']:g}; "
        f"worst fractional: q = {wf['q']}, sigma = {wf['sigma']}, alpha = {wf['alpha']:g}",
        f"{nstr(mpf(wi['value']), 6)}; {nstr(mpf(wf['value']), 6)}",
        f"{nstr(mpf(wi['exact']), 6)}; {nstr(mpf(wf['exact']), 6)}",
        wi["rel_error"],
        f"without improved_bound_flag the general subsampling bound of Zhu & Wang 2019 is "
        f"used, up to {nstr(1 + wi['rel_error'], 3)}x the exact RDP at integer orders and "
        f"{nstr(1 + wf['rel_error'], 3)}x at fractional ones (it interpolates between "
        f"integers); autodp's own test only asserts autodp >= 0.99 x TF-Privacy, a lower "
        f"bound that cannot see this. The zoo's SubsampleGaussianMechanism (improved bound) "
        f"is within {_pct(abs(zoo_int['rel_error']), 2)} of exact at integer orders, but "
        f"between integers it interpolates and below 2 returns the alpha = 2 value: up to "
        f"{nstr(1 + zoo_frac['rel_error'], 3)}x exact (q = {zoo_frac['q']}, sigma = "
        f"{zoo_frac['sigma']}, alpha = {zoo_frac['alpha']:g}).",
        f"eps over-reported: at q = 0.01, sigma = 1, {T} steps, delta = 1e-5 (orders of the "
        f"figure grid) the default gives eps = {nstr(peer_eps, 6)} against "
        f"{nstr(ex_eps, 6)} ({_pct(relative_error(str(peer_eps), ex_eps))}).")]


def _prv_upper() -> Finding:
    rows = pld_rows()
    r0 = next(r for r in rows if (r["sigma"], r["q"], r["steps"]) == (0.8, 0.001, 100))
    gaps = []
    for r in rows:
        up = mpf(r["remove"][1])
        gaps.append((mpf(r["asserted"]) - up, (mpf(r["asserted"]) - up) / up, r))
    lo_gap = min(g for g, _, _ in gaps)
    hi_gap = max(g for g, _, _ in gaps)
    worst_rel = max(gaps, key=lambda x: x[1])
    add_above = [r for r in rows if mpf(r["add"][0]) > mpf(r["asserted"])]
    add_maybe = [r for r in rows if mpf(r["add"][1]) > mpf(r["asserted"])]
    rem_is_max = all(mpf(r["remove"][0]) >= mpf(r["add"][1]) for r in rows)
    wr = worst_rel[2]
    overlap = ("it is below the remove direction on every run" if rem_is_max else
               "its bracket overlaps the remove one on some runs")
    return Finding(
        "opacus+prv-accountant/prv-upper", f"Opacus {library_versions()['opacus']}, "
        f"prv-accountant {library_versions()['prv-accountant']}",
        "PRV eps values are remove-direction upper bounds at eps_error = 0.01",
        "Opacus tests/prv_accountant.py: sigma = 0.8, q = 0.001, 100 steps, delta = 1e-6",
        r0["asserted"], "remove " + _interval(r0["remove"]) + ", add " + _interval(r0["add"]),
        relative_error(r0["asserted"], mpf(r0["remove"][1])),
        "the PRV accountant composes only the remove pair (M, N(0, sigma^2)) and returns the "
        "upper end of its interval, eps_estimate + up to eps_error; Opacus's "
        "PRVAccountant.get_epsilon returns that upper end.",
        f"eps over-reported by {nstr(lo_gap, 3)} to {nstr(hi_gap, 3)} on the {len(rows)} runs "
        f"(relative: up to {_pct(worst_rel[1])} at sigma = {wr['sigma']}, q = {wr['q']}, "
        f"{wr['steps']} steps). The add direction, which the PRV accountant leaves out, "
        + (f"is never above the reported value here ({overlap}), so the remove-only "
           "accounting is safe on these runs"
           if not add_maybe else
           f"may exceed the reported value on {len(add_maybe)} runs (brackets too wide to "
           "tell)" if not add_above else
           f"exceeds the reported value on {len(add_above)} runs: unsafe there") + ".")


def _opacus_gdp() -> list[Finding]:
    lib = "opacus"
    ver = library_versions()[lib]
    r49 = find_record(lib, "epsilon_clt/steps=2249")
    r50 = find_record(lib, "epsilon_clt/steps=2250")
    e49, e50 = _exact_of(r49)["exact"], _exact_of(r50)["exact"]
    ext = find_record(lib, "epsilon_gdp/mu=50.0,delta=1e-100")
    ext_dpa = find_record("dp-accounting", "epsilon_gdp/mu=50.0,delta=1e-100")
    ex_ext = _exact_of(ext)["exact"]
    gdp = [r for r in load(lib)["records"] if r["quantity"] == "epsilon_gdp"]
    fails = [r for r in gdp if r["error"]]
    infs = [r for r in load("dp-accounting")["records"] if r["quantity"] == "epsilon_gdp"
            and r["id"].startswith("dp-accounting/epsilon_gdp/") and r["value"] == "inf"]
    return [
        Finding(
            "opacus/gdp-test-steps", f"Opacus {ver} (tests)",
            "The GDP test passes by a float floor division",
            "accountants_test.test_gdp_accountant: q = 0.04, sigma = 1.5, delta = 1e-5, "
            "steps = int(90 // 0.04)",
            f"{nstr(mpf(r49['value']), 7)} (2249 steps); {nstr(mpf(r50['value']), 7)} "
            f"(2250 steps)", f"{nstr(mpf(e49), 7)}; {nstr(mpf(e50), 7)}",
            relative_error(r50["value"], e50),
            "90 // 0.04 is 2249.0 in binary floating point (0.04 is slightly above 1/25), "
            "one step short of the 90 epochs meant; the test asserts 6.59 < eps < 6.6.",
            f"none for the formula (it agrees with the exact eps of its mu to "
            f"{_pct(relative_error(r50['value'], e50), 2)}), but at the intended 2250 steps "
            f"eps = {nstr(mpf(e50), 6)} > 6.6 and the test would fail. (The CLT mu is an "
            "approximation, not a privacy bound.)"),
        Finding(
            "gdp/extremes", f"Opacus {ver}; dp-accounting {library_versions()['dp-accounting']}",
            "Exact GDP at the extremes",
            "mu = 50, delta = 1e-100",
            f"Opacus: {ext['error']}; dp-accounting PLD: "
            f"{ext_dpa['value'] if ext_dpa['error'] is None else ext_dpa['error']}",
            nstr(mpf(ex_ext), 12), None,
            "Opacus solves for eps by brentq on the fixed bracket [0, 500]; dp-accounting's "
            "PLD of the Gaussian mechanism (from_gaussian_mechanism, log_mass_truncation_bound "
            "= -50) moves the tail mass below e^-50 (about 2e-22) to infinite loss, so every "
            "delta below it gets eps = inf.",
            f"the user gets an exception (Opacus, {len(fails)} of the {len(gdp)} audited "
            f"(mu, delta)) or eps = inf (dp-accounting, {len(infs)} of them: at delta = "
            + " and ".join(f"{d:g}" for d in sorted({r["params"]["delta"] for r in infs}))
            + f" for every mu) instead of eps = {nstr(mpf(ex_ext), 6)}: safe, but no answer. "
            "The exact value needs only a bracket that grows (dpsym.fdp.gdp_epsilon)."),
    ]


def findings() -> list[Finding]:
    """Every finding of the audit, in the order the chapter shows them."""
    return [*_dp_accounting_fractional(), _opacus_rdp(), _log_a_reference(), _prv_analytic(),
            *_autodp(), _prv_upper(), *_opacus_gdp()]


def describe(f: Finding) -> str:
    """A finding as plain text: library, case, peer's value, exact value, relative error,
    cause and consequence (what a chapter prints)."""
    import textwrap

    lines = [f"{f.title} -- {f.library}", f"  case: {f.case}", f"  peer: {f.peer}",
             f"  exact: {f.exact}",
             f"  relative error: {'-' if f.rel_error is None else nstr(f.rel_error, 3)}"]
    for label, text in (("cause", f.cause), ("consequence", f.consequence)):
        lines += textwrap.wrap(f"{label}: {text}", 96, initial_indent="  ",
                               subsequent_indent="    ")
    return "\n".join(lines)


def agreement_summary() -> dict[str, dict[str, int]]:
    """Per quantity: the cases with an exact value, how many dpsym also computes, and the
    fewest significant digits on which dpsym's value and the oracle's agree."""
    out: dict[str, dict[str, int]] = {}
    for case in load_exact()["cases"].values():
        row = out.setdefault(case["quantity"], {"cases": 0, "dpsym": 0, "min_digits": 10**6})
        row["cases"] += 1
        if "digits" in case:
            row["dpsym"] += 1
            row["min_digits"] = min(row["min_digits"], int(case["digits"]))
    for row in out.values():
        if not row["dpsym"]:
            row["min_digits"] = 0
    return out
