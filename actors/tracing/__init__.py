"""Tracing: one structured event per delivered message, and exporters that turn traces into diagrams.

The recorder is fed by the kernel; the exporters read plain event dicts.
"""
