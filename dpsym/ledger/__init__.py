"""Ledger entries, one module per paper; importing a module registers its claims."""
