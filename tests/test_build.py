"""The engines' build: compiled by default, never a stale extension.

The loader (cardlab/_compiled.py) is checked on fake checkouts and wheels (fast, no
compiler); the end-to-end tests run the real mypyc build in build/mypyc when one is current
for this checkout, and skip saying why otherwise (`make` builds it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardlab import _compiled
from cardlab.core.build import BuildInfo, build_info

ROOT = Path(__file__).resolve().parent.parent
EXT = _compiled.EXT_SUFFIX


def _fake_checkout(tmp_path: Path, compiled: bool = True) -> Path:
    """A checkout with every hot module's .py and a current keyed build of dummy files."""
    pkg = tmp_path / "src" / "cardlab"
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    base = tmp_path / "build" / "mypyc" / "k1"
    modules = {}
    for module in _compiled.MODULES:
        src = _compiled.source_path(module, pkg)
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(f"NAME = {module!r}\n")
        ext = module.replace(".", "/") + EXT
        (base / ext).parent.mkdir(parents=True, exist_ok=True)
        (base / ext).write_bytes(b"not really an extension")
        modules[module] = {"sha256": _compiled.sha256(src), "file": ext}
    (base / f"grp__mypyc{EXT}").write_bytes(b"runtime")
    manifest = {"compiled": True, "mypyc": "9.9", "ext_suffix": EXT, "group": "grp__mypyc"}
    (base / "manifest.json").write_text(json.dumps({**manifest, "modules": modules}))
    current = {"compiled": compiled, "key": "k1", "reason": "no C compiler (test)"}
    _compiled.current_file(tmp_path).write_text(json.dumps(current))
    return pkg


def test_fresh_build_is_chosen(tmp_path: Path) -> None:
    pkg = _fake_checkout(tmp_path)
    status = _compiled.decide(pkg, forced_pure=False)
    assert status.compiled, status.reason
    assert status.mypyc == "9.9"
    assert status.files["cardlab.core.rng"] == tmp_path / f"build/mypyc/k1/cardlab/core/rng{EXT}"
    assert status.files["grp__mypyc"].name == f"grp__mypyc{EXT}"


def test_edited_source_makes_every_module_pure_and_names_it(tmp_path: Path) -> None:
    # The hazard: an edited .py must never run its stale extension.
    pkg = _fake_checkout(tmp_path)
    path = _compiled.source_path("cardlab.games.uptime.state", pkg)
    path.write_text(path.read_text() + "# edited\n")
    status = _compiled.decide(pkg, forced_pure=False)
    assert not status.compiled
    assert status.reason.startswith("stale build")
    assert "games.uptime.state" in status.reason
    assert "games.runway.state" not in status.reason


def test_pure_env_wins_over_a_fresh_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = _fake_checkout(tmp_path)
    monkeypatch.setenv("CARDLAB_PURE", "1")
    status = _compiled.decide(pkg)
    assert (status.compiled, status.reason) == (False, "CARDLAB_PURE=1 is set")
    monkeypatch.setenv("CARDLAB_PURE", "0")
    assert _compiled.decide(pkg).compiled


def test_missing_file_wrong_abi_and_recorded_reason_stay_pure(tmp_path: Path) -> None:
    pkg = _fake_checkout(tmp_path)
    base = tmp_path / "build" / "mypyc" / "k1"
    (base / f"cardlab/core/rng{EXT}").unlink()
    assert "incomplete build" in _compiled.decide(pkg, forced_pure=False).reason
    manifest = json.loads((base / "manifest.json").read_text())
    (base / "manifest.json").write_text(json.dumps({**manifest, "ext_suffix": ".other.so"}))
    assert "compiled for .other.so" in _compiled.decide(pkg, forced_pure=False).reason
    other = tmp_path / "other"
    pkg = _fake_checkout(other, compiled=False)
    assert _compiled.decide(pkg, forced_pure=False).reason == "no C compiler (test)"


def test_no_build_yet_and_copied_trees(tmp_path: Path) -> None:
    pkg = _fake_checkout(tmp_path)
    _compiled.current_file(tmp_path).unlink()
    assert "not compiled yet" in _compiled.decide(pkg, forced_pure=False).reason
    (tmp_path / "pyproject.toml").unlink()  # build/mypyc/work/src: a copy, not a checkout
    assert _compiled.decide(pkg, forced_pure=True).reason.startswith("a copied tree")


def test_pure_finder_loads_the_py_even_beside_an_extension(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A wheel holds rng.<abi>.so beside rng.py; CARDLAB_PURE=1 must still load the .py.
    pkg = tmp_path / "site" / "cardlab"
    for module in _compiled.MODULES:
        src = _compiled.source_path(module, pkg)
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(f"NAME = {module!r}\n")
        src.with_suffix(EXT).write_bytes(b"a stray extension")
    (pkg / _compiled.WHEEL_MANIFEST).write_text(json.dumps({"compiled": True}))
    monkeypatch.setenv("CARDLAB_PURE", "1")
    monkeypatch.setattr(_compiled, "STATUS", None)
    before = list(sys.meta_path)
    try:
        status = _compiled.install(pkg)
        assert not status.compiled
        finder = sys.meta_path[0]
        spec = finder.find_spec("cardlab.core.rng", None)
        assert spec is not None and spec.origin == str(pkg / "core" / "rng.py")
        assert finder.find_spec("cardlab.core.game", None) is None  # not a hot module
    finally:
        sys.meta_path[:] = before


def test_stale_warning_is_given_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = _fake_checkout(tmp_path)
    path = _compiled.source_path("cardlab.core.rng", pkg)
    path.write_text("# edited\n")
    monkeypatch.delenv("CARDLAB_PURE", raising=False)
    monkeypatch.setattr(_compiled, "STATUS", None)
    before = list(sys.meta_path)
    try:
        with pytest.warns(_compiled.StaleBuildWarning, match="`make`.*rebuilds"):
            _compiled.install(pkg)
        assert sys.meta_path[0].find_spec("cardlab.core.rng", None).origin == str(path)
    finally:
        sys.meta_path[:] = before


def test_build_info_text() -> None:
    assert BuildInfo(("a",), (), "2.4", "x").text() == "compiled (mypyc 2.4, 1 modules)"
    assert BuildInfo((), ("a",), None, "why").text() == "pure Python (why)"
    info = build_info()  # this process: whichever build the test run uses
    assert len(info.compiled_modules) + len(info.pure_modules) == len(_compiled.MODULES)


# End to end on the real build -------------------------------------------------------------

CURRENT = _compiled.current_file(ROOT)


def _current_build() -> Path | None:
    data = json.loads(CURRENT.read_text()) if CURRENT.is_file() else {}
    if not data.get("compiled"):
        return None
    return _compiled.cache_dir(ROOT) / str(data["key"])


needs_build = pytest.mark.skipif(
    _current_build() is None or _compiled.decide(forced_pure=False).reason.startswith("stale"),
    reason="no current compiled build for this checkout (`make compiled` builds it)",
)

PROBE = (
    "import warnings, cardlab.core.rng as r, cardlab.games.uptime.state as s\n"
    "from cardlab.core.build import build_info\n"
    "print(r.__file__); print(s.__file__); print(build_info().text())\n"
)


def _probe(pythonpath: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "CARDLAB_PURE"}
    full.update(env, PYTHONPATH=str(pythonpath))
    return subprocess.run(
        [sys.executable, "-c", PROBE], env=full, capture_output=True, text=True, check=True
    )


@needs_build
def test_checkout_runs_compiled_and_pure_on_request() -> None:
    compiled = _probe(ROOT / "src").stdout.splitlines()
    assert compiled[0].endswith(EXT) and "build/mypyc" in compiled[0]
    assert compiled[2].startswith("compiled (mypyc ")
    pure = _probe(ROOT / "src", CARDLAB_PURE="1").stdout.splitlines()
    assert pure[0] == str(ROOT / "src/cardlab/core/rng.py")
    assert pure[2] == "pure Python (CARDLAB_PURE=1 is set)"


@needs_build
def test_editing_a_source_falls_back_with_one_warning(tmp_path: Path) -> None:
    # A copy of the checkout sharing the real build/mypyc: same sources load compiled,
    # one edited engine module sends every hot module back to Python, with a warning.
    shutil.copytree(
        ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "mypyc").symlink_to(_compiled.cache_dir(ROOT))
    same = _probe(tmp_path / "src")
    assert same.stdout.splitlines()[1].endswith(EXT), same.stdout
    state = tmp_path / "src/cardlab/games/uptime/state.py"
    state.write_text(state.read_text() + "\n# an edit after the build\n")
    edited = _probe(tmp_path / "src")
    lines = edited.stdout.splitlines()
    assert lines[0] == str(tmp_path / "src/cardlab/core/rng.py")  # all together
    assert lines[1] == str(state)
    assert lines[2].startswith("pure Python (stale build") and "games.uptime.state" in lines[2]
    assert edited.stderr.count("StaleBuildWarning") == 1
    assert "`make`" in edited.stderr


def test_version_names_the_build() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardlab.cli", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("cardlab ")
    assert "engines compiled (mypyc " in done.stdout or "engines pure Python (" in done.stdout
