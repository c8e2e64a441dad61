"""The table client's pure functions (web/static/lib/, ES modules) under Node's own test
runner: `node --test tests/js/` imports the modules directly, with no browser. Here so
the suite runs them too; the pages load the same files as modules, so they are also
served with a JavaScript MIME type (a browser refuses a module script of any other)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "src" / "cardlab" / "web" / "static" / "lib"
JS_TESTS = ROOT / "tests" / "js"


def test_the_client_units_pass_under_node():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH: the client's unit tests (tests/js/) need Node 20+")
    assert sorted(JS_TESTS.glob("*.test.mjs")), "no tests in tests/js/"
    done = subprocess.run(
        [node, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    report = done.stdout[-6000:] + done.stderr[-3000:]
    assert done.returncode == 0, f"node --test tests/js/ failed:\n{report}"
    assert "# fail 0" in done.stdout and "# pass 0\n" not in done.stdout, report


def test_the_lib_modules_are_served_as_javascript(client):
    modules = sorted(LIB.glob("*.js"))
    assert any(m.name == "boot.js" for m in modules)
    for module in modules:
        resp = client.get(f"/static/lib/{module.name}")
        assert resp.status_code == 200, module.name
        kind = resp.headers["content-type"].split(";")[0].strip()
        assert kind in {"text/javascript", "application/javascript"}, (module.name, kind)
        assert resp.headers["x-content-type-options"] == "nosniff"
    csp = client.get("/").headers["content-security-policy"]
    assert "script-src 'self'" in csp  # a module from this origin may run
