"""The ledger rows of Bok, Su & Altschuler 2024, one module per part of the paper.

Importing this package registers the claims (``dpsym.claims.all_claims("bok2024")``). Every
check calls named, tested functions of :mod:`dpsym.papers.bok2024` (or of the concept
modules) and compares; printed values come from :mod:`dpsym.papers.bok2024.printed`.
"""

from dpsym.papers.bok2024.claims import (  # noqa: F401  (registration, in chapter order)
    foundations,
    langevin,
    noisycgd,
    noisygd,
    sgd_and_mnist,
)
