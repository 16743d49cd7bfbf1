"""dicehall behind a real sshd, as docs/hall.md's admin sets it up: its authorized_keys line
(read from docs/hall.md, with this dicehall's path and a hall in tmp_path) on a key of a test's own, an
sshd of the test's own on a free loopback port. A login with a terminal gets the launcher, and a
client killed mid-game leaves no dicehall behind; a login without a terminal is refused with one
line and leaves nothing either. Skipped, with the reason, where there is no sshd (.ci/run installs
openssh-server where apt-get can) or where the test cannot run it (not root)."""
from __future__ import annotations

import fcntl
import getpass
import os
import pty
import select
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.box import readme_steps

SSHD = shutil.which("sshd", path="/usr/sbin:/usr/local/sbin:/sbin:" + os.environ.get("PATH", ""))
SSH = shutil.which("ssh")
SSH_KEYGEN = shutil.which("ssh-keygen")
DICEHALL = Path(sys.executable).parent / "dicehall"  # the console script of this environment

pytestmark = [
    pytest.mark.skipif(not (SSHD and SSH and SSH_KEYGEN),
                       reason="no OpenSSH server or client here (apt-get install openssh-server openssh-client)"),
    pytest.mark.skipif(os.geteuid() != 0, reason="sshd must run as root to open a login session"),
    pytest.mark.skipif(not DICEHALL.exists(), reason=f"dicehall is not installed as {DICEHALL}"),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def dicehall_processes(hall: Path) -> list[int]:
    """The live processes running dicehall on this test's hall (its path is in their command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if str(hall).encode() in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def wait_until(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


class Box:
    """An sshd of our own on 127.0.0.1, letting one key in with the documented forced command."""

    def __init__(self, tmp_path: Path):
        self.dir = tmp_path
        self.hall = tmp_path / "hall"
        self.port = free_port()
        self.key = tmp_path / "ann"
        subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "host_key")], check=True)
        subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", "ann@laptop", "-f", str(self.key)], check=True)
        # The documented line, only its command pointed at this dicehall and this test's hall.
        readme_command = readme_steps.forced_command()
        command = readme_command.replace("dicehall --hall /var/games/dicehall",
                                         f"{shlex.quote(str(DICEHALL))} --hall {shlex.quote(str(self.hall))}")
        assert command != readme_command and '"' not in command
        options = readme_steps.key_options().replace(f'command="{readme_command}"', f'command="{command}"')
        self.line = f"{options} {(tmp_path / 'ann.pub').read_text().strip()}"
        keys = tmp_path / "authorized_keys"
        keys.write_text(self.line + "\n")
        keys.chmod(0o600)
        self.config = tmp_path / "sshd_config"
        self.config.write_text("\n".join([
            f"Port {self.port}", "ListenAddress 127.0.0.1", f"HostKey {tmp_path / 'host_key'}",
            f"AuthorizedKeysFile {keys}", "StrictModes no", "UsePAM no", "PidFile none",
            "PasswordAuthentication no", "KbdInteractiveAuthentication no", "PermitRootLogin prohibit-password",
            f"AllowUsers {getpass.getuser()}", "LogLevel VERBOSE",
            # the session's saves stay in tmp_path (sshd passes no environment of ours)
            f"SetEnv DICEHALL_HOME={tmp_path / 'home'}", ""]))
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation folder
        self.log = open(tmp_path / "sshd.log", "wb")
        self.sshd = subprocess.Popen([SSHD, "-f", str(self.config), "-D", "-e"], stdout=self.log, stderr=self.log)
        if not wait_until(self.listening, 15):
            self.close()
            pytest.fail(f"sshd did not listen: {self.sshd_log()}")

    def listening(self) -> bool:
        assert self.sshd.poll() is None, f"sshd ended: {self.sshd_log()}"
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            return True
        except OSError:
            return False

    def sshd_log(self) -> str:
        return (self.dir / "sshd.log").read_text(errors="replace")[-3000:]

    def ssh(self, *flags: str) -> list[str]:
        return [SSH, *flags, "-p", str(self.port), "-i", str(self.key), "-o", "BatchMode=yes",
                "-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={self.dir / 'known_hosts'}",
                "-o", "LogLevel=ERROR", f"{getpass.getuser()}@127.0.0.1"]

    def close(self) -> None:
        self.sshd.terminate()
        try:
            self.sshd.wait(10)
        except subprocess.TimeoutExpired:
            self.sshd.kill()
            self.sshd.wait()
        self.log.close()
        for pid in dicehall_processes(self.hall):  # whatever a failed test left: never a spinning orphan
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.fixture
def box(tmp_path):
    made = Box(tmp_path)
    yield made
    made.close()


def read_for(fd: int, seconds: float, until: bytes) -> bytes:
    out = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and until not in out:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    return out


def test_a_login_gets_the_launcher_and_a_dropped_client_leaves_no_dicehall(box):
    hosted = subprocess.run([str(DICEHALL), "--hall", str(box.hall), "host", "towers", "--seat", "2=bot"],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
                            env={**os.environ, "DICEHALL_HOME": str(box.dir / "home")})
    game = hosted.stdout.split("dicehall join ")[-1].strip()  # off a terminal, host prints the id and leaves
    assert len(game) == 6, hosted
    pid, fd = pty.fork()
    if pid == 0:  # the player's ssh client, in a terminal of its own at 80x24
        os.environ["TERM"] = "xterm-256color"
        os.execv(SSH, box.ssh("-tt") + ["echo", "a-shell-command"])  # the forced command runs instead
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        screen = read_for(fd, 60, until=b"Hall: play and watch")
        assert b"Hall: play and watch" in screen, f"no launcher over ssh: {screen[-500:]!r} {box.sshd_log()}"
        assert dicehall_processes(box.hall), "the launcher is not this test's dicehall"
        assert b"a-shell-command" not in screen
        os.write(fd, b"h")  # into the Hall screen, following the hall, so the drop comes mid-screen
        assert game.encode() in read_for(fd, 30, until=game.encode()), "the Hall screen did not list the game"
        os.kill(pid, signal.SIGKILL)  # the link drops: the client dies without a word
        os.waitpid(pid, 0)
        pid = 0
    finally:
        if pid:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    assert wait_until(lambda: not dicehall_processes(box.hall), 10), \
        f"dicehall still runs after the client was killed: {dicehall_processes(box.hall)}"


def test_a_login_without_a_terminal_is_refused_with_one_line_and_leaves_nothing(box):
    """ssh -T (or a key line without pty): no terminal for the launcher. Its standard input stays open
    (the client's pipe), so only the refusal can end it, not an end of file."""
    with open(box.dir / "out", "wb") as out_file, open(box.dir / "err", "wb") as err_file:
        client = subprocess.Popen(box.ssh("-T"), stdin=subprocess.PIPE, stdout=out_file, stderr=err_file)
        try:
            client.wait(timeout=20)  # its input is left open: not communicate(), which would close it
        except subprocess.TimeoutExpired:
            client.kill()
            client.wait()
            pytest.fail("dicehall did not refuse a login without a terminal within 20 s; "
                        f"left running: {dicehall_processes(box.hall)}")
        finally:
            client.stdin.close()
    out, err = (box.dir / "out").read_bytes(), (box.dir / "err").read_bytes()
    lines = err.decode(errors="replace").strip().splitlines()
    assert client.returncode == 2 and len(lines) == 1 and lines[0].startswith("dicehall: "), (client.returncode, lines)
    assert "terminal" in lines[0] and "Traceback" not in lines[0]
    assert b"\x1b[" not in out  # nothing drawn into the pipe
    assert wait_until(lambda: not dicehall_processes(box.hall), 5), f"left running: {dicehall_processes(box.hall)}"


def test_the_readme_match_block_is_accepted_by_sshd_and_forces_the_command(box):
    """The sshd_config alternative, in a config of its own: sshd accepts it, and it forces dicehall on
    the shared account only."""
    config = box.dir / "sshd_config_match"
    config.write_text(box.config.read_text() + readme_steps.match_block())
    assert subprocess.run([SSHD, "-t", "-f", str(config)], capture_output=True).returncode == 0
    def effective(user: str) -> list[str]:
        shown = subprocess.run([SSHD, "-T", "-f", str(config), "-C", f"user={user},host=box,addr=127.0.0.1"],
                               capture_output=True, text=True, check=True)
        return shown.stdout.splitlines()
    play = effective("play")
    assert f"forcecommand {readme_steps.forced_command()}" in play
    assert "disableforwarding yes" in play and "permittty yes" in play
    assert "forcecommand none" in effective("root")
