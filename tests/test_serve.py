"""`dicehall serve`: the app for a browser through textual-serve, on loopback only unless --public."""
from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dicehall.cli import main

ROOT = Path(__file__).parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_refuses_an_address_other_than_loopback_without_public(capsys):
    with pytest.raises(SystemExit) as leaving:  # a usage error: one line and the usage, exit 2
        main(["serve", "--host", "0.0.0.0"])
    assert leaving.value.code == 2
    error = capsys.readouterr().err
    assert "no authentication" in error and "ssh -L 8000:127.0.0.1:8000" in error


def test_serve_answers_the_page_and_starts_the_app_on_a_loopback_port(tmp_path):
    import aiohttp  # installed with textual-serve (the test extra)

    port = free_port()
    env = dict(os.environ, DICEHALL_HALL=str(tmp_path / "hall"))
    server = subprocess.Popen([sys.executable, "-m", "dicehall", "serve", "--port", str(port)], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)

    async def visit() -> tuple[int, str, str]:
        deadline = time.monotonic() + 20
        async with aiohttp.ClientSession() as client:
            while True:  # the server takes a moment to listen
                try:
                    async with client.get(f"http://127.0.0.1:{port}/") as response:
                        status, page = response.status, await response.text()
                        break
                except aiohttp.ClientConnectionError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise
                    await asyncio.sleep(0.2)
            seen = ""
            async with client.ws_connect(f"ws://127.0.0.1:{port}/ws?width=80&height=24") as ws:
                await ws.send_json(["resize", {"width": 80, "height": 24}])
                while "dicehall" not in seen and time.monotonic() < deadline:
                    try:
                        message = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
                    except asyncio.TimeoutError:
                        break
                    if message.type == aiohttp.WSMsgType.BINARY:
                        seen += message.data.decode("utf-8", "replace")
                    elif message.type == aiohttp.WSMsgType.TEXT:
                        seen += message.data
                    else:
                        break
            return status, page, seen

    try:
        status, page, seen = asyncio.run(asyncio.wait_for(visit(), 30))
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the server and the app it started, which this test made
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(5)
    assert status == 200 and "dicehall" in page
    assert "dicehall" in seen  # the launcher's first frame reached the browser's socket


def test_the_footer_shows_its_keys_in_a_browser_page_that_has_no_focus(tmp_path):
    # textual-serve's driver blurs the app as it starts, and the page says "focus" only once it is
    # clicked; Textual's Footer does not follow the keys while the app is blurred, so it stayed blank
    import aiohttp

    port = free_port()
    env = dict(os.environ, DICEHALL_HALL=str(tmp_path / "hall"), DICEHALL_HOME=str(tmp_path / "home"))
    server = subprocess.Popen([sys.executable, "-m", "dicehall", "serve", "--port", str(port)], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)

    async def visit() -> str:
        deadline = time.monotonic() + 25
        async with aiohttp.ClientSession() as client:
            while True:
                try:
                    async with client.ws_connect(f"ws://127.0.0.1:{port}/ws?width=80&height=24") as ws:
                        await ws.send_json(["resize", {"width": 80, "height": 24}])  # and never ["focus"]
                        seen = ""
                        while "Open replay" not in seen and time.monotonic() < deadline:
                            try:
                                message = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
                            except asyncio.TimeoutError:
                                break
                            if message.type == aiohttp.WSMsgType.BINARY:
                                seen += message.data.decode("utf-8", "replace")
                            elif message.type == aiohttp.WSMsgType.TEXT:
                                seen += message.data
                            else:
                                break
                        return seen
                except aiohttp.ClientConnectionError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise
                    await asyncio.sleep(0.2)

    try:
        seen = asyncio.run(asyncio.wait_for(visit(), 60))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(5)
    assert "dicehall" in seen  # the launcher is drawn
    assert "Open replay" in seen and "Continue" in seen  # and its footer's keys, with no focus given


def test_the_command_serve_starts_is_not_shadowed_by_folders_where_it_runs(tmp_path):
    # textual-serve runs the command through the shell, in the folder serve was started from: a
    # dicehall/ or tui/ folder there must not stand in for the real ones
    from dicehall.cli.serve import browser_command

    for package in ("dicehall", "tui", "engine"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("raise SystemExit('SHADOWED')\n")
        (tmp_path / package / "__main__.py").write_text("raise SystemExit('SHADOWED')\n")
    assert "-m tui.cli" not in browser_command()
    result = subprocess.run(f"{browser_command()} --version", shell=True, cwd=tmp_path, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith("dicehall "), result.stdout + result.stderr
    assert "SHADOWED" not in result.stderr
