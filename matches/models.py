"""The event store (Stream, Event) and the match projections built from it.

Only Event rows are a source of truth. Stream heads, Match state, MatchLog lines and
verdicts are projections: each can be dropped and rebuilt from the events.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

GENESIS_HASH = "0" * 64


class Stream(models.Model):
    """One ordered stream of events: a match, a draft, a tournament or a season.

    The row doubles as the per-stream append lock (SELECT ... FOR UPDATE), which
    serialises writers so ``head_seq`` and ``head_hash`` always describe the last event.
    """

    id = models.CharField(primary_key=True, max_length=100)
    kind = models.CharField(max_length=32)
    head_seq = models.PositiveIntegerField(default=0)
    head_hash = models.CharField(max_length=64, default=GENESIS_HASH)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.id}@{self.head_seq}"


class Event(models.Model):
    """An immutable fact. The database refuses UPDATE, DELETE and TRUNCATE (see migrations)."""

    stream = models.ForeignKey(Stream, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    event_id = models.UUIDField(unique=True, default=uuid.uuid4)
    type = models.CharField(max_length=64)
    data = models.JSONField(default=dict)
    actor = models.CharField(max_length=64, help_text="'user:<id>', 'server' or 'system'")
    recorded_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    # HMAC-SHA256(stream secret, "salt:<stream>:<seq>") in salted streams (docs/AUDIT.md), so a
    # published hash cannot confirm a guess at hidden content; NULL in streams written before.
    # Nullable so that adding it is a plain ADD COLUMN (SQLite would otherwise rebuild the
    # table and lose the immutability triggers).
    salt = models.CharField(max_length=64, null=True, blank=True)

    class Meta:
        ordering = ["stream", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["stream", "seq"], name="event_stream_seq_unique"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="event_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.stream_id}#{self.seq} {self.type}"


class Match(models.Model):
    class Mode(models.TextChoices):
        SERVER = "server", "Server-dealt"
        TABLETOP = "tabletop", "Tabletop (real dice and cards)"

    class Status(models.TextChoices):
        LIVE = "live", "Live"
        FINISHED = "finished", "Finished"

    class Verdict(models.TextChoices):
        PENDING = "pending", "Not yet verified"
        VERIFIED = "verified", "Verified"
        DISPUTED = "disputed", "Disputed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    stream = models.OneToOneField(Stream, on_delete=models.PROTECT, related_name="match")
    game = models.CharField(max_length=64)
    engine_version = models.CharField(max_length=32)
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.SERVER)
    config = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The stream secret: never shown until the match ends. It seeds every server-dealt
    # outcome and, in salted streams (hash_scheme 2, every match created since), every salt.
    seed_hex = models.CharField(max_length=64, blank=True, default="")
    seed_commitment = models.CharField(max_length=64, blank=True, default="")
    # 1: unsalted (matches recorded before salts); 2: every event after the first is salted.
    hash_scheme = models.PositiveSmallIntegerField(default=1)
    # {} (untimed), or a time control (audit.clocks): recorded in the first event too.
    time_control = models.JSONField(default=dict, blank=True)
    # Where the match came from, e.g. {"draft": "<match id>"} or {"tournament": ..., "round": 2}.
    origin = models.JSONField(default=dict, blank=True)

    # Projection of the stream (rebuilt by replay).
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LIVE)
    state = models.JSONField(default=dict)
    state_seq = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    head_hash = models.CharField(max_length=64, blank=True, default="")
    finished_at = models.DateTimeField(null=True, blank=True)
    # The seats' clocks after the last event (audit.clocks.Clocks.as_dict), for timed matches.
    clocks = models.JSONField(default=dict, blank=True)
    # Per seat, why it left a game the others played on ("resigned", "timeout") or None; [] while
    # no seat has (the ruling "Leaving": a resignation or timeout recorded with "plays_on").
    left = models.JSONField(default=list, blank=True)
    # When a command stopped at BOT_MOVES_PER_COMMAND with only bots (and the server's draws) still to
    # move, their next moves queued for a later command (matches.tasks.bots_move); None while a person
    # or nobody is to move. A live match whose bots have waited long is one whose queued command was
    # lost: the sweep queues it again (matches.tasks.bots_move_stalled).
    bots_due_at = models.DateTimeField(null=True, blank=True)  # indexed where set: migration 0018

    # Verification verdict (projection of the verifier's last run).
    verdict = models.CharField(max_length=16, choices=Verdict.choices, default=Verdict.PENDING)
    verdict_seq = models.PositiveIntegerField(null=True, blank=True)
    verdict_reason = models.TextField(blank=True, default="")
    #: When the verdict's stream read began (the database's clock): a verdict based on an older
    #: read never replaces it (matches/verification.py ``_verdicts_write``).
    verified_at = models.DateTimeField(null=True, blank=True)
    #: When a verification first found the match disputed, kept whatever later ones find: a dispute
    #: is final for the ratings, the season and the tournament, as a retraction is.
    disputed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.game} {self.id}"

    @property
    def game_title(self) -> str:
        from engines import registry

        return registry.get(self.game, self.engine_version).title

    @property
    def page_script(self) -> str:
        """The browser script that draws this game, as its engine declares it."""
        from engines import registry

        return registry.get(self.game, self.engine_version).script()


class Seat(models.Model):
    """Who plays a seat: a user account, or one of the engine's bots."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    bot = models.CharField(max_length=32, blank=True, default="")
    # A team of people sharing the seat (e.g. co-coaches in a tournament draft): each may act for it.
    partners = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="partner_seats")

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_match_index_unique"),
            models.CheckConstraint(
                condition=(models.Q(user__isnull=False, bot="") | models.Q(user__isnull=True) & ~models.Q(bot="")),
                name="seat_user_xor_bot",
            ),
        ]

    @property
    def label(self) -> str:
        if self.user_id:
            names = [self.user.username] + [p.username for p in self._partners()]
            return " & ".join(names)
        return f"{self.bot} bot"

    def held_by(self, user) -> bool:
        if not user or not user.is_authenticated:
            return False
        return self.user_id == user.pk or any(p.pk == user.pk for p in self._partners())

    def _partners(self):
        """``self.partners.all()``: the kept (prefetched) partners when there are, without the new
        related manager each ``self.partners`` builds to hand them back. A broadcast labels every
        seat in every frame's summary (issue 17, P5)."""
        kept = self.__dict__.get("_prefetched_objects_cache", {}).get("partners")
        return kept if kept is not None else self.partners.all()


class MatchLog(models.Model):
    """One readable line per event (a projection; safe for spectators)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField()
    text = models.TextField()

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="matchlog_match_seq_unique")]


class OutboxMessage(models.Model):
    """Something that must happen after a commit (a broadcast, a task, a signal to another app).

    Written in the same transaction as the events it follows, delivered right after the commit,
    and again by the sweeper if that failed: a committed write never depends on Redis, the
    broker or a receiver being up at that moment, nor on the process staying alive.

    Pending until delivered, or dead after OUTBOX_MAX_ATTEMPTS failed attempts (or discarded by an
    operator, which sets both): a dead message is not tried again until an operator retries it."""

    topic = models.CharField(max_length=64)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    available_at = models.DateTimeField(help_text="Not tried again before this (backoff after a failure).")
    attempts = models.PositiveIntegerField(default=0)
    delivered_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    dead_at = models.DateTimeField(null=True, blank=True, help_text="Not tried again since (its attempts ran out).")
    discarded_at = models.DateTimeField(null=True, blank=True, help_text="Given up on for good by an operator.")
    discard_reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["delivered_at", "available_at"], name="outbox_pending")]

    def __str__(self) -> str:
        return f"{self.topic} #{self.pk}"


class SavedSetup(models.Model):
    """What a player prepared for a game before a match (a Wizarding Duels Group and potion Stock,
    for instance), saved to their account to reuse: generic, one row per player, game and name.

    ``data`` holds the opening answers the seat gives, as the engine's actions
    (``{"actions": [action, ...]}``); each game's page and checks say what goes in."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saved_setups")
    game = models.CharField(max_length=64)
    name = models.CharField(max_length=80)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "name"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "name"], name="savedsetup_user_game_name_unique")
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.name}"
