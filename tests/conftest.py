"""Shared test configuration: hypothesis profiles sized for CI (2 cores, < 15 min)."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.load_profile("ci")

# The scripts that regenerate recorded peer values need the peers; they are not tests.
collect_ignore_glob = ["reference/*.py"]
