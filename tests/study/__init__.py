"""Tests of studying the actors: explore, delivery orders, scenarios, the shell, saved sessions."""
