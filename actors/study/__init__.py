"""Studying the actors: labs where a student's own actor is checked against the project's.

Each lab runs a student's class in place of one of the project's roles and checks it like a model
checker (see :mod:`actors.study.labs`).
"""
