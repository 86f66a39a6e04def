"""The broadcast built from what a command holds (live.frames_held) on the embedded default,
SQLite, where a JSONField keeps the text json.dumps wrote, keys in their order, where PostgreSQL's
jsonb reorders them: its frames must still be the frames read back, byte for byte. The suite runs
on PostgreSQL, so this plays a duel against the random bot through the services in a subprocess on
a scratch SQLite file, as test_demo_on_sqlite.py runs the demo (its ``_manage``)."""

from __future__ import annotations

import base64
import json
import os

from tests.league.test_demo_on_sqlite import _manage

PLAY = """
import json
from django.contrib.auth import get_user_model
from engines import registry
from matches import live, selectors, tasks
from matches.models import Match
from matches.services import SeatSpec, match_act, match_create

sent = []
live.send_frames = lambda layer, match_id, frames: sent.append(
    [(live.viewer_group(match_id, s), live.frame_message(f)["text"]) for s, f in frames])
def read_back(**kwargs):
    raise AssertionError("the broadcast read the match back")
live.broadcast_match = read_back
tasks.verify_match.delay = lambda match_id: None  # the verdict has its own frame

alice = get_user_model().objects.create_user("alice", password="a-long-test-password")
match = match_create(game="dueling-wizards", seats=[SeatSpec(user=alice), SeatSpec(bot="random")],
                     created_by=alice, mode=Match.Mode.SERVER)
moves = same = 0
while True:
    match = Match.objects.get(pk=match.pk)
    if match.status == Match.Status.FINISHED:
        break
    before = match.state_seq
    engine = selectors.engine_for(match)
    action = engine.legal_actions(match.state, 0)[0]
    match_act(match_id=match.pk, user=alice, seat=0, action=action, expected_seq=before)
    moves += 1
    frames = sent.pop()
    read = [(live.viewer_group(match.pk, s), live.frame_message(f)["text"])
            for s, f in live._frames_read(Match.objects.get(pk=match.pk), before)]
    same += frames == read
print(json.dumps({"moves": moves, "same": same, "left": len(sent)}))
"""


def test_a_commands_frames_from_memory_on_sqlite_are_the_frames_read_back_byte_for_byte(tmp_path):
    (tmp_path / "checkpoint.key").write_text(base64.b64encode(os.urandom(32)).decode())
    _manage(tmp_path, "migrate", "--noinput", "-v0")
    report = json.loads(_manage(tmp_path, "shell", "-c", PLAY).stdout.strip().splitlines()[-1])
    assert report["moves"] > 5 and report["same"] == report["moves"] and report["left"] == 0, report
