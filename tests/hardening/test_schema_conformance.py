"""The API answers as its published OpenAPI schema (/api/schema/) says: every status code it sends is
documented for that operation, every body has the documented content type and fits the documented
schema (errors the shared ``{"code", "detail"}`` shape), and the documented headers are sent.

tests/hardening/test_schema.py asks only that no generated request gets a 5xx; here schemathesis's
response checks are run on valid (positive) requests, by the callers a developer is: the owner of
the objects, another signed-in user, and nobody signed in."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

#: Bounded so the whole file runs in a couple of minutes on two busy cores; derandomized, so a
#: failure reproduces.
EXAMPLES_PER_OPERATION = 6
EXAMPLES_PER_READ_FOR_OTHERS = 3
CONFORMANCE = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


@pytest.fixture
def published(db, make_user, settings):
    """Real objects behind every path parameter, so requests reach the views' own answers: a live
    match and a finished, verified one, a signed checkpoint, an IWDL season with a result, a club
    with a coach, a new tournament and a running one, a draft and a what-if sandbox, all the owner's."""
    import base64

    settings.CHECKPOINT_SIGNING_KEY = base64.b64encode(bytes(range(32))).decode()
    from django.core.wsgi import get_wsgi_application
    from rest_framework.authtoken.models import Token

    from league.drafts import services as drafts
    from league.seasons import services as seasons
    from league.tournaments import selectors
    from league.tournaments import services as tournaments
    from matches.analysis import services as sandboxes
    from matches.autoplay import autoplay_match
    from matches.checkpoints.services import checkpoint_sign
    from matches.commands import AT_HEAD
    from matches.services import SeatSpec
    from matches.verification import match_verify
    from tests.matches.helpers import new_duel

    owner, rival = make_user("owner"), make_user("rival")
    live = new_duel(owner, rival)
    finished = autoplay_match(game="dueling-wizards", seats=2)
    match_verify(match_id=finished.id)  # queued on commit, which a test transaction never reaches
    checkpoint_sign()
    league = seasons.league_load_iwdl()
    league.created_by = owner
    league.save()
    clubs = list(league.clubs.order_by("slug")[:4])
    season = seasons.season_create(league=league, created_by=owner, start_date=dt.date(2026, 1, 5), clubs=clubs)
    clubs[0].coaches.add(owner)
    tournament = tournaments.tournament_create(
        created_by=owner, name="Fuzz Open", game="dueling-wizards", format="swiss", options={}
    )
    # And one under way, so its answers are checked with players, a round and a final result in
    # them (the fresh one's lists are empty); a season with a result in its table likewise.
    running = tournaments.tournament_create(
        created_by=owner, name="Fuzz Swiss", game="dueling-wizards", format="swiss", options={}
    )
    for player in (owner, rival, make_user("third"), make_user("fourth")):
        tournaments.tournament_register(tournament=running, user=player, expected_seq=AT_HEAD)
    tournaments.tournament_start(tournament=running, by=owner, expected_seq=AT_HEAD)
    first = selectors.tournament_state(tournament=running)["rounds"][0]["pairings"][0]
    tournaments.tournament_rule(
        tournament=running, pairing=first, by=owner, result={"draw": True}, reason="Agreed", expected_seq=AT_HEAD
    )
    sandbox = sandboxes.sandbox_create(match=finished, owner=owner, at=2, bot_seats=[1], hand_chance=False)
    draft = drafts.draft_create(seats=[SeatSpec(user=owner), SeatSpec(user=rival)], created_by=owner)
    fixture = season.fixtures.order_by("round", "key").first()
    seasons.fixture_walkover(fixture=fixture, user=owner, winner=fixture.home, reason="No show", expected_seq=AT_HEAD)
    ids = {
        "match_id": [str(live.id), str(finished.id)],
        "ref": [str(finished.id)],
        "tree_size": [1],
        "slug": ["iwdl"],
        "number": [season.number],
        "tournament_id": [str(tournament.id), str(running.id)],
        "pairing_id": [first, *selectors.tournament_state(tournament=running)["rounds"][0]["pairings"][1:]],
        "username": [owner.username],
        "draft_id": [str(draft.draft_match_id)],
        "sandbox_id": [str(sandbox.id)],
        "game": ["dueling-wizards"],
    }
    return {
        "app": get_wsgi_application(),
        "ids": ids,
        "club": clubs[0].slug,
        "owner": {"Authorization": f"Token {Token.objects.create(user=owner).key}"},
        "rival": {"Authorization": f"Token {Token.objects.create(user=rival).key}"},
        "nobody": {},
    }


@pytest.fixture(autouse=True)
def requests_inside_the_test_transaction():
    """As Django's test client does: every request runs in this thread, inside the test's
    transaction, so a request's end must not close the connection."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def operations(published):
    schema = schemathesis.openapi.from_wsgi("/api/schema/", published["app"])
    found = [result.ok() for result in schema.get_all_operations()]
    assert len(found) >= 60
    return found


def path_choices(published, operation, narrowed=None) -> list[dict]:
    """Every combination of the world's objects for the operation's path parameters (``narrowed``:
    fewer of them, by operation path)."""
    ids = {**published["ids"], **(narrowed or {}).get(operation.path, {})}
    if operation.path.startswith("/api/clubs/"):
        ids["slug"] = [published["club"]]  # a club's slug there, a league's elsewhere
    names = [p.name for p in operation.path_parameters if p.name in ids]
    return [dict(zip(names, values)) for values in itertools.product(*(ids[n] for n in names))]


def check_examples(operation, *, path_choices, headers, checks, examples, keep=None) -> None:
    strategy = st.one_of(
        *[operation.as_strategy(GenerationMode.POSITIVE, path_parameters=fixed) for fixed in path_choices]
    )
    if keep is not None:
        strategy = strategy.filter(keep)

    @given(case=strategy)
    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def check(case):
        case.call_and_validate(headers=headers, checks=checks)

    check()


def failures_of(
    published, callers, *, checks, examples, methods=None, paths=None, narrowed=None, keep=None
) -> list[str]:
    from django.core.cache import cache

    failures = []
    for operation in operations(published):
        if methods and operation.method.upper() not in methods:
            continue
        if paths and operation.path not in paths:
            continue
        for caller in callers:
            cache.clear()  # no throttle spent by the previous operations' requests
            try:
                check_examples(
                    operation,
                    path_choices=path_choices(published, operation, narrowed),
                    headers=published[caller],
                    checks=checks,
                    examples=examples,
                    keep=(keep or {}).get(operation.path),
                )
            except (Exception, BaseExceptionGroup) as exc:  # every operation's failure, not the first
                failures.append(f"{operation.method.upper()} {operation.path} as {caller}: {str(exc)[:700]}")
    return failures


def test_the_owners_valid_requests_are_answered_as_each_operation_documents(published):
    failures = failures_of(published, ["owner"], checks=CONFORMANCE, examples=EXAMPLES_PER_OPERATION)
    assert not failures, "\n\n".join(failures)


def test_other_users_and_visitors_reading_are_answered_as_each_operation_documents(published):
    # Reads are where a refusal is easy to leave undocumented: another user asking for the
    # organiser's webhooks, a visitor asking for their invitations, a live match's other seat.
    failures = failures_of(
        published, ["rival", "nobody"], checks=CONFORMANCE, examples=EXAMPLES_PER_READ_FOR_OTHERS, methods={"GET"}
    )
    assert not failures, "\n\n".join(failures)


def test_every_read_accepts_the_query_parameters_its_schema_allows(published):
    # A read's only input is its query: whatever the schema allows (a limit, an offset, a seq) is
    # answered, never refused as 400 for a bound the schema did not state. Writes are left out
    # here: their bodies name things that must exist (a user, a game), which no type can say.
    failures = failures_of(
        published,
        ["owner"],
        checks=[positive_data_acceptance],
        examples=EXAMPLES_PER_OPERATION,
        methods={"GET"},
        # Only the live match, where the owner holds a seat: a caller holding none must name one
        # (400), a rule of who asks that no parameter type can state.
        narrowed={"/api/matches/{match_id}/legal/": {"match_id": published["ids"]["match_id"][:1]}},
        # A rule between two parameters, which no parameter's type states (the summary does).
        keep={"/api/checkpoints/consistency/": lambda case: case.query["first"] <= case.query["second"]},
    )
    assert not failures, "\n\n".join(failures)


def parser_accepts(value) -> bool:
    """Whether config.middleware.BoundedJSONParser reads this body (as the 400's description says)."""
    from django.conf import settings

    from config.middleware import MAX_JSON_INT

    def ok(value, depth) -> bool:
        if depth > settings.API_MAX_JSON_DEPTH:
            return False
        if isinstance(value, dict):
            return all(ok(k, depth) and ok(v, depth + 1) for k, v in value.items())
        if isinstance(value, list):
            return all(ok(v, depth + 1) for v in value)
        if isinstance(value, str):
            return "\x00" not in value and not any(0xD800 <= ord(c) <= 0xDFFF for c in value)
        if isinstance(value, int) and not isinstance(value, bool):
            return abs(value) <= MAX_JSON_INT
        return True

    return ok(value, 1)


def test_a_body_the_schema_allows_reaches_the_views_own_checks(published):
    # The group builder's check names nothing that must exist and writes nothing: any body its
    # schema allows is judged by the engine (200, each part's refusal in the answer), never refused
    # by the parser for a type or an encoding the schema offered.
    failures = failures_of(
        published,
        ["owner", "nobody"],
        checks=[positive_data_acceptance, *CONFORMANCE],
        examples=EXAMPLES_PER_OPERATION * 2,
        paths={"/api/games/wizarding-duels/groups/check/"},
        # The parser's rules for every body, stated in the 400's description: a free-form object's
        # schema cannot bound the numbers and text deep inside it.
        keep={"/api/games/wizarding-duels/groups/check/": lambda case: parser_accepts(case.body)},
    )
    assert not failures, "\n\n".join(failures)


def test_json_values_the_views_require_to_be_objects_are_documented_as_objects(published):
    schema = schemathesis.openapi.from_wsgi("/api/schema/", published["app"]).raw_schema
    components = schema["components"]["schemas"]
    for component, field in [
        ("Command", "action"),
        ("MatchCreate", "config"),
        ("SandboxAction", "action"),
        ("GroupCheck", "group"),
        ("GroupCheck", "config"),
    ]:
        assert components[component]["properties"][field].get("type") == "object", (component, field)
    # Bodies are JSON: a form's fields cannot carry these objects or lists as the schema shows them.
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if "requestBody" in operation:
                assert set(operation["requestBody"]["content"]) == {"application/json"}, (method, path)


def verb_known(ctx, response, case):
    """A custom check: the verb in the path is one the view knows (its refusal of an unknown verb is
    404 with a sentence naming it)."""
    body = response.json() if response.status_code == 404 else {}
    if body.get("code") == "unknown_verb" or str(body.get("detail", "")).startswith("Unknown "):
        raise AssertionError(f"The schema allowed a verb the view does not know: {body}")


def test_every_verb_the_schema_allows_is_one_the_view_knows(published):
    # /api/drafts/{id}/{verb}/ and the like: a client reads the verbs from the schema.
    failures = []
    for operation in operations(published):
        if "verb" not in {p.name for p in operation.path_parameters}:
            continue
        verbs = next(p for p in operation.path_parameters if p.name == "verb").definition["schema"]
        if "enum" not in verbs:
            failures.append(f"{operation.method.upper()} {operation.path}: any string is a verb")
    failures += failures_of(
        published, ["owner"], checks=[verb_known], examples=EXAMPLES_PER_OPERATION, methods={"POST"}
    )
    assert not failures, "\n\n".join(failures)


def answered_401(ctx, response, case):
    """A custom check: the request was refused as unauthenticated (not served, not 404)."""
    if response.status_code != 401:
        raise AssertionError(f"Expected 401 for a rejected token, got {response.status_code}")


def test_a_rejected_token_is_a_documented_401_on_every_operation(published):
    # A token deleted or expired (config/auth.py) is refused before any view runs, reads included:
    # a developer's client must expect 401 wherever it sends its token.
    published["rejected"] = {"Authorization": "Token not-a-token-anyone-was-given"}
    failures = failures_of(published, ["rejected"], checks=[*CONFORMANCE, answered_401], examples=1)
    assert not failures, "\n\n".join(failures)


def retry_after_documented(published, status: str) -> list[str]:
    """The operations whose ``status`` answer does not document a Retry-After header."""
    missing = []
    for operation in operations(published):
        headers = operation.definition.raw["responses"][status].get("headers", {})
        if "Retry-After" not in headers:
            missing.append(f"{operation.method.upper()} {operation.path}")
    return missing


def test_a_throttled_request_is_told_when_to_come_back_as_documented(published, monkeypatch):
    from rest_framework.throttling import UserRateThrottle

    assert not retry_after_documented(published, "429")
    for operation in operations(published):
        assert operation.definition.raw["responses"]["429"]["headers"]["Retry-After"]["required"] is True
    operation = schemathesis.openapi.from_wsgi("/api/schema/", published["app"])["/api/engines/"]["GET"]
    monkeypatch.setattr(UserRateThrottle, "rate", "1/minute", raising=False)
    case = operation.Case()
    assert case.call(headers=published["owner"]).status_code == 200
    throttled = case.call(headers=published["owner"])
    assert throttled.status_code == 429
    case.validate_response(throttled, checks=CONFORMANCE)
    assert int(throttled.headers["retry-after"][0]) > 0


def test_an_answer_while_the_database_is_down_says_when_to_retry_as_documented(published, monkeypatch):
    from django.db import OperationalError

    from matches.api import views

    assert not retry_after_documented(published, "503")

    def dropped(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(views.selectors, "match_summary", dropped)
    operation = schemathesis.openapi.from_wsgi("/api/schema/", published["app"])["/api/matches/"]["GET"]
    case = operation.Case()
    down = case.call(headers=published["owner"])
    assert down.status_code == 503 and down.json()["code"] == "database_unavailable"
    # A 5xx is what this test provokes: every other check holds.
    case.validate_response(down, checks=[c for c in CONFORMANCE if c is not not_a_server_error])
    assert int(down.headers["retry-after"][0]) > 0
