"""Tests of the project as a whole: static checks, documentation, README, the public API, imports."""
