"""The peer audit: what the accountants people use compute, against exact values.

* :mod:`dpsym.peers.exact`       independent exact evaluations (oracles), the truth;
* :mod:`dpsym.peers.pld`         an independent numerical privacy-loss-distribution bound
  (float64 FFT, pessimistic and optimistic discretisations) for composed DP-SGD;
* :mod:`dpsym.peers.records`     the recorded peer values (``tests/reference/peers``), each
  with library, version, exact call and value;
* :mod:`dpsym.peers.audit`       the findings, each with the peer's value, the exact value,
  the relative error, the cause and the consequence for a user's eps;
* :mod:`dpsym.peers.live`        the installed peers, run on a user's own DP-SGD run
  (``dpsym compare``); absent peers are skipped.

The peers' values are shown, never trusted: tests compare dpsym with the oracles here.
"""
