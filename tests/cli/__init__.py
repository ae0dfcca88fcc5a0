"""Tests of the command line: each command, its output and inputs, fuzzed and hostile input, signals."""
