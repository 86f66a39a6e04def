"""Seasons: schedule, run fixtures (draft, then match), record verified results, rule on them.

Every change is a fact appended to the season's stream (league/streams.py) and the
projection (Fixture rows) is refolded from the stream in the same transaction.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from audit.clocks import BadTimeControl, check_time_control
from engines import registry
from league import streams
from league.drafts.services import draft_create
from league.errors import LeagueError
from league.names import name_problem
from league.seasons.schedule import season_schedule
from league.seasons.table import DEFAULT_TIEBREAKS, movements_problem
from matches.commands import AT_HEAD, Appender, command_create, command_run, platform_event_id
from matches.eventstore import EventIdReused, NewEvent, as_stored
from matches.models import Event, Match
from matches.services import SeatSpec, match_create

from .models import Club, Fixture, League, Season

DATA = Path(__file__).resolve().parent.parent / "data"
#: The IWDL's game: its fixtures start with a schoolyard draft.
DRAFTED_GAME = "wizard-dodgeball"
TIEBREAKS = ("head_to_head", "wizard_difference", "wizards_remaining", "wins", "lot")
#: uuid5 namespace: a verified match's result event has an id derived from the match id,
#: so recording it twice (a retried task) stores it once.
RESULT_NAMESPACE = uuid.UUID("6f1c1d4e-3c8b-4a8e-9b7a-1e0f4f6d2a51")
#: The most clubs a season holds, however they are chosen: a round robin of n clubs is n(n-1)/2
#: fixtures (twice that double), all scheduled in one request and one event, so 256 is already
#: 32,640 (65,280) of them. The API's clubs list is bounded by it too.
MAX_SEASON_CLUBS = 256


def league_load_iwdl() -> League:
    """The IWDL and its 24 clubs from league/data/iwdl.json (idempotent)."""
    data = json.loads((DATA / "iwdl.json").read_text(encoding="utf-8"))
    spec = data["league"]
    league, _ = League.objects.get_or_create(
        slug=spec["slug"],
        defaults={"name": spec["name"], "game": spec["game"], "points": [3, 1, 0], "tiebreaks": list(TIEBREAKS)},
    )
    for club in data["clubs"]:
        Club.objects.get_or_create(
            slug=club["slug"],
            defaults={
                "league": league,
                "name": club["name"],
                "plane": club["plane"],
                "colours": club["colours"],
                "emblem": club["emblem"],
            },
        )
    return league


def check_organiser(*, league: League, user: AbstractBaseUser | None) -> None:
    if user is None or not user.is_authenticated or not (user.is_staff or league.created_by_id == user.pk):
        raise LeagueError("Only the league's organisers may do that.", code="not_organiser", status=403)


#: Why an organiser's ruling on a fixture of a closed season is refused (409 season_closed): its
#: final table and movements are announced and the next season is built from them (the ruling of
#: test_a_result_disputed_after_the_season_closed.py). Nothing reopens a closed season.
SEASON_CLOSED = "This season is closed: its final table stands, so its fixtures can no longer be ruled on."


def _actor(user) -> str:
    return f"user:{user.pk}" if user is not None else "system"


def _movements_problem(sizes: list[tuple[str, int]], moves: dict) -> str | None:
    """Why divisions of these sizes (top first) cannot hold the season's movements, or None."""
    return movements_problem(
        sizes,
        promote=moves.get("promote", 2),
        relegate=moves.get("relegate", 2),
        playoff_spots=moves.get("playoff_spots", 0),
    )


def season_create(
    *,
    league: League,
    created_by: AbstractBaseUser | None,
    start_date: dt.date,
    double: bool = True,
    clubs: list[Club] | None = None,
    divisions: dict[str, list[str]] | None = None,
    days_between_rounds: int = 7,
    movements: dict | None = None,
    time_control: dict | None = None,
    event_id: uuid.UUID | None = None,
) -> Season:
    """Schedule a season. ``divisions`` maps division names (top first) to club slugs;
    ``movements`` (promote, relegate, playoff_spots) apply at the season's close. With
    ``event_id`` a retried create returns the season the first one made (``season_create_or_get``);
    another create under that id (any setting changed) is 409 ``event_id_reused``."""
    return season_create_or_get(
        league=league,
        created_by=created_by,
        start_date=start_date,
        double=double,
        clubs=clubs,
        divisions=divisions,
        days_between_rounds=days_between_rounds,
        movements=movements,
        time_control=time_control,
        event_id=event_id,
    )[0]


def season_create_or_get(
    *,
    league: League,
    created_by: AbstractBaseUser | None,
    start_date: dt.date,
    double: bool = True,
    clubs: list[Club] | None = None,
    divisions: dict[str, list[str]] | None = None,
    days_between_rounds: int = 7,
    movements: dict | None = None,
    time_control: dict | None = None,
    event_id: uuid.UUID | None = None,
) -> tuple[Season, bool]:
    """``season_create``, saying whether this call made the season (False: a retry)."""
    if created_by is not None:
        check_organiser(league=league, user=created_by)
    if clubs is None:
        # One more than a season holds is enough to refuse: a league's clubs are not capped.
        clubs = list(league.clubs.order_by("slug")[: MAX_SEASON_CLUBS + 1])
    if len(clubs) > MAX_SEASON_CLUBS:
        raise LeagueError(
            f"A season has at most {MAX_SEASON_CLUBS} clubs, and this one would have more: "
            f"name the clubs that play in it, {MAX_SEASON_CLUBS} or fewer.",
            code="too_many_clubs",
        )
    slugs = [c.slug for c in clubs]
    if len(slugs) < 2:
        raise LeagueError("A season needs at least two clubs.", code="too_few_clubs")
    twice = sorted({s for s in slugs if slugs.count(s) > 1})
    if twice:
        raise LeagueError(
            f"Each club plays in a season once; listed more than once: {', '.join(twice)}.", code="club_listed_twice"
        )
    if divisions is not None:
        listed = sorted(s for members in divisions.values() for s in members)
        if listed != sorted(slugs):
            raise LeagueError("Every club must be in exactly one division.", code="bad_divisions")
        small = [name for name, members in divisions.items() if len(members) < 2]
        if small:
            # A division is a round robin of its own: one club alone has no one to play.
            raise LeagueError(
                f"Each division needs at least two clubs to play each other; too few in: {', '.join(small)}.",
                code="division_too_small",
            )
    moves = {"promote": 2, "relegate": 2, "playoff_spots": 0, **(movements or {})}
    if divisions:
        # Refused now, not when the season is played out and its close cannot place the clubs.
        problem = _movements_problem([(name, len(members)) for name, members in divisions.items()], moves)
        if problem:
            raise LeagueError(
                f"{problem} Ask for fewer promotions, relegations or play-off places, or put more clubs in it.",
                code="movements_do_not_fit",
            )
    try:
        clock = check_time_control(time_control)  # every fixture's match is played with it
    except BadTimeControl as exc:
        raise LeagueError(str(exc), code="bad_time_control") from None
    number = (league.seasons.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    stream_id = f"season:{uuid.uuid4()}"
    config = {
        "league": league.slug,
        "number": number,
        "clubs": slugs,
        "double": double,
        "divisions": divisions,
        # jsonb keeps no key order: the divisions' order (top first) is said explicitly.
        **({"division_order": list(divisions)} if divisions else {}),
        "start_date": start_date.isoformat(),
        "days_between_rounds": days_between_rounds,
        "points": league.points or [3, 1, 0],
        "tiebreaks": league.tiebreaks or list(DEFAULT_TIEBREAKS),
        "lot_seed": f"{league.slug}:{number}",
        "movements": moves,
        **({"time_control": clock} if clock else {}),
    }
    try:
        fixtures = season_schedule(
            slugs, double=double, divisions=divisions, start_date=start_date, days_between_rounds=days_between_rounds
        )
    except OverflowError:  # a round's date past the calendar's end
        raise LeagueError(
            f"Rounds {days_between_rounds} day(s) apart from {start_date:%-d %B %Y} would end after "
            "31 December 9999: choose an earlier first round or fewer days between rounds.",
            code="dates_out_of_range",
        ) from None
    listing = [
        {
            "key": f"r{f.round}:{f.home}:{f.away}",
            "round": f.round,
            "date": f.date.isoformat(),
            "home": f.home,
            "away": f.away,
            "division": f.division or "",
        }
        for f in fixtures
    ]

    def execute(appender: Appender) -> Season:
        appender.append(
            [
                NewEvent(type="season.created", data=config, actor=_actor(created_by)),
                NewEvent(type="fixtures.scheduled", data={"fixtures": listing}, actor=_actor(created_by)),
            ]
        )
        streams.stream_followups(appender)
        season = Season.objects.create(league=league, number=number, stream_id=stream_id, config=config)
        season_project(season=season)
        return season

    def same(existing: Event) -> bool:
        # A retry asks for the very season the first create scheduled: every setting it sent. The
        # same id with other settings is a mistake, not a retry (409 event_id_reused), or the
        # client would believe its settings were taken. The number and lot seed are the server's.
        data = existing.data if existing.type == "season.created" else {}
        return existing.actor == _actor(created_by) and all(
            data.get(key) == as_stored(config.get(key)) for key in _REQUESTED
        )

    return command_create(
        stream_id=stream_id,
        kind="season",
        event_id=event_id,
        execute=execute,
        same=same,
        found=lambda existing: Season.objects.get(stream_id=existing.stream_id),
    )


#: What a season create asks for (the rest of its config is the league's or the server's).
_REQUESTED = (
    "league",
    "clubs",
    "double",
    "divisions",
    "division_order",
    "start_date",
    "days_between_rounds",
    "movements",
    "time_control",
)


def _append(
    season: Season,
    type: str,
    data: dict | Callable[[], dict],
    actor: str,
    *,
    expected_seq,
    event_id=None,
    check=None,
    closed: str | None = None,
) -> bool:
    """Append one fact and project it. ``check``, if given, runs under the season's stream lock
    before the append and refuses (raises) on the projection as it then is. ``data`` may be a
    function, called under that lock, for a fact that depends on the stream (its id, derived
    from what it records, or the command's own, is what answers a retry: the stored data is not
    compared). ``closed``, if given, is the sentence refusing the fact (409 season_closed) once
    the season has closed, read under that lock before the head is: a closed season stays
    closed, so an organiser whose page is stale is told that, not to read the season again."""
    from .projector import season_project_fixture

    def execute(_subject, appender: Appender) -> Event:
        if check is not None:
            check()
        fact = data() if callable(data) else data
        [event] = appender.append([NewEvent(type=type, data=fact, actor=actor)])
        streams.stream_followups(appender)
        # The fact and the projection it changes commit together (ARCHITECTURE.md, projectors). A
        # fact about one fixture refolds that fixture alone (projector.py): a whole refold per
        # result made a season's results cost grow with the square of its length (issue 17, P6).
        season_project_fixture(season=season, fixture=fact.get("fixture"), head_seq=event.seq)
        return event

    def still_open(_subject) -> None:
        if Event.objects.filter(stream_id=season.stream_id, type="season.closed").exists():
            raise LeagueError(closed, code="season_closed", status=409)

    # The command runner directly, not streams.stream_append: a season's stream is made with the
    # season, so there is no stream to make first (a lookup per fact), and the projection runs
    # inside the runner's transaction (no savepoint around it). A retry finds the fact stored and
    # projected by the transaction that stored it.
    done = command_run(
        stream_id=season.stream_id,
        expected_seq=expected_seq,
        event_id=event_id,
        execute=execute,
        # A retried command made before the close is answered with its fact: its id is looked up first.
        authorize=still_open if closed is not None else None,
        # A retry is the same hand's: event ids are public, another's is a reused id, not a replay.
        same=lambda existing: (
            existing.type == type and existing.actor == actor and (callable(data) or existing.data == data)
        ),
    )
    return done.created


#: The facts the platform alone writes about a fixture's match (actor "system"): its verified
#: result (_result_fact) and that result's retraction when the match is found disputed (result_retract).
PLATFORM_RESULT_FACTS = {
    "result.recorded": "A recorded result",
    "result.unfinished": "An unfinished result",
    "result.retracted": "A retraction",
}


def season_fold(events) -> dict[str, dict]:
    """The season's fixtures from its facts alone: key -> the Fixture fields, clubs by slug.

    Pure (no database): season_project writes it, the season verifier compares it with what
    is stored. Refuses (KeyError, ValueError) a fact about a fixture that was never scheduled."""
    rows: dict[str, dict] = {}
    from_match: set[str] = set()  # fixtures whose standing result came from a verified match
    ruled: set[str] = set()  # fixtures whose standing result is the organiser's (walkover, correction)

    def stands(key: str, row: dict) -> bool:
        """Whether the fixture's standing result outranks a match's later-arriving report."""
        # An organiser's ruling stands by being one. The older mark, a ruling text beside a
        # standing result, is kept as well: seasons recorded under it (a result after a
        # postponement with a reason, of a fixture started twice) were projected by it.
        return key in ruled or (row["result_seq"] is not None and bool(row["ruling"]))

    for event in events:
        d = event.data
        if event.type in PLATFORM_RESULT_FACTS and event.actor != "system":
            # Only the platform records, leaves unfinished or retracts a match's result (no organiser
            # command writes one; their rulings are corrections and walkovers). Only a rewritten
            # stream holds one in another hand, and the season verifier disputes it: it counts for
            # nothing here, as a forfeit's walkover in another hand is not taken as the platform's.
            continue
        if event.type == "fixtures.scheduled":
            for f in d["fixtures"]:
                rows[f["key"]] = {
                    "round": f["round"],
                    "date": dt.date.fromisoformat(f["date"]),
                    "division": f["division"],
                    "home": f["home"],
                    "away": f["away"],
                    "status": Fixture.Status.SCHEDULED,
                    "draft_id": None,
                    "match_id": None,
                    "home_left": None,
                    "away_left": None,
                    "walkover_winner": None,
                    "ruling": "",
                    "result_seq": None,
                }
        elif event.type == "fixture.postponed":
            rows[d["fixture"]].update(
                status=Fixture.Status.POSTPONED, date=dt.date.fromisoformat(d["date"]), ruling=d.get("reason", "")
            )
            # A ruled fixture is not postponed (fixture_postpone refuses it); if a stream says so,
            # the postponement reopens it, as the older mark had it.
            ruled.discard(d["fixture"])
        elif event.type == "fixture.started":
            rows[d["fixture"]].update(status=Fixture.Status.IN_PLAY, draft_id=d.get("draft"), match_id=d.get("match"))
        elif event.type == "result.recorded":
            row = rows[d["fixture"]]
            if stands(d["fixture"], row):
                continue  # an organiser's ruling stands over a later-arriving report
            row.update(
                status=Fixture.Status.PLAYED,
                match_id=d["match"],
                home_left=d["home_left"],
                away_left=d["away_left"],
                result_seq=event.seq,
            )
            from_match.add(d["fixture"])
        elif event.type == "result.unfinished":
            # The match ended unfinished (the bound on turns: no winner). It counts nowhere: the
            # fixture stays open, to be replayed or ruled on, and says why. A ruling stands.
            row = rows[d["fixture"]]
            if not stands(d["fixture"], row):
                row.update(
                    status=Fixture.Status.SCHEDULED,
                    match_id=d["match"],
                    home_left=None,
                    away_left=None,
                    result_seq=None,
                    ruling=f"Unfinished: {d['reason']}",
                )
                from_match.discard(d["fixture"])
        elif event.type == "result.retracted":
            # The match behind the result was found disputed: the fixture is open again (to be
            # replayed, or ruled on by the organiser) and says why. A ruling already made stands.
            row = rows[d["fixture"]]
            if d["fixture"] in from_match and d["match"] in (row["match_id"], row["draft_id"]):
                if d.get("season_closed"):
                    # Found disputed after the season closed (result_retract): a closed season's table
                    # is final (its movements were announced, the next season is built from them), so
                    # the result keeps its place, and the fixture says on every page that it was
                    # disputed after the close. The fact is in the stream either way: nothing silent.
                    row.update(ruling=f"{DISPUTED_AFTER_CLOSE}{d['reason']}")
                    continue
                row.update(
                    status=Fixture.Status.SCHEDULED,
                    home_left=None,
                    away_left=None,
                    walkover_winner=None,
                    result_seq=None,
                    ruling=f"Result retracted: {d['reason']}",
                )
                from_match.discard(d["fixture"])
        elif event.type == "result.corrected":
            rows[d["fixture"]].update(
                status=Fixture.Status.PLAYED,
                home_left=d["home_left"],
                away_left=d["away_left"],
                walkover_winner=None,
                ruling=d["reason"],
                result_seq=event.seq,
            )
            from_match.discard(d["fixture"])
            ruled.add(d["fixture"])
        elif event.type == "fixture.walkover":
            # A forfeited draft's walkover is the platform's (_forfeit_fact, actor "system"): one citing
            # a draft in any other hand is only what its hand may give, an organiser's walkover. Only
            # a rewritten stream holds one (the season verifier disputes it); taken as the platform's,
            # it would yield to a standing result and the platform's retraction would undo it.
            platforms = bool(d.get("draft")) and event.actor == "system"
            if platforms and (stands(d["fixture"], rows[d["fixture"]]) or d["fixture"] in from_match):
                continue  # a forfeited draft's walkover yields to any result standing
            rows[d["fixture"]].update(
                status=Fixture.Status.WALKOVER,
                walkover_winner=d["winner"],
                home_left=None,
                away_left=None,
                ruling=d.get("reason", ""),
                result_seq=event.seq,
            )
            from_match.discard(d["fixture"])
            if platforms:
                # The platform's, from a verified draft: retracted as a match's result is if the
                # draft is found disputed, and an organiser may still rule over it.
                from_match.add(d["fixture"])
                ruled.discard(d["fixture"])
            elif d.get("reason"):
                ruled.add(d["fixture"])
            else:
                # Only before a walkover needed a reason (the API took none): the replaced match's
                # result then overturned it, and seasons recorded so were projected that way. Folded
                # as it was, so their stored rows still match their facts; the organiser may rule
                # again, with a reason, to restore the walkover.
                ruled.discard(d["fixture"])
    return rows


def season_project(*, season: Season) -> None:
    """Refold the season's facts into Fixture rows (the projection; safe to run any time)."""
    events = streams.stream_events(stream_id=season.stream_id)
    clubs = {c.slug: c for c in Club.objects.filter(slug__in=season.config["clubs"])}
    rows = season_fold(events)
    for values in rows.values():
        for name in ("home", "away", "walkover_winner"):
            if values[name] is not None:
                values[name] = clubs[values[name]]
    existing = {f.key: f for f in season.fixtures.select_related("home", "away", "walkover_winner")}
    for key, values in rows.items():
        fixture = existing.get(key)
        if fixture is not None and all(_same(getattr(fixture, name), value) for name, value in values.items()):
            continue  # one result changes one row: leave the other few hundred alone
        fixture = fixture or Fixture(season=season, key=key)
        for name, value in values.items():
            setattr(fixture, name, value)
        fixture.save()
    season.projected_seq = events[-1].seq if events else 0  # the caller's copy too (a create answers with it)
    Season.objects.filter(pk=season.pk).update(projected_seq=season.projected_seq)


def _same(current, value) -> bool:
    # Rows hold model instances and UUIDs where the fold has clubs and id strings.
    def norm(v):
        return None if v is None else str(getattr(v, "pk", v))

    return norm(current) == norm(value)


def fixture_postpone(
    *,
    fixture: Fixture,
    user,
    date: dt.date,
    reason: str,
    expected_seq: int | object,
    event_id: uuid.UUID | None = None,
) -> None:
    check_organiser(league=fixture.season.league, user=user)
    if not reason.strip():
        # The page always asked for one; the API did not. Everyone reads a season's rulings, and
        # a fixture moved without a word leaves both clubs to guess.
        raise LeagueError("Say why the fixture is postponed.", code="reason_required")

    def postponable() -> None:
        # Read under the season's lock, not from the fixture the caller holds: a start sent at the
        # same time (or before, with the postponement sent at the head) has moved it on. And a
        # retried postponement whose fixture has been started since finds its fact stored, and is
        # answered with it, not refused.
        status = Fixture.objects.filter(pk=fixture.pk).values_list("status", flat=True).get()
        if status in (Fixture.Status.PLAYED, Fixture.Status.WALKOVER):
            raise LeagueError(
                "A played fixture cannot be postponed; correct its result instead.", code="already_played", status=409
            )
        if status == Fixture.Status.IN_PLAY:
            # A postponed fixture may be started again: one fixture would have two matches, and
            # both their results would land in the season.
            raise LeagueError(
                "This fixture is being played, so it cannot be postponed. Award a walkover, or wait "
                "for its result and correct it if need be.",
                code="fixture_in_play",
                status=409,
            )

    _append(
        fixture.season,
        "fixture.postponed",
        {"fixture": fixture.key, "date": date.isoformat(), "reason": reason},
        _actor(user),
        expected_seq=expected_seq,
        event_id=event_id,
        check=postponable,
        closed=SEASON_CLOSED,
    )


def fixture_walkover(
    *,
    fixture: Fixture,
    user,
    winner: Club,
    reason: str,
    expected_seq: int | object,
    event_id: uuid.UUID | None = None,
) -> None:
    check_organiser(league=fixture.season.league, user=user)
    if not reason.strip():
        raise LeagueError("Say why the walkover is awarded.", code="reason_required")
    if winner.pk not in (fixture.home_id, fixture.away_id):
        raise LeagueError("The walkover goes to one of the two clubs in the fixture.", code="bad_winner")
    _append(
        fixture.season,
        "fixture.walkover",
        {"fixture": fixture.key, "winner": winner.slug, "reason": reason},
        _actor(user),
        expected_seq=expected_seq,
        event_id=event_id,
        closed=SEASON_CLOSED,
    )


def result_correct(
    *,
    fixture: Fixture,
    user,
    home_left: int,
    away_left: int,
    reason: str,
    expected_seq: int | object,
    event_id: uuid.UUID | None = None,
) -> None:
    """The organiser's ruling on a result, at any time until the season closes: later rounds keep
    their results and the standings everywhere are recomputed from the corrected facts."""
    check_organiser(league=fixture.season.league, user=user)
    if not reason.strip():
        raise LeagueError("Say why the result is corrected.", code="reason_required")
    for value in (home_left, away_left):
        if not isinstance(value, int) or not 0 <= value <= 5:
            raise LeagueError("Wizards left is a number from 0 to 5.", code="bad_result")
    _append(
        fixture.season,
        "result.corrected",
        {"fixture": fixture.key, "home_left": home_left, "away_left": away_left, "reason": reason},
        _actor(user),
        expected_seq=expected_seq,
        event_id=event_id,
        closed=SEASON_CLOSED,
    )


def fixture_start(
    *,
    fixture: Fixture,
    user=None,
    bots: bool = False,
    clock_seconds: int = 60,
    expected_seq: int | object,
    event_id: uuid.UUID | None = None,
):
    """Start a fixture. IWDL fixtures open a draft (the home club's coach is player 1) that
    hands off to the match; a league of another game starts its match at once. With
    ``bots``, both clubs are coached by bots (a simulated season). Returns the draft or match.
    A stale ``expected_seq`` starts nothing (two coaches starting at once open one draft); a
    retried ``event_id`` returns what the first start opened.

    Any coach of either club, or an organiser of the league, may start it. The coach who starts
    it plays for their club; a club whose coach did not press Start is played by its first
    coach (the earliest account among its coaches)."""
    game = fixture.season.league.game
    drafted = game == DRAFTED_GAME
    opener = user
    if bots:
        bot = "auto" if drafted else registry.get(game).bots[0]
        seats = [SeatSpec(bot=bot), SeatSpec(bot=bot)]
    else:
        home_coaches = list(fixture.home.coaches.order_by("pk"))
        away_coaches = list(fixture.away.coaches.order_by("pk"))
        if not home_coaches or not away_coaches:
            raise LeagueError("Both clubs need a coach before the fixture can start.", code="no_coach")
        # Who is asking comes before a stored event_id is looked up: ids are public (the season's
        # events list them), and a stranger resending a coach's must be refused, not told "done".
        if user is not None and user not in home_coaches and user not in away_coaches:
            try:
                check_organiser(league=fixture.season.league, user=user)
            except LeagueError:
                raise LeagueError(
                    "Only the two coaches or an organiser may start the fixture.", code="not_a_coach", status=403
                ) from None
            opener = None  # an organiser who does not play opens no room of their own (see below)
        home_coach = user if user in home_coaches else home_coaches[0]
        away_coach = user if user in away_coaches and user != home_coach else away_coaches[0]
        seats = [SeatSpec(user=home_coach), SeatSpec(user=away_coach)]
    if event_id is not None:
        stored = Event.objects.filter(event_id=event_id).first()
        if stored is not None:
            return _started_by(stored, fixture, actor=_actor(user))
    if fixture.status not in (Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED):
        raise LeagueError("This fixture has already started or finished.", code="fixture_started", status=409)
    origin = {
        "season": str(fixture.season_id),
        "fixture": fixture.key,
        "fixture_clubs": [fixture.home.slug, fixture.away.slug],
    }
    clock = fixture.season.config.get("time_control") or {}
    if clock and drafted:
        origin["time_control"] = clock  # the draft hands it to the match it sets up
    with transaction.atomic():
        # The draft or match takes an id derived from the start's: a racing retry finds it too.
        made_id = uuid.uuid5(event_id, "start") if event_id is not None else None
        if drafted:
            started = draft_create(
                seats=seats,
                # A draft room is opened by one of its coaches (league/drafts/services.py); the
                # season's fixture.started fact records the organiser who started it.
                created_by=opener,
                config={"format": "schoolyard"},
                clock_seconds=clock_seconds,
                origin=origin,
                event_id=made_id,
            )
            fact = {"fixture": fixture.key, "draft": str(started.draft_match_id)}
        else:
            started = match_create(
                game=game, seats=seats, created_by=user, origin=origin, time_control=clock, event_id=made_id
            )
            fact = {"fixture": fixture.key, "match": str(started.id)}
        _append(fixture.season, "fixture.started", fact, _actor(user), expected_seq=expected_seq, event_id=event_id)
    return started


def _started_by(stored: Event, fixture: Fixture, *, actor: str):
    """The draft or match a stored ``fixture.started`` opened (a retried start: the same hand's)."""
    from league.drafts.models import Draft

    data = stored.data
    if (
        stored.type != "fixture.started"
        or stored.stream_id != fixture.season.stream_id
        or data.get("fixture") != fixture.key
        or stored.actor != actor
    ):
        raise EventIdReused("This event_id was already used for a different command. Use a new id for a new command.")
    if data.get("draft"):
        return Draft.objects.get(draft_match_id=data["draft"])
    return Match.objects.get(pk=data["match"])


def _fixture_score(match: Match) -> tuple[int, int]:
    """What a result puts in the table as (home, away). Wizard Dodgeball: wizards left on the
    court, the IWDL's currency. Other games: 1 for the winner, 0 for the loser, 0-0 level."""
    if match.game == DRAFTED_GAME:
        return match.result["scores"][0], match.result["scores"][1]
    home, away = match.result["placements"][:2]
    return (1, 0) if home < away else (0, 1) if away < home else (0, 0)


def _result_fact(match: Match) -> NewEvent | None:
    """The fact a verified match of a fixture adds to its season, under an id derived from the
    match (so it lands once); None for any other match, and for one a verification has found
    disputed before: a dispute is final (``Match.disputed_at``), whether or not its result was
    recorded (and retracted) while it stood."""
    origin = match.origin or {}
    if match.verdict != Match.Verdict.VERIFIED or "fixture" not in origin or "season" not in origin:
        return None
    if match.disputed_at is not None:
        return None
    event_id = platform_event_id(RESULT_NAMESPACE, str(match.id))
    if registry.get(match.game, match.engine_version).draft:
        return _forfeit_fact(match, event_id)
    if match.result.get("unfinished"):
        # No winner, so no result: the fixture goes back to the organiser with the reason
        # (engines/wizard_dodgeball/RULES.md "Unfinished games").
        detail = match.result.get("detail") or "The match ended without a winner."
        data = {
            "fixture": origin["fixture"],
            "match": str(match.id),
            "reason": f"{detail} Replay it or rule on it.",
            "head_hash": match.head_hash,
        }
        return NewEvent(type="result.unfinished", data=data, actor="system", event_id=event_id)
    home, away = _fixture_score(match)
    data = {
        "fixture": origin["fixture"],
        "match": str(match.id),
        "home_left": home,
        "away_left": away,
        "head_hash": match.head_hash,
    }
    return NewEvent(type="result.recorded", data=data, actor="system", event_id=event_id)


def _forfeit_fact(draft: Match, event_id: uuid.UUID) -> NewEvent | None:
    """A fixture's draft has no result of its own: the match its teams play has. But a draft one
    coach resigned makes no match, so the fixture goes to the other club as a walkover, as an
    organiser would award it, saying why. None for any other draft."""
    result = draft.result or {}
    forfeited = result.get("resigned") if result.get("reason") == "resigned" else None
    clubs = draft.origin.get("fixture_clubs") or []
    if type(forfeited) is not int or len(clubs) != 2 or forfeited not in (0, 1):
        return None
    # The fixture's draft seats the home coach first (fixture_start), as the clubs are listed.
    loser, winner = clubs[forfeited], clubs[1 - forfeited]
    names = dict(Club.objects.filter(slug__in=clubs).values_list("slug", "name"))
    data = {
        "fixture": draft.origin["fixture"],
        "winner": winner,
        "reason": f"The {names.get(loser, loser)} coach resigned the draft.",
        "draft": str(draft.id),
        "head_hash": draft.head_hash,
    }
    return NewEvent(type="fixture.walkover", data=data, actor="system", event_id=event_id)


def result_record(*, match_id) -> bool:
    """A verified match of a fixture lands in the season (once)."""
    match = Match.objects.get(pk=match_id)
    fact = _result_fact(match)
    if fact is None:
        return False
    season = Season.objects.get(pk=match.origin["season"])
    return _append(
        season,
        fact.type,
        fact.data,
        fact.actor,
        # A platform fact: the result stands whatever the season recorded since, and its id,
        # derived from the match, lands it once (league/streams.py).
        expected_seq=AT_HEAD,
        event_id=fact.event_id,
    )


def season_results_record(*, match_ids: list[uuid.UUID | str]) -> int:
    """Many verdicts at once (a season's verification run, a catch-up): each season's new results
    appended in one transaction, in the order given (the verdicts' commit order), and its touched
    fixtures projected once, not fact by fact (issue 17, P6). The same facts under the same ids
    as ``result_record`` for each in turn, so the end state is the same and a result already
    recorded is skipped; the ratings follow with ``ratings_apply`` in the same order.
    Returns how many facts were appended."""
    from .projector import season_project_fixtures

    matches = Match.objects.in_bulk(match_ids)
    by_season: dict[str, list[NewEvent]] = {}
    for match_id in match_ids:
        match = matches.get(match_id if not isinstance(match_id, str) else uuid.UUID(match_id))
        fact = _result_fact(match) if match is not None else None
        if fact is not None:
            by_season.setdefault(match.origin["season"], []).append(fact)
    appended = 0
    seasons = Season.objects.in_bulk([int(pk) for pk in by_season])
    for season_pk, facts in by_season.items():
        season = seasons[int(season_pk)]

        def execute(_subject, appender: Appender, season=season, facts=facts) -> int:
            # Under the stream's lock: a result already stored (a retried batch, a verdict recorded
            # on its own) is skipped, as result_record skips it on finding its derived id.
            stored = set(
                Event.objects.filter(event_id__in=[f.event_id for f in facts]).values_list("event_id", flat=True)
            )
            seen: set[uuid.UUID] = set()
            new = []
            for fact in facts:
                if fact.event_id not in stored and fact.event_id not in seen:
                    seen.add(fact.event_id)
                    new.append(fact)
            if not new:
                return 0
            events = appender.append(new)
            streams.stream_followups(appender)
            season_project_fixtures(season=season, fixtures=[f.data["fixture"] for f in new], head_seq=events[-1].seq)
            return len(events)

        appended += command_run(stream_id=season.stream_id, expected_seq=AT_HEAD, event_id=None, execute=execute).value
    return appended


def verdicts_followups_apply(*, verdicts: list[dict]) -> dict[str, int]:
    """What many verdicts recorded together (``matches.verification.matches_verify``, a list of
    {match_id, game, verdict} in the order verified) bring to the league, in one batch instead
    of a task per verdict (issue 17, P6): a disputed fixture match's recorded result retracted,
    every verified fixture match's result appended (``season_results_record``: one transaction
    per season) and every verdict folded into the ratings (``ratings_apply_many``: one transaction
    per game). Each step is idempotent and leaves what the per-verdict tasks (``retract_result``,
    ``record_result``, ``rate_result``) leave, so a retried batch, or a sweep after it, changes
    nothing more. Returns how many results, retractions and rating changes it made."""
    from league.ratings.projection import ratings_apply_many

    def drafted(game: str) -> bool:  # a draft has no rating (and a fixture's only a forfeit)
        try:
            return registry.get(game).draft
        except registry.UnknownEngine:
            return False

    disputed = [v["match_id"] for v in verdicts if v["verdict"] == Match.Verdict.DISPUTED]
    # A verified verdict on a match once found disputed retracts too: a dispute is final, and the
    # dispute's own retraction may have been lost (result_retract does it once).
    once_disputed = set(
        Match.objects.filter(
            pk__in=[v["match_id"] for v in verdicts if v["verdict"] == Match.Verdict.VERIFIED],
            disputed_at__isnull=False,
        ).values_list("pk", flat=True)
    )
    retracted = sum(1 for match_id in [*disputed, *map(str, once_disputed)] if result_retract(match_id=match_id))
    fixtures = [v["match_id"] for v in verdicts if v["verdict"] == Match.Verdict.VERIFIED]
    recorded = season_results_record(match_ids=fixtures) if fixtures else 0
    verified = [v["match_id"] for v in verdicts if v["verdict"] == Match.Verdict.VERIFIED and not drafted(v["game"])]
    rated = ratings_apply_many(match_ids=[*verified, *disputed])
    return {"results": recorded, "retracted": retracted, "ratings": rated}


def season_close(*, season: Season, user, expected_seq: int | object, event_id: uuid.UUID | None = None) -> dict:
    """End a finished season: the final tables and, between divisions, who goes up, who goes
    down and who enters the play-offs (a fact in the stream; the next season can use it)."""
    check_organiser(league=season.league, user=user)
    stored = Event.objects.filter(event_id=event_id).first() if event_id is not None else None
    if stored is not None and stored.type == "season.closed" and stored.stream_id == season.stream_id:
        return stored.data  # a retried close: what the first one recorded
    closing: dict = {}

    def decided() -> dict:
        # Read under the season's lock, the one this append takes: a close at the head (AT_HEAD,
        # the platform's) read before it could miss a retraction that reopened a fixture in
        # between, and close the season with that fixture open and its table short of it.
        closing.update(_season_closing(season))
        return closing

    created = _append(
        season,
        "season.closed",
        decided,
        _actor(user),
        expected_seq=expected_seq,
        event_id=event_id,
        closed="This season is already closed.",
    )
    # Not created: a retry that raced the first close, found under the lock.
    return closing if created else Event.objects.get(event_id=event_id).data


def _season_closing(season: Season) -> dict:
    """The season's final tables and movements, or why it cannot close yet (the caller holds
    the season's lock, so the fixtures counted are the ones the close is made on)."""
    from league.seasons.table import division_movements, standings

    from .selectors import season_divisions, season_results

    open_fixtures = season.fixtures.exclude(status__in=[Fixture.Status.PLAYED, Fixture.Status.WALKOVER]).count()
    if open_fixtures:
        raise LeagueError(f"{open_fixtures} fixture(s) still to play or rule on.", code="season_unfinished", status=409)
    config = season.config
    results = season_results(season=season)
    groups = season_divisions(season=season) or {"": config["clubs"]}
    tables = []
    for name, members in groups.items():
        mine = [r for r in results if r.home in members and r.away in members]
        tables.append(
            (
                name,
                standings(
                    members,
                    mine,
                    points=tuple(config["points"]),
                    tiebreaks=tuple(config["tiebreaks"]),
                    lot_seed=config["lot_seed"],
                ),
            )
        )
    moves = config.get("movements", {})
    # A season stored before such schedules were refused at creation: a refusal, not a crash.
    problem = _movements_problem([(name, len(rows)) for name, rows in tables], moves) if len(tables) > 1 else None
    if problem:
        raise LeagueError(
            f"This season's promotions, relegations and play-off places do not fit its divisions, so its "
            f"movements cannot be worked out: {problem}",
            code="movements_do_not_fit",
            status=409,
        )
    boundaries = (
        division_movements(
            tables,
            promote=moves.get("promote", 2),
            relegate=moves.get("relegate", 2),
            playoff_spots=moves.get("playoff_spots", 0),
        )
        if len(tables) > 1
        else []
    )
    return {
        "final": {name: [r.club for r in rows] for name, rows in tables},
        "movements": [
            {
                "upper": b.upper,
                "lower": b.lower,
                "promoted": list(b.promoted),
                "relegated": list(b.relegated),
                "playoff": list(b.playoff),
            }
            for b in boundaries
        ],
    }


def next_divisions(*, season: Season) -> dict[str, list[str]] | None:
    """The divisions for the season after ``season``, its promotions and relegations applied."""
    closed = next((e for e in streams.stream_events(stream_id=season.stream_id) if e.type == "season.closed"), None)
    from .selectors import season_divisions

    if closed is None or not season.config.get("divisions"):
        return None
    divisions = season_divisions(season=season)
    for move in closed.data["movements"]:
        up, down = move["promoted"], move["relegated"]
        divisions[move["upper"]] = [c for c in divisions[move["upper"]] if c not in down] + up
        divisions[move["lower"]] = [c for c in divisions[move["lower"]] if c not in up] + down
    return divisions


def league_create(*, slug: str, name: str, game: str, created_by, points=(3, 1, 0), tiebreaks=TIEBREAKS) -> League:
    """A league for any of the platform's games; its creator is its organiser."""
    from league.seasons.table import CRITERIA as KNOWN

    try:
        engine = registry.get(game)
    except registry.UnknownEngine as exc:
        raise LeagueError(str(exc), code="unknown_game") from None
    if engine.draft:
        raise LeagueError("A draft is not a game a league can play.", code="unknown_game")
    if problem := name_problem(name):
        raise LeagueError(f"The league's name cannot be used: {problem}.", code="bad_name")
    if League.objects.filter(slug=slug).exists():
        raise LeagueError(f"There is already a league called '{slug}'.", code="slug_taken", status=409)
    if (
        len(points) != 3
        or any(not isinstance(p, int) or p < 0 for p in points)
        or not points[0] >= points[1] >= points[2]
    ):
        raise LeagueError("Points are [win, draw, loss], whole numbers with win >= draw >= loss.", code="bad_points")
    unknown = [t for t in tiebreaks if t not in KNOWN]
    if unknown or len(set(tiebreaks)) != len(tiebreaks):
        raise LeagueError(f"Tie-breaks come from {', '.join(KNOWN)}, each at most once.", code="bad_tiebreaks")
    with transaction.atomic():
        if created_by is not None:
            # The account's row is the lock: two creates at once count one after the other, so
            # they cannot both take the last place.
            get_user_model().objects.select_for_update().get(pk=created_by.pk)
            cap = settings.MAX_LEAGUES_PER_USER
            if League.objects.filter(created_by=created_by).count() >= cap:
                raise LeagueError(
                    f"You organise {cap} leagues already, as many as one account may.",
                    code="too_many_leagues",
                    status=409,
                )
        with _slug_taken_if_raced(League, slug, f"There is already a league called '{slug}'."):
            return League.objects.create(
                slug=slug,
                name=name,
                game=engine.name,
                points=list(points),
                tiebreaks=list(tiebreaks),
                created_by=created_by,
            )


@contextmanager
def _slug_taken_if_raced(model, slug: str, sentence: str):
    """The check above saw no such slug, but a create racing this one may insert it first: the
    unique index then refuses this insert (once the other commits), and the loser is told what a
    later create is told, 409 slug_taken, with nothing written (a savepoint, so a caller's
    transaction goes on)."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        if not model.objects.filter(slug=slug).exists():
            raise
        raise LeagueError(sentence, code="slug_taken", status=409) from None


def club_create(*, league: League, user, slug: str, name: str, plane: str = "", colours=("#5b3cc4", "#ffffff")) -> Club:
    check_organiser(league=league, user=user)
    for what, text in (("name", name), ("plane", plane)):
        if problem := name_problem(text):
            raise LeagueError(f"The club's {what} cannot be used: {problem}.", code="bad_name")
    taken = f"There is already a club called '{slug}'."
    if Club.objects.filter(slug=slug).exists():
        raise LeagueError(taken, code="slug_taken", status=409)
    with transaction.atomic():
        # The league's row is the lock (its organiser and staff both add clubs): two adds at once
        # count one after the other.
        League.objects.select_for_update().get(pk=league.pk)
        cap = settings.MAX_CLUBS_PER_LEAGUE
        if league.clubs.count() >= cap:
            raise LeagueError(
                f"A league has at most {cap} clubs, and this one has them all.", code="league_full", status=409
            )
        with _slug_taken_if_raced(Club, slug, taken):
            return Club.objects.create(league=league, slug=slug, name=name, plane=plane, colours=list(colours))


def club_coach_add(*, club: Club, user, coach) -> None:
    """The organiser names a coach (a user account) for a club."""
    check_organiser(league=club.league, user=user)
    club.coaches.add(coach)


#: uuid5 namespace of retractions: one per match, so a verdict delivered twice retracts once.
RETRACT_NAMESPACE = uuid.UUID("0b8f6c7e-52d4-4f43-9a0c-7d2e8f1b6c39")


#: The ruling a fixture shows when its result was found disputed after its season closed.
DISPUTED_AFTER_CLOSE = "Result disputed after the season closed: "


def result_retract(*, match_id) -> bool:
    """A match whose result the season recorded has since been found disputed: retract the
    result by a fact in the season's stream (ARCHITECTURE.md: never silently kept), with the
    verifier's reason. Returns whether a retraction was appended.

    Once the season has closed the retraction is still recorded, marked ``season_closed``: the
    fold then keeps the closed table as it was and the fixture says the result was disputed after
    the close (season_fold), rather than reopening a fixture of a season that is over."""
    match = Match.objects.filter(pk=match_id).first()
    origin = (match.origin or {}) if match is not None else {}
    # A dispute is final (Match.disputed_at): a match verified again since still loses the result,
    # or a retraction lost before the re-verification would never be made.
    disputed = match is not None and (match.verdict == Match.Verdict.DISPUTED or match.disputed_at is not None)
    if not disputed or "fixture" not in origin or "season" not in origin:
        return False
    season = Season.objects.get(pk=origin["season"])
    events = streams.stream_events(stream_id=season.stream_id)
    recorded = any(
        (e.type == "result.recorded" and e.data.get("match") == str(match.id))
        or (e.type == "fixture.walkover" and e.data.get("draft") == str(match.id))  # a forfeited draft's
        for e in events
    )
    # Retracted already: a verdict's follow-ups delivered again, or the sweep after them, would
    # otherwise ask for it once more (with another reason, when the newest verdict is verified).
    retracted = any(e.type == "result.retracted" and e.data.get("match") == str(match.id) for e in events)
    if not recorded or retracted:
        return False
    where = f" (event {match.verdict_seq})" if match.verdict_seq else ""
    why = (
        f"the match was disputed{where}: {match.verdict_reason}"
        if match.verdict == Match.Verdict.DISPUTED
        else "an earlier verification found the match disputed."
    )

    def retraction() -> dict:
        fact = {"fixture": origin["fixture"], "match": str(match.id), "reason": why}
        # Under the season's lock, so a close racing this retraction is either seen here or after it.
        if Event.objects.filter(stream_id=season.stream_id, type="season.closed").exists():
            fact["season_closed"] = True
        return fact

    return _append(
        season,
        "result.retracted",
        retraction,
        "system",
        # The dispute is final whatever the season recorded since; the derived id lands it once.
        expected_seq=AT_HEAD,
        event_id=platform_event_id(RETRACT_NAMESPACE, str(match.id)),
    )
