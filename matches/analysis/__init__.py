"""Replay analysis of finished matches: the exact odds of every chance event, luck, the fairness
report over many matches, and what-if sandboxes branched from a replay (issue 19).

A Django app of its own inside matches/ (label ``analysis``), like matches.checkpoints, so it keeps
its own models and migrations. It reads the event store and never writes to it."""
