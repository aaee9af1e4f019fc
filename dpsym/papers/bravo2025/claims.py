"""The ledger rows of bravo2025 (transitional: still registered by dpsym.ledger modules)."""

from dpsym.ledger import bravo2025_bounds, bravo2025_shifts  # noqa: F401  (registration)
