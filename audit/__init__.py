"""Checking a stream's record without the platform: Django-free, it needs only the engines.

docs/AUDIT.md is the specification; ``chain`` recomputes hashes and salts, ``matchverify``
replays a match (or draft) stream and re-derives every chance outcome from its revealed secret.
"""
