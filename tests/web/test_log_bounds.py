"""Logs bounded from every logger, and an accept loop that backs off at the
file-descriptor limit: a unit test of the loop against a socket that always says
EMFILE, the budget on asyncio's logger and on every handler, and `cardlab serve`
itself in a subprocess with a low RLIMIT_NOFILE, flooded with connections."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardlab.web import guards
from cardlab.web.guards import GuardedLoop, LogBudget, install_log_budget


class FullSocket:
    """A listening socket of a process out of file descriptors."""

    def __init__(self) -> None:
        self.accepts = 0

    def accept(self):
        self.accepts += 1
        raise OSError(errno.EMFILE, "Too many open files")

    def fileno(self) -> int:
        return 10_000


def test_the_accept_loop_stops_at_the_first_emfile_and_backs_off(caplog):
    loop = GuardedLoop()
    try:
        sock = FullSocket()
        with caplog.at_level(logging.WARNING, logger="cardlab.web"):
            loop._accept_connection(lambda: None, sock, backlog=100)
        assert sock.accepts == 1, "one accept, not backlog-many"
        lines = [r for r in caplog.records if "cannot accept connections" in r.getMessage()]
        assert len(lines) == 1 and lines[0].exc_info is None
        assert len(loop._scheduled) == 1, "one restart scheduled"
        pauses = [loop._accept_pause]
        for _ in range(8):
            loop._accept_connection(lambda: None, sock, backlog=100)
            pauses.append(loop._accept_pause)
        first, longest = guards.ACCEPT_PAUSE
        assert pauses[0] == first and pauses[1] == 2 * first and pauses[-1] == longest
    finally:
        loop.close()


def test_stock_asyncio_spins_where_ours_does_not():
    """Why GuardedLoop exists: the stock loop keeps accepting after EMFILE."""
    loop = asyncio.SelectorEventLoop()
    loop.set_exception_handler(lambda *_: None)
    try:
        sock = FullSocket()
        loop._accept_connection(lambda: None, sock, backlog=100)
    finally:
        loop.close()
    if sock.accepts == 1:
        pytest.skip("this Python's asyncio already stops at the first EMFILE")
    assert sock.accepts == 100


def test_asyncios_logger_and_every_handler_have_a_budget():
    install_log_budget(handlers=True)
    assert any(isinstance(f, LogBudget) for f in logging.getLogger("asyncio").filters)
    assert logging.lastResort is not None
    assert any(isinstance(f, LogBudget) for f in logging.lastResort.filters)
    budget = LogBudget(per_minute=1, burst=5)
    lines = [
        logging.LogRecord(
            "asyncio",
            logging.ERROR,
            "",
            0,
            f"socket.accept() out of system resource\nfd {i}",
            (),
            None,
        )
        for i in range(100)
    ]
    assert sum(budget.filter(r) for r in lines) == 5, "one template whatever follows its first line"


SERVE = """
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
sys.argv = ["cardlab", *sys.argv[2:]]
from cardlab.cli import app
app()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_NOFILE on Linux")
def test_serve_at_the_descriptor_limit_writes_a_bounded_log(tmp_path: Path):
    port = free_port()
    log_path = tmp_path / "serve.log"
    env = {**os.environ, "CARDLAB_PURE": "1"}
    with log_path.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                SERVE,
                "64",
                "serve",
                "--db",
                str(tmp_path / "t.db"),
                "--port",
                str(port),
                "--operator-token",
                "x" * 24,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
        held: list[socket.socket] = []
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.2)
            else:
                pytest.fail(log_path.read_text())
            for _ in range(120):  # past the limit: the rest wait in the backlog
                held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            time.sleep(3.0)
            with socket.create_connection(("127.0.0.1", port), timeout=5) as probe:
                probe.settimeout(0.5)
                with pytest.raises((TimeoutError, OSError)):
                    probe.recv(1)  # the server lives (no crash), just not accepting yet
            assert proc.poll() is None, log_path.read_text()
        finally:
            for s in held:
                s.close()
            proc.terminate()
            proc.wait(20)
    text = log_path.read_text(errors="replace")
    lines = text.splitlines()
    assert "cannot accept connections" in text, text[-2000:]
    assert "Traceback" not in text, text[-2000:]
    assert len(lines) < 100, f"{len(lines)} lines in 3 s at the limit"
