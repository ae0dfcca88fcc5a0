"""Tests of supervision and recovery: faults injected, crashes healed, verdicts that stay."""
