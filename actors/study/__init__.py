"""Studying the actors: delivery orders explored, faults searched, scenario scripts and their runner,
the interactive shell that runs the same step grammar one line at a time, and labs, where a student's
own actor is checked against the project's like a model checker (see :mod:`actors.study.labs`).
"""
