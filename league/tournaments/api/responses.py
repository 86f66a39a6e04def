"""What the tournament endpoints answer, as the schema states it.

Response-only serializers (the selectors build the bodies): they give a client every field's type,
and tests/hardening/test_schema_conformance.py holds the real bodies to them. Points and scores
are exact fractions written as text ("1", "3/2"); what a format decides for itself (its options,
its bracket's shape, a table's columns) stays a free-form object, said so in its description."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches.api.serializers import JSONObjectField


def free(help_text: str, **kwargs) -> JSONObjectField:
    return JSONObjectField(help_text=f"{help_text} Free-form: its keys depend on the format.", **kwargs)


def names(help_text: str = "", **kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), help_text=help_text, **kwargs)


@extend_schema_field({"type": "array", "items": {"type": "string", "nullable": True}})
class SeatsField(serializers.ListField):
    """Player ids or names per seat; null for an empty seat (a bye, a bracket slot not yet filled)."""


class PlayerSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The player's id in this tournament ('user:<id>').")
    name = serializers.CharField()
    status = serializers.CharField(help_text="registered, waitlisted, active, dropped, withdrawn...")
    checked_in = serializers.BooleanField()
    rating = serializers.FloatField(allow_null=True)
    club = serializers.CharField(allow_null=True, allow_blank=True)
    joined_round = serializers.IntegerField(help_text="1, or the round a late entry joined in.")
    dropped_after = serializers.IntegerField(allow_null=True, help_text="The last round played before dropping.")
    checked_in_at_desk = serializers.BooleanField()
    seed = serializers.IntegerField(allow_null=True, min_value=1)
    asked_to_play = serializers.BooleanField(
        required=False,
        help_text="Only in the organiser's answer, and in a player's own row: false while the organiser "
        "entered the player and they have not confirmed it (confirm-entry), so the platform sends them no "
        "email about this tournament. Anyone can read who made each entry in the events.",
    )


class PairingSerializer(serializers.Serializer):
    id = serializers.CharField()
    round = serializers.IntegerField(min_value=1)
    board = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True, help_text="Its table at the venue; null for a bye.")
    players = SeatsField(help_text="Player ids; null for a bye's empty seat.")
    names = SeatsField(help_text="Their names, in the same order.")
    status = serializers.CharField(help_text="pending, reported, disputed, final...")
    result = free(
        "The result as recorded ({winner}, {draw}, {finish}, {bye}...); null until there is one.", allow_null=True
    )
    source = serializers.CharField(allow_null=True, help_text="Where the result came from; null until final.")
    reports = free("Each player's reported result, by player id.")
    match_id = serializers.CharField(allow_null=True, help_text="The match played for it, if any.")
    group = serializers.IntegerField(allow_null=True)
    bracket_match = serializers.CharField(allow_null=True)
    history = serializers.ListField(child=free("One step: {seq, event, actor, ...}."))
    reports_finish = serializers.BooleanField(help_text="Whether its result is a finish (places), as in a pod.")
    points = serializers.DictField(
        child=serializers.CharField(), required=False, help_text="Once final: each player's points, as text."
    )


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1)
    kind = serializers.CharField()
    method = serializers.CharField(allow_null=True)
    pairings = PairingSerializer(many=True)


class StandingsTableSerializer(serializers.Serializer):
    title = serializers.CharField()
    rows = serializers.ListField(
        child=free("A row: rank, player, name and the table's own columns (score, tie-breaks, place...)."),
    )


class StandingsSerializer(serializers.Serializer):
    columns = names("The tie-break columns, in order.")
    tables = StandingsTableSerializer(many=True, help_text="Every table (a group, the playoff, final places).")


class ProgressSerializer(serializers.Serializer):
    status = serializers.CharField(help_text="registration, running or finished.")
    round = serializers.IntegerField(min_value=0)
    round_complete = serializers.BooleanField()
    open_pairings = names("The current round's pairings without a final result.")
    reopened_pairings = names("Earlier rounds' pairings whose result was retracted.")
    reopened_words = serializers.CharField(allow_blank=True)
    planned_rounds = serializers.IntegerField(allow_null=True)
    finished = serializers.BooleanField()
    can_pair_next = serializers.BooleanField()


class MeSerializer(serializers.Serializer):
    player = serializers.CharField()
    status = serializers.CharField()
    checked_in = serializers.BooleanField()
    asked_to_play = serializers.BooleanField(
        help_text="False while the organiser entered you and you have not confirmed it (confirm-entry): "
        "until then the platform sends you no email about this tournament."
    )
    next = PairingSerializer(allow_null=True)


class FormatInfoSerializer(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()
    draws = serializers.ChoiceField(
        choices=["rounds", "bracket", "groups"], help_text="What the page draws: rounds, a bracket, or groups."
    )
    multiplayer = serializers.BooleanField()
    late_entry = serializers.BooleanField()
    ranks_by_tiebreaks = serializers.BooleanField()
    options = names("The options this format takes.")
    elimination = serializers.BooleanField()
    trf_export = serializers.BooleanField()
    cross_table = serializers.BooleanField()
    offers_cut = serializers.BooleanField()
    has_cut = serializers.BooleanField()
    bracket_title = serializers.CharField()


class TournamentDraftLinkSerializer(serializers.Serializer):
    draft_id = serializers.UUIDField()
    url = serializers.CharField()
    finished = serializers.BooleanField()
    coaches = names()


class PlayerResultSerializer(serializers.Serializer):
    pairing = serializers.CharField()
    round = serializers.IntegerField()
    board = serializers.IntegerField()
    bracket_match = serializers.CharField(allow_null=True)
    opponents = names()
    outcome = serializers.CharField(help_text="e.g. 'won 2-1', 'draw', 'bye', 'place 2'.")
    points = serializers.CharField(allow_null=True, help_text="As text.")
    match_id = serializers.CharField(allow_null=True)


class PlayerPageSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    status = serializers.CharField()
    checked_in = serializers.BooleanField()
    next = PairingSerializer(allow_null=True)
    results = PlayerResultSerializer(many=True)
    standing = free("Their row: table, rank, score, played, tiebreaks, of; null before the start.", allow_null=True)


class TournamentSerializer(serializers.Serializer):
    """A tournament as GET /api/tournaments/{id}/ answers it."""

    id = serializers.UUIDField()
    name = serializers.CharField()
    game = serializers.CharField()
    game_title = serializers.CharField()
    format = serializers.CharField()
    options = free("The options it was created or configured with.")
    organiser = serializers.IntegerField(help_text="The organiser's user id.")
    organiser_name = serializers.CharField()
    is_organiser = serializers.BooleanField(help_text="Whether the caller organises it.")
    head_seq = serializers.IntegerField(min_value=0, help_text="Send it as expected_seq with a command.")
    progress = ProgressSerializer()
    players = PlayerSerializer(many=True)
    waitlist = names("Player ids waiting for a place, in order.")
    groups = serializers.ListField(
        child=names(), allow_null=True, help_text="Groups of player ids (groups_playoff); null otherwise."
    )
    rounds = RoundSerializer(many=True)
    bracket = free("The bracket's matches and seeds (elimination or a cut's playoff); null otherwise.", allow_null=True)
    standings = StandingsSerializer()
    me = MeSerializer(allow_null=True, help_text="The caller as a player; null if they are not one.")
    seeding = serializers.CharField(allow_null=True, help_text="rating or manual, once seeded.")
    elimination = serializers.BooleanField()
    format_info = FormatInfoSerializer()
    draft = TournamentDraftLinkSerializer(allow_null=True)
    stage = free("The stage a cut fed (who qualified, how seeded); null otherwise.", allow_null=True)
    timer = free("The round timer (seconds_left, current...); null when none runs.", allow_null=True)
    player = PlayerPageSerializer(allow_null=True, help_text="With ?player=: that player's page; else null.")
    edits = serializers.ListField(child=free("One edit of a round's pairings, with its reason and names."))
    requested_byes = serializers.DictField(child=names(), help_text="Round number (as text) -> player ids.")


class TournamentOutcomeEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=1)
    type = serializers.CharField()
    event_id = serializers.UUIDField()


class TournamentOutcomeSerializer(TournamentSerializer):
    """A command's answer: the tournament as it left it, and what it appended."""

    created = serializers.BooleanField(help_text="False for a retry (the same event_id) or a no-op.")
    events = TournamentOutcomeEventSerializer(many=True)


class TournamentRowSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    game = serializers.CharField()
    format = serializers.CharField()
    status = serializers.CharField()
    organiser = serializers.CharField(help_text="The organiser's username.")
    created_at = serializers.DateTimeField()
    players = serializers.IntegerField(min_value=0, help_text="Registered, active or dropped.")


class TournamentListSerializer(serializers.Serializer):
    results = TournamentRowSerializer(many=True)


class TournamentStandingsSerializer(StandingsSerializer):
    head_seq = serializers.IntegerField(min_value=0)


class TournamentEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=1)
    type = serializers.CharField()
    data = JSONObjectField(help_text="The fact as recorded; its keys depend on the type.")
    actor = serializers.CharField(allow_blank=True)
    event_id = serializers.UUIDField()
    recorded_at = serializers.DateTimeField()
    hash = serializers.CharField()
    prev_hash = serializers.CharField()


class TournamentEventListSerializer(serializers.Serializer):
    events = TournamentEventSerializer(many=True)
