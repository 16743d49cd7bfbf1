"""`dicehall serve`: the app for a web browser, through textual-serve."""
from __future__ import annotations

import argparse
import sys

from dicehall.cli.args import Parser, UsageError, fail, port


def serve_arguments(parser: Parser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=port, default=8000)
    parser.add_argument("--public", action="store_true",
                        help="allow an address other than loopback (anyone who reaches it plays as you)")


def browser_command() -> str:
    """The command textual-serve starts (through the shell) per browser tab: this interpreter running
    this dicehall, with the current folder kept off the module path (-P), so a `dicehall/`, `tui/` or
    `engine/` folder where serve was started cannot stand in for it. From a checkout that is not
    installed, the checkout's folder is put first on the path instead."""
    import os
    import shlex

    import dicehall

    python = shlex.quote(sys.executable)
    root = os.path.dirname(os.path.dirname(os.path.abspath(dicehall.__file__)))  # the folder holding dicehall/
    if root in [os.path.abspath(p) for p in sys.path[1:] if p]:  # installed: found without the current folder
        return f"{python} -P -m dicehall"
    code = f"import runpy, sys; sys.path.insert(0, {root!r}); runpy.run_module('dicehall', run_name='__main__')"
    return f"{python} -P -c {shlex.quote(code)}"


def serve_command(args: argparse.Namespace) -> int:
    """One dicehall process per browser tab, run as this user. It has no authentication, so it
    listens on loopback only unless told --public."""
    import ipaddress

    host = args.host.strip()
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback and not args.public:
        raise UsageError(f"--host {host}: not a loopback address. dicehall serve has no authentication: keep it on "
                         f"127.0.0.1 and reach it with ssh -L {args.port}:127.0.0.1:{args.port} (--public overrides)")
    try:
        from textual_serve.server import Server
    except ImportError:
        return fail("dicehall serve needs the textual-serve package: pip install 'dicehall[serve]'")
    Server(browser_command(), host=host, port=args.port, title="dicehall").serve()
    return 0
