"""Small, seeded, CPU-scale experiments standing in for the papers' GPU training runs."""
