"""Tests of many games at once: pools, bulk replay, nodes and Ray, load."""
