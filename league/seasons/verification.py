"""The season verifier (registered for stream kind "season" in league/apps.py).

In stream order, so the first problem is the earliest bad seq: the hash chain; the creation
fact against the season's stored config; every fact folds (it names a scheduled fixture);
every recorded result, unfinished result and retraction in the platform's hand (no organiser
writes one), every ruling, start, creation and close in a hand the services let make it
(``_hand_problem``); every recorded result against the match it cites (the season's fixture, a verified
verdict, the head hash published with the result, the score the match gives; of a match found
disputed and this result retracted after, the fixture alone: see ``_check_result``); a retraction
that keeps its result because the season had closed comes after the close.
Then the stored projection (Fixture rows, from which standings are computed) against a fresh
fold of the facts, reported at the last fact that touched the fixture that differs.
"""

from __future__ import annotations

from matches import eventstore
from matches.models import Match, Stream
from matches.stream_verifiers import StreamVerdict

from .models import Season
from .services import PLATFORM_RESULT_FACTS, _fixture_score, _forfeit_fact, _same, season_fold

#: Projection fields compared; clubs and matches by slug and id.
FIELDS = (
    "round",
    "date",
    "division",
    "home",
    "away",
    "status",
    "draft_id",
    "match_id",
    "home_left",
    "away_left",
    "walkover_winner",
    "ruling",
    "result_seq",
)


def _stored(fixture) -> dict:
    return {
        **{name: getattr(fixture, name) for name in FIELDS},
        "home": fixture.home.slug,
        "away": fixture.away.slug,
        "walkover_winner": fixture.walkover_winner.slug if fixture.walkover_winner_id else None,
    }


def _retractions(events) -> dict[tuple, list[int]]:
    """(fixture, match id) -> the seqs of the facts retracting that match's result."""
    found: dict[tuple, list[int]] = {}
    for e in events:
        # Only the platform's: a retraction in another hand excuses nothing (it is disputed itself).
        if e.type == "result.retracted" and e.actor == "system":
            found.setdefault((e.data.get("fixture"), e.data.get("match")), []).append(e.seq)
    return found


def _cited(season: Season, data: dict, key: str, fact: str, kind: str, made: str) -> tuple[Match | None, str | None]:
    """The match (or draft) a fact cites by ``data[key]``, or why it is not this fixture's: one that
    does not exist, or was made for another season or fixture."""
    match = Match.objects.filter(pk=data.get(key)).first()
    if match is None:
        return None, f"The {fact} cites a {kind} that does not exist."
    origin = match.origin or {}
    if origin.get("season") != str(season.pk) or origin.get("fixture") != data.get("fixture"):
        return None, f"The {fact} cites a {kind} that was not {made} for this fixture."
    return match, None


def _check_result(season: Season, event, retracted_later: bool) -> str | None:
    d = event.data
    match, problem = _cited(season, d, "match", "result", "match", "played")
    if problem:
        return problem
    if retracted_later and match.verdict == Match.Verdict.DISPUTED:
        # Found disputed, the match's published verdict, result and head are the very things in
        # doubt (the README's demo alters the published result), so they are no measure of a
        # result the stream has since retracted and no longer counts. That is all a retraction
        # excuses: it must come after this result and name this fixture and match, and a match
        # that verifies (never disputed, or put right since) must still give exactly the score
        # recorded, so a retraction cannot hide a wrong score of an honest match.
        return None
    if match.verdict != Match.Verdict.VERIFIED:
        never = "" if retracted_later else ", and the result was never retracted"
        return f"The match behind this result is {match.verdict}, not verified{never}."
    if match.status != Match.Status.FINISHED or not match.result:
        return "The match behind this result has not finished."
    if d.get("head_hash") != match.head_hash:
        return "The head hash recorded with the result differs from the match's published head."
    if [d.get("home_left"), d.get("away_left")] != list(_fixture_score(match)):
        return "The score recorded differs from the result of the match it cites."
    return None


def _check_unfinished(season: Season, event) -> str | None:
    """An unfinished fact must cite this fixture's verified match, which really ended unfinished."""
    d = event.data
    match, problem = _cited(season, d, "match", "unfinished result", "match", "played")
    if problem:
        return problem
    if match.verdict != Match.Verdict.VERIFIED:
        return f"The match behind this unfinished result is {match.verdict}, not verified."
    if not (match.result or {}).get("unfinished"):
        return "The match this fact calls unfinished has a result."
    if d.get("head_hash") != match.head_hash:
        return "The head hash recorded with the fact differs from the match's published head."
    return None


def _check_forfeit(season: Season, event, retracted_later: bool) -> str | None:
    """A walkover the platform gave for a forfeited draft must be in the platform's hand ("system"),
    cite this fixture's verified draft, which the losing club's coach really resigned, name the
    other club, and say which resigned."""
    d = event.data
    if event.actor != "system":
        # Only the platform gives a walkover for a forfeited draft (_forfeit_fact); an organiser's
        # cites no draft. The fold takes this one as its hand's walkover, not the platform's.
        who = event.actor or "nobody"
        return f"A walkover for a forfeited draft is the platform's to give, but this one is by {who}."
    draft, problem = _cited(season, d, "draft", "walkover", "draft", "made")
    if problem:
        return problem
    if retracted_later and draft.verdict == Match.Verdict.DISPUTED:
        return None  # as for a result (_check_result): the retraction is what counts
    if draft.verdict != Match.Verdict.VERIFIED:
        never = "" if retracted_later else ", and the walkover was never retracted"
        return f"The draft behind this walkover is {draft.verdict}, not verified{never}."
    fact = _forfeit_fact(draft, event.event_id)
    if fact is None:
        return "The draft behind this walkover was not forfeited."
    if d.get("head_hash") != draft.head_hash:
        return "The head hash recorded with the walkover differs from the draft's published head."
    if d.get("winner") != fact.data["winner"]:
        return "The walkover was given to the club whose coach forfeited the draft."
    if d.get("reason") != fact.data["reason"]:
        # The fixture's ruling on every page: it must name the club whose coach resigned.
        return f"The walkover's reason differs from the draft's: {fact.data['reason']}"
    return None


def _check_started(season: Season, data: dict) -> str | None:
    """The draft or match a fixture started must be that fixture's."""
    cited = data.get("match") or data.get("draft")
    match = Match.objects.filter(pk=cited).first() if cited else None
    if match is None:
        return "The fixture's start cites no match or draft that exists."
    origin = match.origin or {}
    if origin.get("season") != str(season.pk) or origin.get("fixture") != data.get("fixture"):
        return "The fixture's start cites a match or draft that was not made for this fixture."
    return None


# --------------------------------------------------------------------------------------
# Whose hand each organiser's and coach's fact is in (docs/AUDIT.md 8.2)
#
# The services write ``user:<pk>`` of whoever ran the command, or ``system`` when no user did
# (``_actor``). No season fact records who is staff or who coaches a club (``check_organiser``:
# the league's ``created_by`` or a staff user; ``fixture_start``: a coach of either club). Today's
# rows are no measure of the day of the fact: clubs change coaches between seasons and staff are
# demoted, and a fact by either, honest when written, would be disputed; a forger who can rewrite
# the stream can rewrite those rows as easily. So these hands are checked as far as the stream
# can say: a ruling or the close is a person's (``user:``), never the platform's or a bot's; a
# start, the creation and the schedule a person's or the platform's. Old streams: no rule was ever
# narrower (``git log -S check_organiser`` on league/seasons/services.py): rulings and the close
# were always an organiser's (c3f3712, 5fcc958), a season created with no user (simulate-season)
# always ``system``'s, and a start a coach's, staff's or ``system``'s (fe0e8ee widened it).

#: An organiser's rulings and the close: never the platform's (a forfeit's walkover, which cites
#: a draft, is checked by ``_check_forfeit``).
ORGANISERS = {
    "fixture.postponed": "A postponement",
    "fixture.walkover": "A walkover",
    "result.corrected": "A correction",
    "season.closed": "The season's close",
}
#: The creation and the schedule: an organiser's, or the platform's when no user made the season.
CREATION = {"season.created": "The season's creation", "fixtures.scheduled": "The season's schedule"}


def _hand_problem(event) -> str | None:
    """Why the actor of an organiser's or a coach's fact is one the services would never write, or
    None (see above: a person's, or for a start, the creation and the schedule also the platform's)."""
    actor = event.actor or ""
    who = actor or "nobody"
    person = actor.startswith("user:")
    data = event.data if isinstance(event.data, dict) else {}
    if event.type in ORGANISERS and not data.get("draft") and not person:
        return f"{ORGANISERS[event.type]} is the league organiser's to make, but this one is by {who}."
    if event.type in CREATION and not (actor == "system" or person):
        return f"{CREATION[event.type]} is the league organiser's (or the platform's), but this one is by {who}."
    if event.type == "fixture.started" and not (actor == "system" or person):
        return (
            f"A fixture is started by a coach of either club, an organiser or the platform, but this one is by {who}."
        )
    return None


def _folds(events) -> bool:
    try:
        season_fold(events)
    except (KeyError, TypeError, ValueError):
        return False
    return True


def verify_season(stream: Stream) -> StreamVerdict:
    def bad(seq, reason):
        return StreamVerdict(False, "season", seq, reason, stream.id)

    events = eventstore.stream_events(stream_id=stream.id)
    chain = eventstore.chain_check(events)
    if not chain.ok:
        return bad(chain.seq, chain.reason)
    season = Season.objects.filter(stream_id=stream.id).select_related("league").first()
    if season is None:
        return bad(1, "No season is built from this stream.")
    if not events or events[0].type != "season.created":
        return bad(1, "The stream does not start with the season's creation.")
    if events[0].data != season.config:
        return bad(1, "The season's stored configuration differs from the one recorded at creation.")

    retractions = _retractions(events)
    touched: dict[str, int] = {}
    closed = False
    for event in events:
        if event.type == "season.closed":
            closed = True
        fixture = event.data.get("fixture") if isinstance(event.data, dict) else None
        if fixture is not None:
            touched[fixture] = event.seq
        if event.type == "fixtures.scheduled":
            for f in event.data.get("fixtures", []):
                touched[f["key"]] = event.seq
        problem = _hand_problem(event)
        if problem:
            return bad(event.seq, problem)
        if event.type in PLATFORM_RESULT_FACTS and event.actor != "system":
            # The platform's alone (services.PLATFORM_RESULT_FACTS); the fold takes no other's.
            who = event.actor or "nobody"
            return bad(
                event.seq, f"{PLATFORM_RESULT_FACTS[event.type]} is the platform's to record, but this one is by {who}."
            )
        if event.type == "result.recorded":
            later = any(
                seq > event.seq for seq in retractions.get((event.data.get("fixture"), event.data.get("match")), ())
            )
            problem = _check_result(season, event, later)
            if problem:
                return bad(event.seq, problem)
        elif event.type == "fixture.walkover" and event.data.get("draft"):
            later = any(
                seq > event.seq for seq in retractions.get((event.data.get("fixture"), event.data.get("draft")), ())
            )
            problem = _check_forfeit(season, event, later)
            if problem:
                return bad(event.seq, problem)
        elif event.type == "result.retracted" and event.data.get("season_closed") and not closed:
            # Marked as after the close, a retraction keeps the disputed result in the table: only
            # a closed season's table is kept so (services.result_retract).
            return bad(event.seq, "The retraction says the season had closed, but it had not: the result still counts.")
        elif event.type == "result.unfinished":
            problem = _check_unfinished(season, event)
            if problem:
                return bad(event.seq, problem)
        elif event.type == "fixture.started":
            problem = _check_started(season, event.data)
            if problem:
                return bad(event.seq, problem)
    try:
        folded = season_fold(events)
    except (KeyError, TypeError, ValueError) as exc:
        # Rare (an altered fact naming no scheduled fixture): find the first prefix that fails.
        first = next(i for i in range(1, len(events) + 1) if not _folds(events[:i]))
        return bad(events[first - 1].seq, f"The fact cannot be folded ({exc!r}).")

    stored = {f.key: f for f in season.fixtures.select_related("home", "away", "walkover_winner")}
    head = events[-1].seq
    for key in sorted(set(stored) | set(folded), key=lambda k: touched.get(k, head)):
        if key not in folded:
            return bad(head, f"Fixture {key} is stored but no fact schedules it.")
        if key not in stored:
            return bad(touched.get(key, head), f"Fixture {key} is missing from the stored fixtures.")
        row = _stored(stored[key])
        for name in FIELDS:
            if not _same(row[name], folded[key][name]):
                return bad(
                    touched.get(key, head),
                    f"Fixture {key}'s stored {name} ({row[name]}) differs from a "
                    f"fresh fold of the season's facts ({folded[key][name]}).",
                )
    if season.projected_seq != head:
        return bad(head, f"The fixtures were folded to event {season.projected_seq}, not to the stream's head.")
    return StreamVerdict(True, "season", label=stream.id)
