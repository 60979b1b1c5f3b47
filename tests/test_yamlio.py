"""The files' YAML emitter (``yamlio.dump_text``): what it writes reads back equal with the safe
loader, in the block layout a GM reads; what it does not know goes to PyYAML."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import yamlio
from adjudicator.judge import Judge
from adjudicator.store import Store

TRICKY = ["", " ", "yes", "No", "on", "null", "~", "true", "1", "-1", "0x1f", "1e3", ".5", ".inf", "1_000",
          "2030-01-10", "2030-01-10T12:00:00Z", "12:30", "<<", "=", "- a", "a: b", "a #b", "#x", "'q'", '"q"',
          "trailing ", " leading", "tab\there", "line\nbreak", "\r", "\x00", "\x7f", "\x85", "\u2028", "\ufeff",
          "Zimohraď", "západ—východ", "@home", "!tag", "&anchor", "*alias", "%x", "`x", "{x}", "[x]", "a,b",
          "?", ":", "-", "a@b.org", "$x", "x$@y", "x" * 300, "round 2, westeros: bid (I Supply)", "2 westeros", "a/b.c(d)+e=f,g"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=30), st.sampled_from(TRICKY))
keys = st.one_of(st.text(min_size=1, max_size=20), st.integers(), st.sampled_from([t for t in TRICKY if t]))
plain = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(keys, inner, max_size=4)), max_leaves=25)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.dictionaries(keys, plain, max_size=6))
def test_what_the_emitter_writes_reads_back_equal(data):
    assert yamlio.loads(yamlio.dump_text(data)) == data


def test_tricky_strings_read_back_as_themselves_as_keys_and_values():
    data = {"values": TRICKY, "keys": {t: i for i, t in enumerate(TRICKY) if 0 < len(t) <= 100}, 7: "seven"}
    assert yamlio.loads(yamlio.dump_text(data)) == data


def test_the_layout_is_block_style_with_plain_words_and_quoted_text():
    text = yamlio.dump_text({"format": 1, "at": "2030-01-10T12:00:00Z", "paused": None, "houses": ["stark", "tully"],
                             "areas": {"winterfell": {"stark": ["footman", "knight"]}}, "events": [{"key": "a.b"}, []],
                             "summary": "round 2: bid", "empty": {}})
    assert text == ('format: 1\nat: "2030-01-10T12:00:00Z"\npaused: null\nhouses:\n- stark\n- tully\n'
                    'areas:\n  winterfell:\n    stark:\n    - footman\n    - knight\nevents:\n- key: a.b\n- []\n'
                    'summary: "round 2: bid"\nempty: {}\n')


def test_what_it_does_not_know_goes_to_pyyaml():
    data = {"ratio": 0.5, "nested": {"x": 1.5}}
    assert yamlio.dump_text(data) == yamlio.dumps(data)


def test_a_game_state_and_its_files_read_back_equal(tmp_path):
    judge = Judge(Store(tmp_path, fsync=False))
    judge.new_game("w", "agot1e", {h: {"address": f"{h}@example.org"} for h in ("stark", "lannister", "baratheon")},
                   seed=3)
    judge.adjudicate("w", force=True)  # planning with the defaults: a few steps, events with parameters
    files = judge.store.open("w")
    for number in files.version_numbers():
        data = files.read_version(number)
        assert yamlio.loads(yamlio.dump_text(data)) == data
    assert yamlio.loads(yamlio.dump_text(files.config())) == files.config()


# -- the reader of the judge's own files (yamlio._read_own) -------------------------------------

def _pyyaml(text):
    import yaml
    return yaml.load(text, Loader=yamlio._Loader)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.dictionaries(keys, plain, min_size=1, max_size=6))
def test_the_own_reader_reads_what_the_emitter_and_pyyaml_write_as_pyyaml_does(data):
    for text in (yamlio.dump_text(data), yamlio.dumps(data)):
        own = yamlio._read_own(text)
        if own is not yamlio._NOT_OURS:
            assert repr(own) == repr(_pyyaml(text))  # types too: 1 is not "1", True is not 1


def test_the_own_reader_leaves_every_other_yaml_to_pyyaml():
    for text in ("a:\nb: 1\n", "a:\n  - x\n", "a:\n    b: 1\n", "a: x # note\n", "a: 'q'\n", "a: |\n  x\n",
                 "a: b\n...\n", "k: v\nk: w\n", "a: yes\n", "a: 007\n", "a: 1.5\n", "a: ~\n", "a: &x 1\n",
                 "a: \"\\ud83d\\ude00\"\n", "a: 1\r\n", "a:\tb\n", "a: b", "{}\n", "- a\n", "a: b\n  c\n",
                 "2030-01-01: x\n", "a:  b\n", "a: b \n"):
        assert yamlio._read_own(text) is yamlio._NOT_OURS, text
        try:
            expected = _pyyaml(text)
        except Exception:  # noqa: BLE001  PyYAML's own error, named by loads
            continue
        assert repr(yamlio.loads(text)) == repr(expected)


def test_a_game_s_files_are_read_by_the_own_reader(tmp_path):
    judge = Judge(Store(tmp_path / "data", fsync=False))
    judge.new_game("g", "agot1e", {h: {"address": f"{h}@example.org"} for h in ("stark", "lannister", "baratheon")})
    game = tmp_path / "data" / "g"
    for path in (game / "game.yaml", game / "states" / "000001.yaml"):
        own = yamlio._read_own(path.read_bytes())
        assert own is not yamlio._NOT_OURS and repr(own) == repr(_pyyaml(path.read_bytes()))
