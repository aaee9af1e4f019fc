"""Tran & Cutkosky 2022, "Momentum Aggregation for Private Non-convex ERM" (NeurIPS 2022,
arXiv:2210.06328).

Private normalized SGD with momentum for non-convex ERM on N records in R^d: Algorithm 1
(DP-NSGD) releases the momentum through the binary-tree mechanism; Algorithm 2 splits the
momentum into anchor gradients, epoch-to-epoch differences (Delta) and in-epoch drift (r),
three trees with small sensitivities, recombined by Algorithm 4.

Modules, in the paper's order:

* :mod:`.preliminaries`       Sec. 2 and App. A: Figure 1's tree, COMPOSE (Alg. 3), Prop. 18;
* :mod:`.dp_nsgd`             Sec. 3, App. D: Alg. 1, Thms 4 and 6, Lemmas 5, 11, 12;
* :mod:`.sensitivity_reduced` Sec. 4, App. B, E: Alg. 2, Eqs. (1)-(3), Lemma 17, Alg. 4,
  Lemma 7, Thms 8 and 9;
* :mod:`.tree_composition`    App. C: Alg. 5, Thm 10;
* :mod:`.technical`           App. F: Props 13, 14, 16, Cor. 15;
* :mod:`.formulas`            the printed formulas (sympy, typed once) and :mod:`.rates`, the
  rate algebra derived from them;
* :mod:`.illustration`        the exact noise against N and seeded runs (no experiments in
  the paper).

The mathematics of the tree (dyadic nodes, COMPOSE, window sums, accounting, records
recurring per epoch) is the concept package :mod:`dpsym.aggregation`.

Notation (the paper's; ASCII keyword names in parentheses).  N records, one sampled per step;
an epoch is N steps, step t (1-based) is in epoch ``floor((t-1)/N)``; T steps; d dimension;
(eps, delta)-DP with ``ell = log(1/delta)``; G, L the Lipschitz and smoothness constants;
R a bound on F(w_1) - inf F; ``alpha`` the momentum parameter (1 - beta); ``eta`` the step;
``gamma`` Algorithm 2's cross-batch parameter; ``sigma`` the noise multiplier; V the number of
tree nodes one record can touch.  The paper reuses symbols: R is also Algorithm 1's tree
depth, alpha is also the Renyi order (Def. 3, Thm 10), rho in Algorithm 5 is an inverse noise
multiplier (not zCDP's rho), delta_G, delta_Delta, delta_r are sensitivities (not privacy
delta), and r is both a remainder (t = qN + r) and the drift tree.
"""

from dpsym.papers.tran2022.dp_nsgd import (
    alg_1,
    alg_1_V,
    lem_5,
    lem_11,
    lem_12,
    thm_4,
    thm_4_sigma,
    thm_6,
    thm_6_parameters,
)
from dpsym.papers.tran2022.preliminaries import alg_3, figure_1, prop_18
from dpsym.papers.tran2022.sensitivity_reduced import (
    alg_2,
    alg_4,
    lem_7,
    lem_17_residual,
    thm_8,
    thm_8_sigma,
    thm_9,
    thm_9_parameters,
)
from dpsym.papers.tran2022.technical import cor_15, prop_13, prop_14, prop_16
from dpsym.papers.tran2022.tree_composition import thm_10

__all__ = [
    "alg_1", "alg_1_V", "alg_2", "alg_3", "alg_4", "cor_15", "figure_1", "lem_5", "lem_7",
    "lem_11", "lem_12", "lem_17_residual", "prop_13", "prop_14", "prop_16", "prop_18", "thm_4",
    "thm_4_sigma", "thm_6", "thm_6_parameters", "thm_8", "thm_8_sigma", "thm_9",
    "thm_9_parameters", "thm_10",
]
