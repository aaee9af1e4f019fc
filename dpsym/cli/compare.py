"""The installed peer accountants beside dpsym on the user's run (``dpsym compare``).

``dpsym compare`` (:mod:`dpsym.cli.account`) runs every dpsym method on one run; for a
Poisson-subsampled Gaussian run it adds the rows of :func:`peer_rows`: dp-accounting, Opacus,
prv-accountant and autodp when installed (extra ``[crosscheck]``), listed as absent otherwise.
"""

from __future__ import annotations


def peer_rows(q: object, sigma: object, steps: int, delta: object) -> list[tuple[str, str, str]]:
    """(method, eps, note) for every peer on ``steps`` Poisson-subsampled Gaussian steps
    (add/remove): installed peers run (:func:`dpsym.peers.live.compare_run`), absent ones
    listed as not installed.  The values are float64 estimates, shown, never trusted."""
    from dpsym.peers.live import available, compare_run

    rows = []
    for p in compare_run(float(q), float(sigma), int(steps), float(delta)):
        if p.epsilon is None:
            rows.append((f"{p.library} {p.method}", "-", f"failed: {p.error}"))
        else:
            rows.append((f"{p.library} {p.method}", f"{p.epsilon:.10g}",
                         f"{p.library} {p.version}, float64"
                         + ("" if p.bound else ", an approximation, not a bound")))
    rows += [(lib, "-", "not installed (extra [crosscheck])")
             for lib, v in available().items() if v is None]
    return rows
