"""dicehall behind a real sshd, as docs/hall.md's admin sets it up: its authorized_keys line
(read from docs/hall.md, with this dicehall's path, a hall in tmp_path and each key's own player) on
three keys of the test's own (alice, bob, carol), an sshd of the test's own on a free loopback port
(never 22). A login with a terminal gets the launcher, and a client killed mid-game leaves no
dicehall behind; a login without a terminal is refused with one line and leaves nothing either. The
box's commands over ssh: two players join one game by their keys' names while a third watches it,
`hall --scores` prints without a terminal, `export ID -o -` brings a replay that verifies here,
and `rm -rf /` or `--player bob` is refused in one line. A best-of-3 match between two keys' players
(#32): its running score and the news line in the lobby, its ratings, the archive and an image over ssh. Skipped, with the reason, where there is no
sshd (.ci/run installs openssh-server where apt-get can) or where the test cannot run it (not root)."""
from __future__ import annotations

import fcntl
import json
import getpass
import os
import pty
import random
import re
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
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from dicehall import replays
from dicehall.saves.hall import Hall
from dicehall.saves.hall.match_book import MatchBook
from tests.apphelpers import eventually
from tests.box import readme_steps
from tests.hallhelpers import play_until_over

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


PLAYERS = ("alice", "bob", "carol")  # a key each; the documented line names its player


class Box:
    """An sshd of our own on 127.0.0.1, letting three keys in with the documented forced command,
    each naming its own player."""

    def __init__(self, tmp_path: Path):
        self.dir = tmp_path
        self.hall = tmp_path / "hall"
        self.port = free_port()
        subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "host_key")], check=True)
        # The documented line, only its command pointed at this dicehall and this test's hall, and its player at each key's.
        readme_command = readme_steps.forced_command()
        assert readme_command.endswith(" --player ann")
        lines = []
        for player in PLAYERS:
            subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", f"{player}@laptop",
                            "-f", str(tmp_path / player)], check=True)
            command = readme_command.replace("dicehall --hall /var/games/dicehall",
                                             f"{shlex.quote(str(DICEHALL))} --hall {shlex.quote(str(self.hall))}")
            command = command.removesuffix(" --player ann") + f" --player {player}"
            assert command != readme_command and '"' not in command
            options = readme_steps.key_options().replace(f'command="{readme_command}"', f'command="{command}"')
            lines.append(f"{options} {(tmp_path / f'{player}.pub').read_text().strip()}")
        keys = tmp_path / "authorized_keys"
        keys.write_text("\n".join(lines) + "\n")
        keys.chmod(0o600)
        self.config = tmp_path / "sshd_config"
        self.config.write_text("\n".join([
            f"Port {self.port}", "ListenAddress 127.0.0.1", f"HostKey {tmp_path / 'host_key'}",
            f"AuthorizedKeysFile {keys}", "StrictModes no", "UsePAM no", "PidFile none",
            "PasswordAuthentication no", "KbdInteractiveAuthentication no", "PermitRootLogin prohibit-password",
            f"AllowUsers {getpass.getuser()}", "LogLevel VERBOSE",
            "ExposeAuthInfo yes",  # tells dicehall the login's key (SSH_USER_AUTH): the admin bars keys by fingerprint
            # the session's saves stay in tmp_path (sshd passes no environment of ours)
            f"SetEnv DICEHALL_HOME={tmp_path / 'home'}", ""]))
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation folder
        self.log = open(tmp_path / "sshd.log", "wb")
        self.sshd = subprocess.Popen([SSHD, "-f", str(self.config), "-D", "-e"], stdout=self.log, stderr=self.log)
        try:
            eventually(self.listening, lambda: f"sshd did not listen: {self.sshd_log()}")
        except AssertionError:
            self.close()
            raise

    def listening(self) -> bool:
        assert self.sshd.poll() is None, f"sshd ended: {self.sshd_log()}"
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            return True
        except OSError:
            return False

    def sshd_log(self) -> str:
        return (self.dir / "sshd.log").read_text(errors="replace")[-3000:]

    def ssh(self, *flags: str, player: str = "alice") -> list[str]:
        return [SSH, *flags, "-p", str(self.port), "-i", str(self.dir / player), "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
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
    while time.monotonic() < deadline and until not in drawn_text(out):
        if select.select([fd], [], [], 0.1)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    return out


def drawn_text(screen: bytes) -> bytes:
    """What a terminal shows of a program's output, near enough to find a line: its escapes taken out."""
    return re.sub(rb"\x1b(\[[0-?]*[ -/]*[@-~]|[()][0-9A-B]|[=>])", b"", screen)


def test_a_login_gets_the_launcher_and_a_dropped_client_leaves_no_dicehall(box):
    hosted = subprocess.run([str(DICEHALL), "--hall", str(box.hall), "host", "towers", "--seat", "2=bot"],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
                            env={**os.environ, "DICEHALL_HOME": str(box.dir / "home")})
    game = hosted.stdout.split("dicehall join ")[-1].strip()  # off a terminal, host prints the id and leaves
    assert len(game) == 6, hosted
    pid, fd = pty.fork()
    if pid == 0:  # the player's ssh client, in a terminal of its own at 80x24
        os.environ["TERM"] = "xterm-256color"
        os.execv(SSH, box.ssh("-tt"))  # nothing typed: the launcher
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        screen = read_for(fd, 60, until=b"Hall: play and watch")
        assert b"Hall: play and watch" in screen, f"no launcher over ssh: {screen[-500:]!r} {box.sshd_log()}"
        assert dicehall_processes(box.hall), "the launcher is not this test's dicehall"
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
    eventually(lambda: not dicehall_processes(box.hall),
               lambda: f"dicehall still runs after the client was killed: {dicehall_processes(box.hall)}")


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
    eventually(lambda: not dicehall_processes(box.hall), lambda: f"left running: {dicehall_processes(box.hall)}")


def test_the_readme_match_block_is_accepted_by_sshd_and_leaves_each_keys_command(box):
    """The sshd_config block, in a config of its own: sshd accepts it, it forces no command (the key
    lines name the players) and it locks the shared account only."""
    config = box.dir / "sshd_config_match"
    config.write_text(box.config.read_text() + readme_steps.match_block())
    assert subprocess.run([SSHD, "-t", "-f", str(config)], capture_output=True).returncode == 0
    def effective(user: str) -> list[str]:
        shown = subprocess.run([SSHD, "-T", "-f", str(config), "-C", f"user={user},host=box,addr=127.0.0.1"],
                               capture_output=True, text=True, check=True)
        return shown.stdout.splitlines()
    play = effective("play")
    assert "forcecommand none" in play and "disableforwarding yes" in play and "permituserrc no" in play
    assert "disableforwarding no" in effective("root")


def over_ssh(box: Box, player: str, *typed: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """`ssh -T play@box WORDS...` as PLAYER's key, without a terminal; its input closed."""
    return subprocess.run(box.ssh("-T", player=player) + list(typed), stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=timeout)


def test_two_players_by_their_keys_one_game_a_watcher_the_scores_and_the_replay(box):
    env = {**os.environ, "DICEHALL_HOME": str(box.dir / "home")}
    hosted = subprocess.run([str(DICEHALL), "--hall", str(box.hall), "--player", "alice", "host", "wager"],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, env=env)
    game = hosted.stdout.split("dicehall join ")[-1].strip()  # off a terminal, host prints the id and leaves
    assert len(game) == 6, hosted
    # each takes a seat by the name of their key: nothing is typed but the game's id
    alice = over_ssh(box, "alice", "dicehall", "join", game)
    assert alice.returncode == 0 and b"you hold seat 1 as alice" in alice.stdout, (alice, box.sshd_log())
    bob = over_ssh(box, "bob", "join", game)
    assert bob.returncode == 0 and b"you hold seat 2 as bob" in bob.stdout, bob
    carol = over_ssh(box, "carol", "dicehall", "join", game)  # no seat left, nor can she take one by a name
    assert carol.returncode == 1 and b"no open seat" in carol.stderr and len(carol.stderr.splitlines()) == 1, carol
    assert re.search(rb"watch it with ssh \S+@\S+ dicehall watch " + game.encode(), carol.stderr)  # works from where she is
    # carol watches it live, without a terminal, while alice and bob play it through to its end
    watcher = subprocess.Popen(box.ssh("-T", player="carol") + ["dicehall", "watch", game, "--follow"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        eventually(lambda: watchers(box, game) == 1, lambda: f"carol is not watching: {box.sshd_log()}")
        hall = Hall(box.hall)
        seated = {}
        for seat, name in ((0, "alice"), (1, "bob")):  # their own seats again, as their keys: a typed name takes none
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv("DICEHALL_PLAYER", name)
                seated[seat] = hall.join(game, name=name)
        play_until_over(seated, random.Random(29))
        for one in seated.values():
            one.close()
        out, err = watcher.communicate(timeout=60)
    finally:
        if watcher.poll() is None:
            watcher.kill()
            watcher.wait()
    assert watcher.returncode == 0 and err == b"", err
    lines = out.decode().splitlines()
    assert lines[0].startswith(f"watching Dead Man's Wager {game}: alice") and "bob" in lines[0]
    assert lines[-1].startswith("over: ") and len(lines) > 3
    # the scores print without a terminal, under the keys' names
    scores = over_ssh(box, "bob", "dicehall", "hall", "--scores")
    assert scores.returncode == 0 and scores.stderr == b"", scores
    assert re.search(rb"wager\s+alice\s+1\b", scores.stdout) and re.search(rb"wager\s+bob\s+1\b", scores.stdout)
    # the replay leaves the box on standard output, and verifies here
    replay = over_ssh(box, "carol", "dicehall", "export", game, "-o", "-")
    assert replay.returncode == 0 and replay.stderr == b"", replay.stderr
    (box.dir / "game.dhr").write_bytes(replay.stdout)
    assert replays.verify(box.dir / "game.dhr").startswith("ok")
    eventually(lambda: not dicehall_processes(box.hall), lambda: f"left running: {dicehall_processes(box.hall)}")


def watchers(box: Box, game: str) -> int:
    entries = [entry for entry in Hall(box.hall).listing() if entry.id == game]
    return entries[0].watchers if entries else 0


@pytest.mark.parametrize("typed", [["dicehall", "rm", "-rf", "/"], ["dicehall", "--player", "bob", "hall"],
                                   ["hall --hall /tmp"], ["export x -o /root/.ssh/authorized_keys"]])
def test_a_command_off_the_list_is_refused_over_ssh_in_one_line(box, typed):
    refused = over_ssh(box, "alice", *typed)
    lines = refused.stderr.decode().splitlines()
    assert refused.returncode == 2 and len(lines) == 1 and lines[0].startswith("dicehall: "), (refused, box.sshd_log())
    assert "allowed here: join ID" in lines[0] and refused.stdout == b""
    assert not (box.dir / "home").exists() or not any((box.dir / "home").rglob("*.dh*"))


def test_the_admin_bars_a_key_by_its_fingerprint_and_the_others_still_play(box):
    fingerprint = subprocess.run([SSH_KEYGEN, "-lf", str(box.dir / "carol.pub")], capture_output=True, text=True,
                                 check=True).stdout.split()[1]
    box.hall.mkdir(mode=0o3770, exist_ok=True)
    settings = box.hall / "hall.toml"
    settings.write_text(f'barred = ["{fingerprint}"]\n')
    settings.chmod(0o644)  # the admin's file: root's, writable by root alone
    refused = over_ssh(box, "carol", "dicehall", "hall")
    assert refused.returncode == 1 and refused.stdout == b"", (refused, box.sshd_log())
    assert refused.stderr.decode().splitlines() == ["dicehall: the admin has barred the key you logged in with from this hall"]
    let_in = over_ssh(box, "alice", "dicehall", "hall")
    assert let_in.returncode == 0 and let_in.stderr == b"", let_in


def test_a_match_between_two_keys_is_scored_rated_archived_and_drawn_over_ssh(box, monkeypatch):
    """#32 on the box: alice hosts a best-of-3 Towers match, bob takes the other seat (both played here
    through the hall as their keys' names, as their sessions would); then what each sees over ssh."""
    hall, book = Hall(box.hall), MatchBook(Hall(box.hall))
    monkeypatch.setenv("DICEHALL_HOME", str(box.dir / "home"))  # as the sessions' (sshd's SetEnv)
    monkeypatch.setenv("DICEHALL_PLAYER", "alice")  # the name each key line gives: rated as an identity
    match_id, alice = book.host("towers", "match", 3, ["alice", "bob"], "alice")
    monkeypatch.setenv("DICEHALL_PLAYER", "bob")
    bob = hall.join(alice.id, name="bob")
    games = []
    for number in range(3):
        games.append(alice.id)
        play_until_over({game.seat: game for game in (alice, bob)}, random.Random(number))
        alice.close(), bob.close()
        if book.read(match_id).over:
            break
        bob = book.next_game(match_id, "bob")  # either player opens the next game; the other takes it up
        monkeypatch.setenv("DICEHALL_PLAYER", "alice")
        alice = book.next_game(match_id, "alice")
        monkeypatch.setenv("DICEHALL_PLAYER", "bob")
    score = book.read(match_id).score_line()
    # bob's lobby, over ssh in a terminal: the match's score on its games and the last result in the news line
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execv(SSH, box.ssh("-tt", player="bob"))
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        read_for(fd, 60, until=b"Hall: play and watch")
        os.write(fd, b"h")
        lobby = drawn_text(read_for(fd, 30, until=f"match {match_id}: {score}".encode()))
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)
    assert f"match {match_id}: {score}".encode() in lobby, lobby[-800:]
    assert re.search(rb"news: (alice beat bob|bob beat alice|alice and bob drew) at Towers", lobby), lobby[-800:]
    # the ratings, the archive (now a command of the box) and a game's image, each off the box on standard output
    rated = json.loads(over_ssh(box, "carol", "ratings", "towers", "--json").stdout)
    assert {row["player"]: row["games"] for row in rated["ratings"]} == {"alice": len(games), "bob": len(games)}
    archive = over_ssh(box, "carol", "archive", "--game", "towers", "--json")
    assert archive.returncode == 0 and archive.stderr == b"", archive
    assert [entry["id"] for entry in json.loads(archive.stdout)["games"]] == games[::-1]  # the latest first
    image = over_ssh(box, "bob", "export", games[0], "--svg", "-o", "-")
    assert image.returncode == 0 and image.stderr == b"", image.stderr
    assert ElementTree.fromstring(image.stdout).tag.endswith("svg") and b"alice" in image.stdout
    for typed in (["export", games[0], "--svg", "-o", "/etc/x"], ["archive", "--player", "\x1b[2J[bold]bob"]):
        refused = over_ssh(box, "bob", shlex.join(typed))
        assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1 and refused.stdout == b"", refused
    assert not Path("/etc/x").exists()
    eventually(lambda: not dicehall_processes(box.hall), lambda: f"left running: {dicehall_processes(box.hall)}")
