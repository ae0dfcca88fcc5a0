"""Tests of the studio: the offline page, the live studio and their browser tests."""
