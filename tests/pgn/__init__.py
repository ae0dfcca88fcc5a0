"""Tests of PGN: reading, writing, malformed and hostile input, and replaying games without actors."""
