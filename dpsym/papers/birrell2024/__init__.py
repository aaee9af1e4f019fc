"""Birrell, Ebrahimi, Behnia & Pacheco 2024, "Differentially private stochastic gradient descent
with fixed-size minibatches: tighter RDP guarantees with or without replacement".

Each numbered statement is a function of the paper's own symbols, grouped by sampling scheme:

* :mod:`.add_remove`   fixed-size sampling without replacement (FSwoR), add/remove adjacency:
  Thms 3.1-3.3, eqs. (8), (11)-(13), (40)-(50), Figure 6's data, App. G;
* :mod:`.replace_one`  FSwoR under replace-one adjacency (Thms 3.4, 3.5, eqs. (65)-(90)), the
  comparison with Wang, Balle & Kasiviswanathan 2019 ((18)-(19), (127)-(136)), the (eps, delta)
  conversion and Figures 2-3's data;
* :mod:`.appendix_c`   Lemmas C.3, C.4, C.5, C.7 on Gaussian instances;
* :mod:`.poisson_replace_one`  Poisson replace-one (App. C.1, Thm C.9 as printed and sound), the
  sigma -> 2 sigma step, a search for a violation of the final inequality, Figure 7's data;
* :mod:`.fswr`         fixed-size sampling with replacement (FSwR): Thms 3.6, 3.7, eqs. (104)-(126),
  App. D.3, Figures 1, 8, 9's data;
* :mod:`.sampling`     Lemmas A.1, D.1 by exact enumeration, the sensitivities (32), (37) and the
  variance identities of Sec. 4.1 / App. F ((21), (22), (143)-(147));
* :mod:`.training`     CPU-scale proxies of the GPU experiments (Figures 4 bottom, 5, 10);
* :mod:`.printed`      what the paper prints (numbers and formulas), and plotted-curve values;
* :mod:`.figures`      every figure; :mod:`.claims` the ledger rows.

The concept modules are :mod:`dpsym.rdp.gaussian_mixture` (H, M, B-tilde, F),
:mod:`dpsym.rdp.taylor` (symbolic coefficients, remainder bounds, the accountants),
:mod:`dpsym.rdp.wang2019` and :mod:`dpsym.rdp.fixed_size_replacement`.
"""

from dpsym.papers.birrell2024.add_remove import *  # noqa: F403
from dpsym.papers.birrell2024.appendix_c import *  # noqa: F403
from dpsym.papers.birrell2024.fswr import *  # noqa: F403
from dpsym.papers.birrell2024.poisson_replace_one import *  # noqa: F403
from dpsym.papers.birrell2024.replace_one import *  # noqa: F403
from dpsym.papers.birrell2024.sampling import *  # noqa: F403
from dpsym.papers.birrell2024.training import *  # noqa: F403
