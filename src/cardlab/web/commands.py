"""`cardlab serve`: the browser table."""

from __future__ import annotations

from typing import Annotated

import typer

from cardlab.web.limits import Limits


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
        db: Annotated[
            str, typer.Option(help="SQLite database of tables (created if missing).")
        ] = "cardlab.db",
        bot_delay: Annotated[
            float, typer.Option(help="Seconds a bot waits before moving, so humans can follow.")
        ] = 0.8,
        allow_origin: Annotated[
            list[str] | None,
            typer.Option(help="Extra page origin allowed to open table sockets (repeatable)."),
        ] = None,
        reports: Annotated[
            str | None,
            typer.Option(help="Playtest reports directory (default: reports/ next to --db)."),
        ] = None,
        cards: Annotated[
            list[str] | None,
            typer.Option(
                help="Card file for tables (GAME=PATH, or PATH for the game it fits; repeatable)."
            ),
        ] = None,
        variant: Annotated[
            list[str] | None,
            typer.Option(help="Variant file offered by name in the lobby (repeatable)."),
        ] = None,
        max_bot_iterations: Annotated[
            int, typer.Option(help="Strongest bot a table may have (ISMCTS iterations).")
        ] = Limits.max_bot_iterations,
        tables_per_client: Annotated[
            int, typer.Option(help="Unfinished tables one client address may have.")
        ] = Limits.tables_per_client,
        max_tables: Annotated[
            int, typer.Option(help="Unfinished tables on the whole server.")
        ] = Limits.max_tables,
        creates_per_minute: Annotated[
            float, typer.Option(help="New tables per client address per minute.")
        ] = Limits.creates_per_minute,
        spectators_per_table: Annotated[
            int, typer.Option(help="Spectator sockets at one table.")
        ] = Limits.spectators_per_table,
        frames_per_second: Annotated[
            float, typer.Option(help="Frames one socket is sent per second at most.")
        ] = Limits.frames_per_second,
        bot_workers: Annotated[
            int, typer.Option(help="Processes in which searching bots (ISMCTS) think.")
        ] = Limits.bot_workers,
        allowed_host: Annotated[
            list[str] | None,
            typer.Option(
                help="Extra name this server answers to (Host header; repeatable). Default: the "
                "bound address and localhost names; bound to 0.0.0.0/:: also this machine's "
                "host name and any IP address."
            ),
        ] = None,
        idle_before_first_move: Annotated[
            float,
            typer.Option(
                help="Seconds a table may have nobody connected before any human has moved; "
                "then it is closed as abandoned."
            ),
        ] = Limits.idle_before_first_move,
        idle_after_first_move: Annotated[
            float,
            typer.Option(help="The same once a human has moved (default 24 h)."),
        ] = Limits.idle_after_first_move,
        trusted_proxy: Annotated[
            list[str] | None,
            typer.Option(
                help="Address (IP or network) of your reverse proxy (repeatable): from that "
                "peer only, the client is the address X-Forwarded-For names, for every "
                "per-client limit and cap; default: none, the peer is the client."
            ),
        ] = None,
        forwarded_allow_ips: Annotated[
            str,
            typer.Option(
                help="The same as --trusted-proxy, comma-separated (IPs, networks, or *)."
            ),
        ] = "",
        sockets_per_client: Annotated[
            int, typer.Option(help="Table sockets one client address may have open at once.")
        ] = Limits.sockets_per_client,
        operator_token: Annotated[
            str | None,
            typer.Option(
                envvar="CARDLAB_OPERATOR_TOKEN",
                help="The operator token that starts playtest runs (default: a fresh one, "
                "printed at start).",
            ),
        ] = None,
        keep_alive_timeout: Annotated[
            int, typer.Option(help="Seconds an idle keep-alive HTTP connection stays open.")
        ] = Limits.keep_alive_timeout,
        request_timeout: Annotated[
            float,
            typer.Option(help="Seconds a client has to send a whole HTTP request (slowloris)."),
        ] = Limits.request_timeout,
        report_settings: Annotated[
            str | None,
            typer.Option(
                help="`cardlab report` flags of a lobby playtest run, e.g. "
                "'--games 300 --ladder-games 10' (default: quick settings, see docs/web.md)."
            ),
        ] = None,
    ) -> None:
        """Serve the lobby and tables: play in the browser with friends and bots."""
        import uvicorn

        from cardlab.core.errors import CardlabError
        from cardlab.web.app import create_app
        from cardlab.web.gate import AllowedHosts
        from cardlab.web.guards import install_log_budget, uvicorn_options
        from cardlab.web.reports import parse_settings
        from cardlab.web.security import HARD_FRAME_LIMIT

        limits = Limits(
            max_bot_iterations=max_bot_iterations,
            tables_per_client=tables_per_client,
            max_tables=max_tables,
            creates_per_minute=creates_per_minute,
            spectators_per_table=spectators_per_table,
            sockets_per_client=sockets_per_client,
            frames_per_second=frames_per_second,
            bot_workers=bot_workers,
            idle_before_first_move=idle_before_first_move,
            idle_after_first_move=idle_after_first_move,
        )
        if sockets_per_client < 1:
            typer.echo("error: --sockets-per-client must be at least 1", err=True)
            raise typer.Exit(2)
        if min(idle_before_first_move, idle_after_first_move) <= 0:
            typer.echo("error: --idle-before/after-first-move must be above 0 seconds", err=True)
            raise typer.Exit(2)
        try:
            guards = uvicorn_options(request_timeout, keep_alive_timeout)
        except ValueError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        try:
            hosts = AllowedHosts.for_bind(host, allowed_host or ())
        except ValueError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        try:
            settings = parse_settings(report_settings)
            app_ = create_app(
                db=db,
                bot_delay=bot_delay,
                allowed_origins=tuple(allow_origin or ()),
                reports_dir=reports,
                report_settings=settings,
                limits=limits,
                cards=tuple(cards or ()),
                variants=tuple(variant or ()),
                allowed_hosts=hosts,
                operator_token=operator_token,
                log_budget=True,
                forwarded_allow_ips=",".join(
                    p for p in (forwarded_allow_ips, *(trusted_proxy or ())) if p.strip()
                ),
            )
        except (CardlabError, ValueError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"cardlab table: http://{host}:{port}/  (database {db})")
        if operator_token is None:
            # Printed once: the operator's link (the token rides in the fragment, which
            # the browser never sends; the lobby keeps it for this tab).
            token = app_.state.operator_token
            typer.echo(f"operator link (playtest runs): http://{host}:{port}/#operator={token}")
        install_log_budget()
        # No permessage-deflate: compressing every ~10 KB frame cost more server time than
        # anything else per update (benchmarks/web_tables.py); frames stay small enough raw.
        uvicorn.run(
            app_,
            host=host,
            port=port,
            ws_max_size=HARD_FRAME_LIMIT,
            ws_per_message_deflate=False,
            log_level="info",
            **guards,
        )
