"""The ledger rows of birrell2024 (transitional: still registered by dpsym.ledger modules)."""

from dpsym.ledger import birrell2024_core, birrell2024_fswr, birrell2024_sampling  # noqa: F401  (registration)
