"""Benchmarks of the table appliance: `python -m bench` (see bench/run.py)."""
