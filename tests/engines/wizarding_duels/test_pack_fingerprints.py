"""A content pack byte for byte equal to one that passed the checks is not schema-checked again at
load (issue 17, P1: importing jsonschema and checking the pack cost each process more than replaying
a whole match); any other pack is checked in full, as before."""

import json
import shutil

import pytest

from engines.wizarding_duels import content


@pytest.fixture
def pack_dir(tmp_path, monkeypatch):
    """A copy of the packs directory the loader reads instead of the real one."""
    for name in ("schema.json", "original-v1.json", "checked.json"):
        shutil.copy(content.PACK_DIR / name, tmp_path / name)
    monkeypatch.setattr(content, "PACK_DIR", tmp_path)
    content.load.cache_clear()
    content.checked.cache_clear()
    yield tmp_path
    content.load.cache_clear()
    content.checked.cache_clear()


def test_every_built_in_pack_passes_the_checks_and_its_fingerprint_is_recorded():
    # When this fails after a pack or the schema was edited, record the new fingerprints with
    #   python -c "from engines.wizarding_duels import content as c; print({p: c.fingerprint((c.PACK_DIR / f'{p}.json').read_bytes()) for p in c.pack_ids()})"
    # into engines/wizarding_duels/packs/checked.json (this test checks the packs themselves).
    recorded = json.loads((content.PACK_DIR / "checked.json").read_text())
    assert sorted(recorded) == content.pack_ids()
    for pack_id in content.pack_ids():
        raw = (content.PACK_DIR / f"{pack_id}.json").read_bytes()
        content.check(json.loads(raw))
        assert recorded[pack_id] == content.fingerprint(raw), f"{pack_id}: checked.json is out of date"


def test_a_pack_with_its_recorded_fingerprint_loads_without_the_schema_pass(pack_dir, monkeypatch):
    def refuse(data):
        raise AssertionError("a pack already checked was checked again")

    monkeypatch.setattr(content, "check", refuse)
    assert content.load("original-v1").id == "original-v1"


def test_a_pack_edited_after_it_was_checked_is_checked_in_full_and_refused_when_wrong(pack_dir):
    data = json.loads((pack_dir / "original-v1.json").read_text())
    data["clash_cards"][0]["upper"] = "3"  # a starting deck with the wrong make-up
    (pack_dir / "original-v1.json").write_text(json.dumps(data))
    with pytest.raises(content.PackError, match="starting deck"):
        content.load("original-v1")


def test_a_schema_edited_after_the_packs_were_checked_has_every_pack_checked_again(pack_dir, monkeypatch):
    schema = json.loads((pack_dir / "schema.json").read_text())
    schema["$comment"] = "edited"
    (pack_dir / "schema.json").write_text(json.dumps(schema))
    calls = []
    real_check = content.check
    monkeypatch.setattr(content, "check", lambda data: calls.append(data["id"]) or real_check(data))
    assert content.load("original-v1").id == "original-v1"
    assert calls == ["original-v1"]


def test_the_fingerprint_file_is_not_offered_as_a_pack():
    assert "checked" not in content.pack_ids()
    with pytest.raises(content.InvalidConfig):
        content.load("checked")
