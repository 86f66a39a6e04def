"""Signals other apps listen to (league reacts to matches; matches never imports league)."""

from django.dispatch import Signal

#: Sent after the transaction that closed a match commits. Arguments: match_id, game.
match_finished = Signal()

#: Sent after a verification verdict is recorded and committed. Arguments: match_id, game, verdict.
match_verified = Signal()

#: Sent after many verdicts are recorded and committed together (matches_verify), instead of
#: ``match_verified`` for each. Argument: verdicts, a list of {match_id, game, verdict} in the
#: order verified. A receiver of ``match_verified`` listens to this one too.
matches_verified = Signal()
