"""Invitations: a match or draft that seats other people waits until each of them accepts.

Nothing is appended to any stream while an invitation is open: the match (or draft) is created,
with the configuration asked for, in the transaction of the last acceptance. A declined or
cancelled invitation seats nobody. Organisers (staff, tournaments, league seasons) seat their
players directly, through the create services, as before.
"""
