"""Write tf_privacy.json: TF-Privacy's asserted values, transcribed from its test files.

TF-Privacy is not installable here (it needs TensorFlow), so its values are taken from
the test files that assert them, each with the repository, file, commit and test name.
Run from the repository root with any Python 3::

    python3 tests/reference/peers/record_tf_privacy.py

Sources (GitHub, read at the commits named):

* tensorflow/privacy tensorflow_privacy/privacy/analysis/compute_dp_sgd_privacy_test.py
  at 2cd46dbb995dfee13162f4e4a7b40c1940c9c6f0 (``test_compute_dp_sgd_example_privacy``:
  num_epochs 1.2, noise_multiplier 0.7, example_delta 1e-5; microbatching halves the
  noise multiplier; with Poisson rate 0.01 the count is ceil(1.2 / 0.01) = 120 steps,
  without subsampling ceil(1.2) = 2 steps; RDP = dp_accounting's RdpAccountant with its
  default orders, PLD = its PLDAccountant; ``test_compute_dp_sgd_privacy``: the
  deprecated helper with its own order list);
* tensorflow/privacy tensorflow_privacy/privacy/analysis/rdp_accountant_test.py at
  09270afed61a4e9ef6295217b53731f7515f0350 (``test_compute_rdp_sequence``,
  ``test_compute_rdp_scalar``, ``test_get_privacy_spent_check_target_delta``; the
  sequence is asserted with absolute tolerance 1e-5);
* yuxiangw/autodp test/test_dp_sgd_poisson_sampling_add_remove.py at
  8df049abdbee5041fd466ce20cc10ab37674c8eb: 'tfp_rdp_value', "values produced by
  tensorflow-privacy" rdp_accountant.compute_rdp (the single-step rows of q = 0.01 and
  q = 0.1 are transcribed here; the file holds the same rows scaled for more steps).
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parent / "tf_privacy.json"

EXAMPLE = ("tensorflow/privacy tensorflow_privacy/privacy/analysis/compute_dp_sgd_privacy_test.py"
           "@2cd46dbb995dfee13162f4e4a7b40c1940c9c6f0")
RDP_TEST = ("tensorflow/privacy tensorflow_privacy/privacy/analysis/rdp_accountant_test.py"
            "@09270afed61a4e9ef6295217b53731f7515f0350")
AUTODP_TEST = ("yuxiangw/autodp test/test_dp_sgd_poisson_sampling_add_remove.py"
               "@8df049abdbee5041fd466ce20cc10ab37674c8eb")
ORDERS_TF_DEPRECATED = "tf-privacy-compute-dp-sgd-privacy"

records: list[dict] = []


def add(rid: str, quantity: str, params: dict, call: str, value: str, source: str,
        test: str, tolerance: str) -> None:
    records.append({"id": f"tf-privacy/{rid}", "library": "tf-privacy", "quantity": quantity,
                    "params": params, "call": call, "value": value, "error": None,
                    "source": source, "test": test, "tolerance": tolerance})


# compute_dp_sgd_privacy_test.test_compute_dp_sgd_example_privacy
for name, micro, q, acct, value in [
    ("no_microbatching_with_subsampling_rdp", False, 0.01, "RDP", "3.2392676"),
    ("microbatching_with_subsampling_rdp", True, 0.01, "RDP", "22.6248601"),
    ("no_microbatching_no_subsampling_rdp", False, None, "RDP", "10.8602036"),
    ("microbatching_no_subsampling_rdp", True, None, "RDP", "26.2880374"),
    ("no_microbatching_with_subsampling_pld", False, 0.01, "PLD", "2.4612381"),
    ("microbatching_with_subsampling_pld", True, 0.01, "PLD", "18.6977407"),
    ("no_microbatching_no_subsampling_pld", False, None, "PLD", "10.1224946"),
    ("microbatching_no_subsampling_pld", True, None, "PLD", "24.7160779"),
]:
    sigma = 0.35 if micro else 0.7
    steps = 120 if q is not None else 2
    params = {"q": 1.0 if q is None else q, "sigma": sigma, "steps": steps, "delta": 1e-5}
    if acct == "RDP":
        params["orders"] = "dp-accounting-default"
        quantity = "epsilon_rdp"
    else:
        quantity = "epsilon_pld" if q is not None else "epsilon_gaussian"
    add(f"example_privacy/{name}", quantity, params,
        f"_compute_dp_sgd_example_privacy(1.2, 0.7, 1e-5, used_microbatching={micro}, "
        f"poisson_subsampling_probability={q}, accountant_type=AccountantType.{acct})",
        value, EXAMPLE, f"test_compute_dp_sgd_example_privacy[{name}]", "assertAlmostEqual "
        "(7 places)")

# compute_dp_sgd_privacy_test.test_compute_dp_sgd_privacy (deprecated helper: Poisson
# rate batch/n, steps ceil(epochs n / batch), TF's own order list)
for name, n, b, s, e, d, value, order in [
    ("Test0", 60000, 150, 1.3, 15, 1e-5, "0.7242234026109595", 19.0),
    ("Test1", 100000, 100, 1.0, 30, 1e-7, "1.4154988495444842", 13.0),
    ("Test2", 100000000, 1024, 0.1, 10, 1e-7, "5907982.3113978775", 1.25),
]:
    import math

    steps = math.ceil(e * n / b)
    add(f"compute_dp_sgd_privacy/{name}", "epsilon_rdp",
        {"q": b / n, "sigma": s, "steps": steps, "delta": d, "orders": ORDERS_TF_DEPRECATED,
         "asserted_order": order},
        f"compute_dp_sgd_privacy({n}, {b}, {s}, {e}, {d})", value, EXAMPLE,
        f"test_compute_dp_sgd_privacy[{name}]", "assertAlmostEqual (7 places)")

# rdp_accountant_test.test_compute_rdp_sequence: compute_rdp(0.01, 2.5, 50, orders)
for order, value in [(1.5, "0.00065"), (2.5, "0.001085"), (5, "0.00218075"),
                     (50, "0.023846"), (100, "167.416307")]:
    add(f"compute_rdp_sequence/alpha={order}", "rdp",
        {"q": 0.01, "sigma": 2.5, "alpha": float(order), "steps": 50},
        f"rdp_accountant.compute_rdp(0.01, 2.5, 50, [{order}])", value, RDP_TEST,
        "test_compute_rdp_sequence", "assertSequenceAlmostEqual(delta=1e-5)")
add("compute_rdp_scalar", "rdp", {"q": 0.1, "sigma": 2.0, "alpha": 5.0, "steps": 10},
    "rdp_accountant.compute_rdp(0.1, 2, 10, 5)", "0.07737", RDP_TEST,
    "test_compute_rdp_scalar", "assertAlmostEqual(places=5)")

# autodp's test file: TF-Privacy's compute_rdp at one step
ORDERS = (1.25, 2.0, 2.25, 4.0, 4.5, 10.0, 25.0, 64.0, 128.0)
TFP = {
    (0.01, 0.1): ("39.47435359280898", "90.7896596280238", "104.21069366522143",
                  "193.85977308534916", "219.07906690372957", "494.8831442377909",
                  "1245.2029477229287", "3195.321731874551", "6395.3585686314445"),
    (0.01, 0.25): ("0.1103603174246269", "6.790784234628705", "9.710698228804564",
                   "25.859773085349214", "30.079066903729597", "74.883144237791",
                   "195.20294772292905", "507.3217318745518", "1019.3585686314451"),
    (0.01, 0.5): ("0.0018977736416478479", "0.005345502314345245", "0.0083541177519165",
                  "1.8618755130319669", "3.0791796010526946", "14.883144237791036",
                  "45.202947722929075", "123.32173187455179", "251.35856863144505"),
    (0.1, 0.25): ("1.804874412576095", "11.394840954932146", "13.855346885245137",
                  "28.929886542674605", "33.03953345186479", "77.44157211889551",
                  "197.60147386146454", "509.6608659372759", "1021.6792843157225"),
    (0.1, 0.5): ("0.09126475987344684", "0.42916959059789994", "0.7688994086444522",
                 "4.929960718132623", "6.039543080827824", "17.441572118895508",
                 "47.601473861464534", "125.66086593727589", "253.67928431572255"),
    (0.1, 1.0): ("0.009408440726353454", "0.017036863236176647", "0.02009616460080257",
                 "0.05867260696008058", "0.08420910671682878", "2.4428163733756034",
                 "10.101473861818455", "29.66086593727589", "61.67928431572254"),
}
for (q, s), values in TFP.items():
    for order, value in zip(ORDERS, values, strict=True):
        add(f"autodp_test_reference/q={q},sigma={s},alpha={order}", "rdp",
            {"q": q, "sigma": s, "alpha": order, "steps": 1},
            f"rdp_accountant.compute_rdp({q}, {s}, 1, {order})", value, AUTODP_TEST,
            "params ('tfp_rdp_value'), used by test_RDP_values_lowerbound",
            "autodp asserts autodp >= 0.99 * value")

if __name__ == "__main__":
    OUT.write_text(json.dumps({
        "library": "tf-privacy",
        "version": "values asserted in its test files (see 'source' of each record)",
        "note": "TF-Privacy needs TensorFlow and is not installed; every value is "
                "transcribed from the test file named in its record, which asserts it "
                "with the tolerance given. Written by record_tf_privacy.py.",
        "records": records,
    }, indent=1) + "\n")
    print(f"{len(records)} records -> {OUT}")
