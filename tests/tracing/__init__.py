"""Tests of tracing: the recorder, payloads, causes, ply labels and the exporters."""
