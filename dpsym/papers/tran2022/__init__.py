"""Tran & Cutkosky 2022 (placeholder docstring; rewritten below)."""
