"""The test's PostgreSQL database as the worker processes reach it: its URL, a proxy a test
can cut or silence between them, and the sessions waiting on its locks."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator

import pytest

from tests.conftest import free_port, missing_service


def database_url(**query: str) -> str:
    """The URL of the test database, for worker processes (PostgreSQL only)."""
    from urllib.parse import quote, urlencode

    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        missing_service("the resilience tests need DATABASE_URL to name a PostgreSQL server")
    url = (
        f"postgres://{quote(s['USER'])}:{quote(s['PASSWORD'])}@{s['HOST']}:{s['PORT']}/{s['NAME']}"
    )
    return f"{url}?{urlencode(query)}" if query else url


def proxied_database_url(proxy: DatabaseProxy, **query: str) -> str:
    """``database_url`` through ``proxy`` instead of straight to the server."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(database_url(**query))
    netloc = parts.netloc.rsplit("@", 1)
    netloc[-1] = f"127.0.0.1:{proxy.port}"
    return urlunsplit(parts._replace(netloc="@".join(netloc)))


class DatabaseProxy:
    """A TCP relay from a free port to the test's PostgreSQL server that a test can ``cut``
    (connections dropped and refused: the database unreachable), ``restore``, ``silence``
    (bytes held both ways, sockets open: a network partition) and ``speak`` again."""

    def __init__(self) -> None:
        import threading

        from django.db import connection

        if connection.vendor != "postgresql":
            missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
        self.target = (connection.settings_dict["HOST"], int(connection.settings_dict["PORT"]))
        self.port = free_port()
        self._quiet = threading.Event()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._listener: socket.socket | None = None

    def start(self) -> None:
        import threading

        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(32)
        with self._lock:
            self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        import threading

        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self._lock:
                if listener is not self._listener:  # cut meanwhile: nothing gets through
                    client.close()
                    server.close()
                    return
                self._sockets += [client, server]
            for src, dst in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                while self._quiet.is_set():
                    time.sleep(0.05)
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        with self._lock:
            listener, self._listener = self._listener, None
            sockets, self._sockets = self._sockets, []
        if listener is not None:
            # shutdown first: a close alone leaves the thread blocked in accept() listening
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        for s in sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def restore(self) -> None:
        self.start()

    def silence(self) -> None:
        self._quiet.set()

    def speak(self) -> None:
        self._quiet.clear()


@pytest.fixture
def db_proxy() -> Iterator[DatabaseProxy]:
    proxy = DatabaseProxy()
    proxy.start()
    yield proxy
    proxy.speak()
    proxy.cut()


def sessions_waiting_on_locks() -> int:
    """Sessions of the test database waiting for a lock (PostgreSQL's view of them)."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cur.fetchone()[0])
