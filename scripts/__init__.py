"""Runnable helpers: benchmarks, fault, load and soak harnesses, data makers.

Each runs as ``python scripts/<name>.py``; the tests import what they check as ``scripts.<name>``."""
