"""The ledger rows of bok2024 (transitional: still registered by dpsym.ledger modules)."""

from dpsym.ledger import bok2024, bok2024_mnist, bok2024_proofs  # noqa: F401  (registration)
