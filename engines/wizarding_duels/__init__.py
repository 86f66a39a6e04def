"""Wizarding Duels, the skirmish game (rulebook: shared/rules/wizarding-duels.txt).

Not registered yet: the engine registers itself only once whole games play end to end.
"""
