"""Tree aggregation: private prefix sums over a stream, and their accounting.

The binary-tree mechanism (Dwork, Naor, Pitassi & Rothblum 2010; Chan, Shi & Song 2011)
releases a noisy value for every *dyadic* interval ``[a 2^b + 1, (a + 1) 2^b]`` of the
steps ``1..T`` and rebuilds any window sum from the few nodes that tile it.

* :mod:`.tree`         dyadic nodes, COMPOSE (the tiling), exponentially weighted window
  sums through the tree (momentum), the exact noise variance of every released prefix
  and its Monte Carlo check;
* :mod:`.composition`  adaptive composition over the tree nodes a record touches, as an
  RDP curve, zCDP and GDP, with (eps, delta) through :mod:`dpsym.rdp.conversions` and
  :mod:`dpsym.fdp.gdp`;
* :mod:`.epochs`       a record that recurs once per epoch (random reshuffling): where it
  lands in the tree, per-node sensitivities (the epoch recursion), node counts, the
  worst case over placements, and the cross-epoch (anchor-difference) reconstruction of
  a weighted prefix sum.
"""

from dpsym.aggregation.composition import *  # noqa: F403
from dpsym.aggregation.epochs import *  # noqa: F403
from dpsym.aggregation.tree import *  # noqa: F403
