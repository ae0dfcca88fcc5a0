"""Tests of the runtime that knows no chess: the kernel, mailboxes, links, scheduling, the network."""
