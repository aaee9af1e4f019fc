"""The recorded peer values (``tests/reference/peers/*.json``) and their exact values.

Each library file (written by ``record_peers.py`` in a virtualenv with the peers, or, for
TF-Privacy, by ``record_tf_privacy.py`` from its test files) holds records::

    {"id", "library", "version", "quantity", "params", "call", "value", "error", ...}

``quantity`` says what was computed from ``params``:

* ``rdp``          RDP of order alpha of ``steps`` Poisson-subsampled Gaussian steps;
* ``log_a``        log A_alpha of one step (MTZ19, Sec. 3);
* ``epsilon_rdp``  eps at ``delta`` from the RDP of a run over a named grid of orders;
* ``epsilon_clt``  eps at ``delta`` of the Poisson CLT's mu-GDP;
* ``epsilon_gdp``  eps at ``delta`` of mu-GDP;  ``delta_gdp``: delta at ``eps``;
* ``epsilon_gaussian``  eps at ``delta`` of ``steps`` Gaussian mechanisms (no sampling);
* ``epsilon_pld``  eps at ``delta`` of a run by a numerical (PLD/PRV) accountant.

``exact.json`` (written by ``make_exact.py`` with dpsym) holds, per case (:func:`case_key`),
the independent exact value (:mod:`dpsym.peers.exact`, :mod:`dpsym.peers.pld`) and, where
dpsym computes the quantity, dpsym's value; the tests recompute both.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

__all__ = ["LIBRARIES", "REFERENCE_DIR", "case_key", "load", "load_exact", "load_grids"]

#: Where the recorded files live (the repository's tests/reference/peers).
REFERENCE_DIR = Path(__file__).resolve().parents[2] / "tests" / "reference" / "peers"
#: Library -> file stem, in the order the audit shows them.
LIBRARIES = {"dp-accounting": "dp_accounting", "tf-privacy": "tf_privacy", "opacus": "opacus",
             "prv-accountant": "prv_accountant", "autodp": "autodp"}


def case_key(quantity: str, params: dict) -> str:
    """The canonical key of a case: the quantity and its parameters, sorted.

    >>> case_key("rdp", {"sigma": 1.0, "q": 0.01, "alpha": 2.0, "steps": 1})
    'rdp:alpha=2.0,q=0.01,sigma=1.0,steps=1'
    """
    skip = {"asserted_order"}
    return quantity + ":" + ",".join(f"{k}={params[k]!r}" for k in sorted(params)
                                      if k not in skip)


@cache
def load(library: str) -> dict:
    """The recorded file of ``library`` (a key of :data:`LIBRARIES`)."""
    if library not in LIBRARIES:
        raise ValueError(f"library={library!r} violates library in {tuple(LIBRARIES)} "
                         "(dpsym.peers.records)")
    return json.loads((REFERENCE_DIR / f"{LIBRARIES[library]}.json").read_text())


@cache
def load_exact() -> dict:
    """``exact.json``: case key -> {"quantity", "params", "exact" | "remove"/"add"/"both",
    "dpsym", ...} (see make_exact.py)."""
    return json.loads((REFERENCE_DIR / "exact.json").read_text())


@cache
def load_grids() -> dict[str, list[float]]:
    """The peers' RDP order grids, by name (``order_grids.json``)."""
    return json.loads((REFERENCE_DIR / "order_grids.json").read_text())["grids"]
