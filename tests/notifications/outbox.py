"""Reading what a worker sent: through Django's file email backend, or to a mail server of
the test's own (``SmtpOutbox``)."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

# The file backend ends every message with this line; a message is whole once it is written.
_END = "-" * 79 + "\n"


def sent(outbox: Path, at_least: int) -> list[str] | None:
    """The whole emails in ``outbox``, once there are at least ``at_least``; else None.

    Counted by message, not by file: the backend names a file per backend instance and may
    append several sessions to one file, and a file may exist before its message is written."""
    text = "".join(f.read_text() for f in sorted(outbox.glob("*.log"))) if outbox.is_dir() else ""
    whole = text.split(_END)[:-1]  # what follows the last end line is not whole yet
    emails = [e for e in whole if "To: " in e]
    return emails if len(emails) >= at_least else None


class SmtpOutbox:
    """A mail server of the test's own (plain SMTP on a free local port, no TLS, no login):
    it keeps every message it takes (``messages``, on DATA's final dot, before its reply) and
    calls ``on_quit`` when a client says QUIT, before answering it: a test can kill the
    sending worker there, after the message was taken and before the worker goes on."""

    def __init__(self) -> None:
        self.messages: list[str] = []
        self.on_quit: Callable[[], None] | None = None
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        threading.Thread(target=self._accept, daemon=True).start()

    def taken(self) -> list[str]:
        with self._lock:
            return list(self.messages)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._session, args=(conn,), daemon=True).start()

    def _session(self, conn: socket.socket) -> None:
        with conn, contextlib.suppress(OSError):  # a killed client: its socket just ends
            reader = conn.makefile("rb")
            conn.sendall(b"220 outbox ESMTP\r\n")
            while line := reader.readline():
                verb = line[:4].upper()
                if verb == b"DATA":
                    conn.sendall(b"354 go on\r\n")
                    self._take(reader)
                    conn.sendall(b"250 taken\r\n")
                elif verb == b"QUIT":
                    if self.on_quit is not None:
                        self.on_quit()
                    conn.sendall(b"221 bye\r\n")
                    return
                elif verb in (b"EHLO", b"HELO", b"MAIL", b"RCPT", b"RSET", b"NOOP"):
                    conn.sendall(b"250 ok\r\n")
                else:
                    conn.sendall(b"502 not here\r\n")

    def _take(self, reader: Any) -> None:
        lines = []
        while (line := reader.readline()) not in (b".\r\n", b""):
            lines.append(line[1:] if line.startswith(b"..") else line)  # dot-unstuffing
        with self._lock:
            self.messages.append(b"".join(lines).decode(errors="replace"))
