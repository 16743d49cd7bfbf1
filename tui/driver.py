"""Textual's Linux driver, told what to do when the terminal goes away.

Textual's input thread reads standard input in a loop: at end of file (a closed pipe, `ssh -T` whose
client died) os.read returns nothing and the loop selects and reads again at once, for ever, at
100% of a core; a read error (EIO from a pseudo-terminal whose master closed) escapes into a panic
that tries to print a traceback on the dead terminal. Its output thread dies on a write error (EPIPE,
EIO) and the app's next writes then block on the thread's full queue. Here each of those ends the
app instead: the input thread stops and the output is thrown away, and the app is told once, from
the thread that noticed (`App.end_on_signal(SIGHUP)`: the link is as good as hung up).
"""
from __future__ import annotations

import os
import selectors
import signal
import threading
from codecs import getincrementaldecoder
from typing import IO

from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver


def drop_terminal_output() -> None:
    """Point file descriptors 1 and 2 at /dev/null once the terminal is gone, so the interpreter's last
    flush at exit does not fail on it (which would make the exit status 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    for fd in (1, 2):
        try:
            os.dup2(devnull, fd)
        except OSError:
            pass
    os.close(devnull)


class LostOutput:
    """The terminal's output stream for Textual's writer thread: a write or flush that fails (the
    reader or the terminal is gone) calls `gone` once, and everything after it is dropped."""

    def __init__(self, file: IO[str], gone) -> None:
        self.file = file
        self.gone = gone
        self.lost = False

    def write(self, text: str) -> int:
        if not self.lost:
            try:
                return self.file.write(text)
            except (OSError, ValueError):  # ValueError: the file was closed under us
                self.lose()
        return len(text)

    def flush(self) -> None:
        if not self.lost:
            try:
                self.file.flush()
            except (OSError, ValueError):
                self.lose()

    def lose(self) -> None:
        self.lost = True
        self.gone("output")

    def fileno(self) -> int:
        return self.file.fileno()

    def isatty(self) -> bool:
        return self.file.isatty()


class TerminalDriver(LinuxDriver):
    """LinuxDriver that ends the app when its terminal goes away, for input or for output."""

    def __init__(self, app, **kwargs) -> None:
        super().__init__(app, **kwargs)
        assert self._file is not None  # the terminal's output: LinuxDriver takes sys.__stderr__
        # Textual's writer thread only writes, flushes and asks isatty: LostOutput stands in for its file
        self._file = LostOutput(self._file, self.terminal_gone)  # type: ignore[assignment]
        self.gone_lock = threading.Lock()
        self.gone: str | None = None  # "input" or "output": what was found gone first

    def terminal_gone(self, what: str) -> None:
        """Tell the app, once, from any thread; the app closes its saves and seats and exits."""
        with self.gone_lock:
            if self.gone is not None:
                return
            self.gone = what
        end = getattr(self._app, "end_on_signal", None)
        try:
            if end is not None:
                self._loop.call_soon_threadsafe(end, signal.SIGHUP)
            else:
                self._loop.call_soon_threadsafe(self._app.exit)
        except RuntimeError:  # the loop is already closed: the app has ended anyway
            pass

    def run_input_thread(self) -> None:
        """Textual's input loop (textual 8.2, drivers/linux_driver.py), except at end of file or a read
        error: there it stops reading and ends the app."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        fileno = self.fileno
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode

        def process(selector_events, final: bool = False) -> bool:
            """Feed what can be read to the parser; False once the input is gone."""
            for _key, mask in selector_events:
                if mask & selectors.EVENT_READ:
                    try:
                        data = os.read(fileno, 1024 * 4)
                    except OSError:  # EIO: the pseudo-terminal's other side closed
                        return False
                    if not data:  # end of file: nothing will ever be read again
                        return False
                    for event in parser.feed(decode(data, final=final)):
                        self.process_message(event)
            for event in parser.tick():
                self.process_message(event)
            return True

        try:
            while not self.exit_event.is_set():
                if not process(selector.select(0.1)):
                    self.terminal_gone("input")
                    return
            selector.unregister(fileno)
            process(selector.select(0.1), final=True)
        finally:
            selector.close()
            try:
                for _event in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass
