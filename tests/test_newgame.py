"""`cardlab new-game` scaffolds a working game: it imports without installing,
registers by its GameInfo, passes the conformance check at every player count,
plays through the registry, is lint-clean, and its own tests pass."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardlab
from cardlab.cli import app
from cardlab.core.errors import CardlabError
from cardlab.games import register_game, unregister_game
from cardlab.newgame import import_scaffold, scaffold
from cardlab.testing import check_game


@pytest.fixture
def made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    result = CliRunner().invoke(app, ["new-game", "nebula", "--out", str(tmp_path / "nebula")])
    assert result.exit_code == 0, result.output
    monkeypatch.syspath_prepend(str(tmp_path / "nebula" / "src"))
    info = import_scaffold(tmp_path / "nebula")
    register_game(info)
    yield tmp_path / "nebula", info
    unregister_game("nebula")
    for name in [m for m in sys.modules if m == "nebula" or m.startswith("nebula.")]:
        del sys.modules[name]


def test_the_layout_and_the_entry_point(made) -> None:
    root, info = made
    package = root / "src" / "nebula"
    for module in ("rules", "actions", "state", "view", "resample", "scoring", "cards",
                   "render", "scenarios"):  # fmt: skip
        assert (package / f"{module}.py").exists(), module
    assert (package / "cards.toml").exists() and (package / "rules.md").exists()
    pyproject = (root / "pyproject.toml").read_text()
    assert '[project.entry-points."cardlab.games"]\nnebula = "nebula.rules:GAME_INFO"' in pyproject
    assert (info.name, info.title, info.package) == ("nebula", "NEBULA", "nebula")


def test_the_scaffold_passes_check_game_at_every_player_count(made) -> None:
    report = check_game("nebula", games=3)
    assert report.players == [2, 3, 4]
    assert {"labels", "hidden_cards", "resample", "bounds", "narrative"} <= set(report.checked)
    assert report.skipped == {}


def test_the_scaffold_plays_through_the_registry_with_options(made) -> None:
    game = cardlab.load_game("nebula", players=2, double_last=True)
    result = cardlab.play_game(game, [cardlab.make_agent("greedy", seed=s) for s in (0, 1)], 3)
    assert len(result.history) == game.max_game_length()
    low, high = game.utility_bounds()
    assert all(low <= r <= high for r in result.returns)
    assert cardlab.games.render_module("nebula").render_final  # the terminal's hook
    # no art.py: the plain card face from the card file
    from cardlab.art import game_art

    faces = game_art("nebula").faces(game.cards, game.options)
    assert [f.id for f in faces] == [c.id for c in game.cards.cards]


def test_the_scaffold_follows_the_core_engine_pattern(made) -> None:
    """Moves and log as persistent trails, card columns shared by clones, as the three
    designs' engines (tests/test_clone_slots.py checks every slot of every clone)."""
    from cardlab.core.columns import CardColumns
    from cardlab.core.trail import Trail
    from cardlab.testing.clones import check_clone_slots

    state = cardlab.load_game("nebula", players=3).new_initial_state(1)
    state.apply_action(state.legal_actions()[0])
    assert isinstance(state.columns, CardColumns)
    assert isinstance(state.actions, Trail) and isinstance(state.log, Trail)
    clone = state.clone()
    assert clone.columns is state.columns and clone.log is state.log
    assert check_clone_slots(state) > 0
    clone.apply_action(clone.legal_actions()[0])
    assert len(clone.actions) == len(state.actions) + 1 == 2


def test_the_scaffolds_lever_works_everywhere(made, tmp_path: Path) -> None:  # R7
    """The template declares one rule lever (`round_bonus`, 0 as written): it is taken
    from -o, a variant and the table's catalog, listed by `cardlab games` and
    `cardlab tune --list`, and at its default the game plays exactly as written."""
    from cardlab.core.variants import VariantError, load_variant
    from cardlab.web.catalog import Catalog

    _, info = made
    plain = cardlab.load_game("nebula", players=3)
    bonus = cardlab.load_game("nebula", players=3, round_bonus="5")  # as -o gives it
    assert plain.options["round_bonus"] == 0 and bonus.options["round_bonus"] == 5

    def bots() -> list:  # type: ignore[type-arg]
        return [cardlab.make_agent("random", seed=s) for s in range(3)]

    a = cardlab.play_game(plain, bots(), 4)
    b = cardlab.play_game(cardlab.load_game("nebula", players=3, round_bonus=0), bots(), 4)
    assert a.history == b.history and a.returns == b.returns
    variant = tmp_path / "v.toml"
    variant.write_text('game = "nebula"\n[options]\nround_bonus = 3\n')
    assert cardlab.load_game("nebula", variant=variant).options["round_bonus"] == 3
    variant.write_text('game = "nebula"\n[options]\nround_bonus = 9\n')
    with pytest.raises(VariantError) as err:
        load_variant(variant, info)
    assert all(w in str(err.value) for w in ("v.toml", "round_bonus", "from 0 to 5"))
    (entry,) = [o for o in Catalog().describe("nebula")["options"] if o["name"] == "round_bonus"]
    assert entry["lever"] is True and (entry["low"], entry["high"]) == (0, 5)
    assert entry["passage"].startswith("R2") and entry["purpose"] and entry["default"] == 0
    listed = CliRunner().invoke(app, ["games"]).output
    assert "round_bonus = 0..5 (grid 0|1|2), default 0" in listed
    tunables = CliRunner().invoke(app, ["tune", "nebula", "--list"]).output
    assert "round_bonus = 0..5  default 0  (Optuna int)" in tunables


def test_the_scaffold_says_how_to_install_next_to_cardlab(made) -> None:
    """`pip install -e .` alone fails in a fresh venv (no index has
    cardlab); the README, the pyproject and the command say to install cardlab from
    this checkout (or a wheel built from it) first. The steps were run for real in a
    fresh venv (docs/plugins.md, "Install")."""
    from cardlab.newgame import cardlab_source

    root, _ = made
    here = str(Path(cardlab.__file__).resolve().parents[2])
    assert cardlab_source() == here  # the tests run from a checkout
    readme = (root / "README.md").read_text()
    steps = [f"pip install -e {here}", 'pip install -e ".[test]"', "pytest"]
    assert all(step in readme for step in steps)
    assert readme.index(steps[0]) < readme.index(steps[1])  # cardlab first
    assert f"pip wheel --no-deps -w wheels {here}" in readme and "--find-links wheels" in readme
    pyproject = (root / "pyproject.toml").read_text()
    assert f"#   pip install -e {here}\n" in pyproject and 'dependencies = ["cardlab"]' in pyproject
    assert "{{" not in readme + pyproject
    tests = (root / "tests" / "test_nebula.py").read_text()
    assert "check_game(NebulaGame(players)" in tests  # the suite runs the conformance check
    out = CliRunner().invoke(app, ["new-game", "vega", "--out", str(root.parent / "vega")]).output
    assert f"pip install -e {here}" in out and "cardlab check vega" in out


def test_a_bad_card_file_names_file_card_and_field(made, tmp_path: Path) -> None:
    root, _ = made
    bad = tmp_path / "bad.toml"
    text = (root / "src" / "nebula" / "cards.toml").read_text()
    bad.write_text(text.replace('id = "tc03"', 'id = "tc3"'))
    with pytest.raises(CardlabError, match=r"bad\.toml.*id"):
        cardlab.load_game("nebula", players=2, cards=bad)


def test_the_scaffold_is_lint_clean(made) -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed")
    root, _ = made
    for args in (["check", "."], ["format", "--check", "."]):
        done = subprocess.run([ruff, *args], cwd=root, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_scaffolds_own_tests_pass(made) -> None:
    root, _ = made
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=root, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), *sys.path])},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "24 passed" in done.stdout


@pytest.mark.parametrize("name", ["Nebula", "9lives", "class", "x", "a-b"])
def test_bad_names_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(CardlabError, match="game name"):
        scaffold(name, tmp_path / "out")


def test_a_non_empty_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(CardlabError, match="not empty"):
        scaffold("nebula", tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_a_game_without_art_prints_plain_faces(made, tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    from pypdf import PdfReader

    from cardlab.printing import print_game

    pdf = print_game("nebula", out=tmp_path / "nebula.pdf")
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "NEBULA" in text and "face sheet 1 of 2" in text


@pytest.mark.slow  # a report: its pages (matplotlib) are most of it
def test_a_game_without_claims_gets_a_report_without_claims(made, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from cardlab.lab.claims import claims_for
    from cardlab.lab.gate import all_games
    from cardlab.lab.reporting import write_report

    assert claims_for("nebula") == [] and "nebula" not in all_games()
    report = write_report(
        "nebula", tmp_path / "report", workers=1, progress=False, games=20, side_games=10,
        ladder_games=4, ladder_iterations=20, probe_games=10, ablation_games=4,
    )  # fmt: skip
    assert report["claims"] == [] and report["games_played"] > 0
    assert (tmp_path / "report" / "report.html").exists()


def test_cardlab_check_reports_a_pass_and_a_failure(made, monkeypatch: pytest.MonkeyPatch) -> None:
    ok = CliRunner().invoke(app, ["check", "nebula", "--games", "1"])
    assert ok.exit_code == 0 and "nebula: passes at 2, 3, 4 players" in ok.output
    state_cls = type(cardlab.load_game("nebula", players=2).new_initial_state(0))
    monkeypatch.setattr(state_cls, "action_to_string", lambda self, action: "same")
    bad = CliRunner().invoke(app, ["check", "nebula", "--games", "1"])
    assert bad.exit_code == 1 and "FAILS" in bad.output and "share labels" in bad.output


@pytest.mark.slow  # a gate and a report: their pages (matplotlib) are most of it
def test_a_game_with_only_the_required_parts_passes_check_gate_report_tune_and_table(
    tmp_path: Path,
) -> None:
    """A plugin with only rules.py, actions, state, view, resample,
    scoring and its card file (no rules document, view script, render, encoding,
    scenarios, claims, art or personas) passes `check`, `gate`, `report` and `tune`
    (each kept small) and plays a whole game at the browser table."""
    import json

    from starlette.testclient import TestClient

    from cardlab.web.app import create_app

    sys.path.insert(0, str(Path(__file__).parent))
    from plugin_support import MINIMAL_DROPS, plugin

    with plugin(tmp_path, "bareminimum", minimal=True) as info:
        package = info.package_dir()
        assert not any((package / f).exists() for f in (*MINIMAL_DROPS, "rules.md", "web"))
        assert info.asset("rulebook") is None and info.module("claims") is None
        small = ["--workers", "1", "--quiet"]
        commands = {
            "check": ["check", "bareminimum", "--games", "2", "--explore", "0.3"],
            "gate": ["gate", "bareminimum", "--out", str(tmp_path / "gate"), "--games", "20",
                     "--ladder-games", "2", "--ladder-iterations", "10", "--probe-games", "5",
                     "--ablation-games", "0", *small],
            "report": ["report", "bareminimum", "--out", str(tmp_path / "report"), "--games",
                       "20", "--side-games", "10", "--ladder-games", "2", "--ladder-iterations",
                       "10", "--probe-games", "5", "--ablation-games", "0", *small],
            "tune": ["tune", "bareminimum", "--players", "2", "--trials", "2", "--games", "8",
                     "--workers", "1", "--out", str(tmp_path / "tune"), "--confirm-games", "8",
                     "--check-games", "8"],
        }  # fmt: skip
        said = {}
        for what, args in commands.items():
            done = CliRunner().invoke(app, args)
            assert done.exit_code == 0, (what, done.output[-1500:], done.exception)
            said[what] = done.output
        assert "bareminimum: passes at 2, 3, 4 players" in said["check"]
        # no claims, yet the gate has its say: the experience verdict, and the budget given
        assert "world-class gate: bareminimum" in said["gate"]
        assert "nothing to judge" not in said["gate"]
        assert "budget 600 s given, not used: --ladder-games plays exactly" in said["gate"]
        assert (tmp_path / "gate" / "bareminimum" / "report.json").exists()
        assert json.loads((tmp_path / "report" / "report.json").read_text())["claims"] == []
        assert json.loads((tmp_path / "tune" / "tune.json").read_text())
        with TestClient(
            create_app(db=tmp_path / "t.db", bot_delay=0, allowed_hosts=("testserver",))
        ) as client:
            origin = {"origin": "http://testserver"}
            assert client.get("/games/bareminimum/view.js").status_code == 200
            made = client.post(
                "/api/tables",
                json={"game": "bareminimum", "players": 2,
                      "seats": [{"kind": "human"}, {"kind": "bot", "agent": "greedy"}]},
                headers=origin,
            ).json()  # fmt: skip
            with client.websocket_connect(f"/ws/{made['table']}", headers=origin) as ws:
                ws.send_text(
                    json.dumps({"type": "hello", "seat": 0, "token": made["tokens"]["seat0"]})
                )
                view: dict = {"terminal": False, "legal": [], "seq": -1}
                while not view["terminal"]:
                    frame = json.loads(ws.receive_text())
                    assert frame["type"] != "error", frame
                    if frame["type"] != "state" or frame["seq"] <= view["seq"]:
                        continue
                    view = frame
                    if view["legal"] and not view["terminal"]:
                        act = {
                            "type": "act",
                            "action": view["legal"][0]["action"],
                            "seq": view["seq"],
                        }
                        ws.send_text(json.dumps(act))
            assert view["final"]["winners"] and len(view["final"]["returns"]) == 2


@pytest.mark.slow  # the report's pages are most of it (matplotlib): 10-40 s here
def test_a_fresh_scaffold_goes_through_new_game_check_play_report_and_print(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a designer does first, by the commands they type, on a game made just now:
    the lowest-wins scaffold (penalty points), so the direction is dogfooded too."""
    import json

    pytest.importorskip("cairosvg")
    from pypdf import PdfReader

    root = tmp_path / "fresh"
    made = CliRunner().invoke(app, ["new-game", "fresh", "--out", str(root), "--lowest-wins"])
    assert made.exit_code == 0, made.output
    monkeypatch.syspath_prepend(str(root / "src"))
    register_game(import_scaffold(root))
    try:
        runs = {
            "check": (["check", "fresh", "--games", "1", "--explore", "0.2"], None),
            "play": (["play", "fresh", "--players", "2", "--seed", "3", "--bots", "random"],
                     "1\n" * 20),
            "report": (["report", "fresh", "--out", str(tmp_path / "report"), "--players", "3",
                        "--games", "16", "--side-games", "4", "--ladder-games", "0",
                        "--probe-games", "4", "--ablation-games", "0", "--kingmaking-games",
                        "2", "--workers", "1", "--quiet"], None),
            "print": (["print", "fresh", "--out", str(tmp_path / "fresh.pdf")], None),
        }  # fmt: skip
        said = {}
        for what, (args, typed) in runs.items():
            done = CliRunner().invoke(app, args, input=typed)
            assert done.exit_code == 0, (what, done.output[-1500:], done.exception)
            said[what] = done.output
        assert "fresh: passes at 2, 3, 4 players" in said["check"]
        assert "Winner" in said["play"] and "Fewest points win." in said["play"]
        report = json.loads((tmp_path / "report" / "report.json").read_text())
        assert report["claims"] == [] and report["strategy"]["score_direction"] == "lowest"
        for page in ("summary.md", "report.html"):  # the direction is said where people read
            assert "Fewest points win" in (tmp_path / "report" / page).read_text("utf-8")
        text = "".join(page.extract_text() for page in PdfReader(tmp_path / "fresh.pdf").pages)
        assert "Card 15" in text and "tc15" in text and "value" in text  # the plain face
    finally:
        unregister_game("fresh")
        for name in [m for m in sys.modules if m == "fresh" or m.startswith("fresh.")]:
            del sys.modules[name]


def test_the_art_example_in_the_print_docs_draws_a_plugins_cards(made, tmp_path: Path) -> None:
    """docs/print.md's `art.py` for a plugin works as written: dropped into the scaffold,
    it draws the faces of the browser table and the PDF."""
    pytest.importorskip("cairosvg")
    import re

    from cardlab.art import game_art

    root, info = made
    docs = (Path(cardlab.__file__).parents[2] / "docs" / "print.md").read_text("utf-8")
    (example,) = re.findall(r'```python\n("""mygame.*?)```', docs, re.S)
    (root / "src" / "nebula" / "art.py").write_text(example.replace("mygame", "nebula"))
    art = game_art("nebula")
    assert art.__name__ == "nebula.art"
    faces = art.faces(cardlab.load_game("nebula", players=2).cards)
    svg = art.card_svg(faces[5])
    assert svg.startswith("<svg") and ">5<" in svg and faces[5].name in svg
