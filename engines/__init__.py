"""Pure-Python rules engines, one package per game.

Nothing in here imports Django or the apps: the same code replays a match in the web
process, in a Celery worker and in a test, and must give the same states everywhere.
"""
