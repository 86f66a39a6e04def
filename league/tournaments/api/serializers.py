"""One input serializer per tournament API command: each says exactly what its command takes.

Every command appends to the tournament's stream, so every one carries ``expected_seq`` (the
head the client saw) and ``event_id`` (a retry returns the stored outcome): the base class."""

from __future__ import annotations

from rest_framework import serializers

#: Free text is written into the tournament's immutable stream: bound it.
NAME_MAX = 150  # a username (Django's own limit)
CLUB_MAX = 80
REASON_MAX = 500
LIST_MAX = 256  # players named in one command (seeding order, forbidden pairs, absentees)


class TournamentCommandSerializer(serializers.Serializer):
    # Every command appends to the tournament's stream: based on the head the client saw, and
    # retried safely (a player once appended 50 reports to one pairing without expected_seq).
    expected_seq = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text="The tournament's head_seq this command was based on."
    )
    event_id = serializers.UUIDField(help_text="A new UUID per command; resend it to retry.")


def _user():
    return serializers.CharField(
        required=False, max_length=NAME_MAX, help_text="Username the organiser acts for (default: yourself)"
    )


def _reason():
    return serializers.CharField(required=False, allow_blank=True, default="", max_length=REASON_MAX)


def _club():
    return serializers.CharField(required=False, allow_blank=True, max_length=CLUB_MAX)


class ResultField(serializers.DictField):
    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if len(str(value)) > 2000:
            raise serializers.ValidationError("A result is a few numbers, not a document.")
        return value


def _result():
    return ResultField(help_text="{winner: username}, {draw: true} or, for a pod, {finish: [[...], ...]}")


class TournamentRegisterSerializer(TournamentCommandSerializer):
    user = _user()
    club = _club()
    rating = serializers.FloatField(required=False, min_value=-10_000, max_value=10_000)


class TournamentForUserSerializer(TournamentCommandSerializer):
    """withdraw, check-in, drop, confirm-entry: the caller, or the player the organiser names (who
    confirms no entry but their own)."""

    user = _user()


class TournamentCheckInUndoSerializer(TournamentCommandSerializer):
    user = _user()
    reason = _reason()


class TournamentSeedSerializer(TournamentCommandSerializer):
    method = serializers.ChoiceField(choices=["rating", "manual"])
    order = serializers.ListField(child=serializers.CharField(max_length=NAME_MAX), required=False, max_length=LIST_MAX)


class TournamentJoinLateSerializer(TournamentCommandSerializer):
    user = _user()
    club = _club()


class TournamentConfigureSerializer(TournamentCommandSerializer):
    tiebreaks = serializers.ListField(child=serializers.CharField(max_length=40), required=False, max_length=16)
    forbidden_pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(max_length=NAME_MAX), max_length=2),
        required=False,
        max_length=LIST_MAX,
    )
    check_in_opens = serializers.CharField(required=False, allow_null=True, allow_blank=True, max_length=40)
    check_in_closes = serializers.CharField(required=False, allow_null=True, allow_blank=True, max_length=40)
    best_of = serializers.IntegerField(required=False, min_value=1, max_value=5, help_text="1, 3 or 5 games a match")
    match_points = serializers.DictField(
        child=serializers.CharField(max_length=12),
        required=False,
        help_text="What a win, a draw, a loss and a bye are worth (e.g. 3, 1, 0, 3)",
    )
    points_from = serializers.ChoiceField(choices=["match", "games"], required=False)
    requested_bye_points = serializers.CharField(required=False, max_length=12)


class TournamentDraftSerializer(TournamentCommandSerializer):
    pick_order = serializers.ChoiceField(choices=["snake", "straight"], required=False, default="snake")
    clock_seconds = serializers.IntegerField(required=False, default=60)  # the service says why a clock is refused


class TournamentTimerStartSerializer(TournamentCommandSerializer):
    minutes = serializers.IntegerField(
        required=False, min_value=-(2**31), max_value=2**31 - 1, help_text="The round timer's length in minutes"
    )


class TournamentTimerExtendSerializer(TournamentCommandSerializer):
    minutes = serializers.IntegerField(
        min_value=-(2**31), max_value=2**31 - 1, help_text="Minutes added to the round timer"
    )


class TournamentReportSerializer(TournamentCommandSerializer):
    result = _result()


class TournamentDisputeSerializer(TournamentCommandSerializer):
    reason = _reason()


class TournamentRulingSerializer(TournamentCommandSerializer):
    """rule and correct: the organiser's result, and why."""

    result = _result()
    reason = _reason()


class TournamentNoShowSerializer(TournamentCommandSerializer):
    absent = serializers.ListField(child=serializers.CharField(max_length=NAME_MAX), max_length=LIST_MAX)


class TournamentMatchSerializer(TournamentCommandSerializer):
    mode = serializers.ChoiceField(choices=["server", "tabletop"], required=False, default="server")


# The organiser's edits of the current round (services/edits.py): each names the round it was
# made for (refused when that round is no longer the current one) and says why.
def _round():
    return serializers.IntegerField(min_value=1, max_value=1000, help_text="The round this is for")


def _edit_reason():
    return serializers.CharField(max_length=REASON_MAX, help_text="Why: shown to every player on the page")


class TournamentSwapSerializer(TournamentCommandSerializer):
    round = _round()
    players = serializers.ListField(
        child=serializers.CharField(max_length=NAME_MAX), min_length=2, max_length=2, help_text="The two usernames"
    )
    reason = _edit_reason()


class TournamentSetByeSerializer(TournamentCommandSerializer):
    round = _round()
    player = serializers.CharField(max_length=NAME_MAX, help_text="Username given the round's bye")
    reason = _edit_reason()


class TournamentRepairSerializer(TournamentCommandSerializer):
    round = _round()
    reason = _edit_reason()


class TournamentReadmitSerializer(TournamentCommandSerializer):
    user = serializers.CharField(max_length=NAME_MAX, help_text="Username of the dropped player to bring back")


class TournamentRequestByeSerializer(TournamentCommandSerializer):
    user = _user()
    round = _round()
