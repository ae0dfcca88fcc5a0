"""What the tests and the scripts share: reference judges, oracles, positions, pages, replays.

Imported as ``tests.helpers.<module>``; no test module imports another test module."""
