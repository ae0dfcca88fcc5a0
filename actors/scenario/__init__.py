"""Scenario scripts: steps that play moves, send messages and inject faults, and their runner.

The same step grammar drives the interactive shell.
"""
