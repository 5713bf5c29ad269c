"""A throwaway PostgreSQL server for the tests: initdb in a temp dir, start, stop, remove.

The binaries are found through `pg_config --bindir`, then PATH, then the highest
`/usr/lib/postgresql/*/bin`. initdb refuses to run as root, so under root every binary runs as
the `postgres` user in a temp dir handed to it. The server listens on 127.0.0.1 on a free port
and on a unix socket in the temp dir, with durability off (the data is thrown away anyway).

`QUIZBOT_TEST_PG_DSN`, when set, names a server to use instead (an admin DSN: one allowed to
create and drop databases).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

DSN_ENV = "QUIZBOT_TEST_PG_DSN"
_TOOLS = ("initdb", "pg_ctl", "postgres")
_SERVER_USER = "postgres"
_SHM_NEEDED = 2 << 30
_SUPERUSER = "postgres"
# Test speed: nothing is kept, so nothing needs to reach the disk.
_SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
    "shared_buffers": "64MB",
    "max_wal_size": "256MB",
    "wal_level": "minimal",
    "max_wal_senders": "0",
    "autovacuum": "off",
    "logging_collector": "off",
}


def find_bindir() -> Path | None:
    """The directory holding initdb, pg_ctl and postgres, or None without a PostgreSQL."""
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, check=True, timeout=10
            ).stdout.strip()
            if out:
                candidates.append(Path(out))
    found = shutil.which("postgres")
    if found:
        candidates.append(Path(found).resolve().parent)
    candidates.extend(sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_version, reverse=True))
    for candidate in candidates:
        if all(os.access(candidate / tool, os.X_OK) for tool in _TOOLS):
            return candidate
    return None


def _version(bindir: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", bindir.parent.name)) or (0,)


def _memory_dir() -> str | None:
    """/dev/shm if it has room (RAM: a database per test is I/O bound on disk), else TMPDIR.

    Containers often get a 64 MB /dev/shm: too small for a cluster and its test databases.
    """
    shm = "/dev/shm"
    try:
        stat = os.statvfs(shm)
    except OSError:
        return None
    roomy = stat.f_bavail * stat.f_frsize >= _SHM_NEEDED
    return shm if roomy and os.access(shm, os.W_OK | os.X_OK) else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class PgServer:
    """A running throwaway server; `dsn` connects as its superuser to the `postgres` database."""

    bindir: Path
    root: Path
    port: int
    user: str | None = None
    started_in: float = 0.0

    @property
    def datadir(self) -> Path:
        return self.root / "data"

    @property
    def dsn(self) -> str:
        return f"postgresql://{_SUPERUSER}@127.0.0.1:{self.port}/postgres"

    def run(self, args: Sequence[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """One of the server's binaries, as the user that owns the data directory."""
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.user is not None and shutil.which("runuser"):
            command = ["runuser", "-u", self.user, "--", *command]
        elif self.user is not None:
            command = ["su", self.user, "-s", "/bin/sh", "-c", shlex.join(command)]
        return subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, check=False, cwd=self.root
        )

    def stop(self) -> None:
        """Stop at once (nothing is worth a clean shutdown) and remove every file."""
        try:
            if (self.datadir / "postmaster.pid").exists():
                self.run(["pg_ctl", "stop", "-D", str(self.datadir), "-m", "immediate", "-w"])
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


class PgStartError(RuntimeError):
    """initdb or the server's start failed; the message carries their output."""


def start_server(bindir: Path, attempts: int = 3) -> PgServer:
    """initdb a fresh cluster in a temp dir and start it; raises PgStartError on failure."""
    # initdb refuses root: under root the cluster belongs to the `postgres` user.
    user = _SERVER_USER if os.geteuid() == 0 else None
    try:
        owner = pwd.getpwnam(user) if user else None
    except KeyError:
        raise PgStartError(f"running as root, the server needs a {user!r} user") from None
    root = Path(tempfile.mkdtemp(prefix="quizbot-pg-", dir=_memory_dir()))
    if owner:
        os.chown(root, owner.pw_uid, owner.pw_gid)
    server = PgServer(bindir=bindir, root=root, port=0, user=user)
    began = time.perf_counter()
    try:
        _initdb(server)
        for _ in range(attempts):
            # Another process may take the free port between the probe and the bind: retry.
            server.port = _free_port()
            result = server.run(_start_args(server))
            if result.returncode == 0:
                server.started_in = time.perf_counter() - began
                return server
            if "could not bind" not in _log(server):
                break
        raise PgStartError(f"pg_ctl start failed:\n{result.stdout}{result.stderr}\n{_log(server)}")
    except BaseException:
        server.stop()
        raise


def _initdb(server: PgServer) -> None:
    result = server.run(
        [
            "initdb",
            "-D",
            str(server.datadir),
            "-U",
            _SUPERUSER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
            "--no-instructions",
        ]
    )
    if result.returncode != 0:
        raise PgStartError(f"initdb failed:\n{result.stdout}{result.stderr}")
    settings = {**_SETTINGS, "unix_socket_directories": f"'{server.root}'"}
    with (server.datadir / "postgresql.conf").open("a", encoding="utf-8") as conf:
        conf.write("\n# quizbot tests\n")
        conf.writelines(f"{name} = {value}\n" for name, value in settings.items())


def _start_args(server: PgServer) -> list[str]:
    return [
        "pg_ctl",
        "start",
        "-D",
        str(server.datadir),
        "-l",
        str(server.root / "server.log"),
        "-o",
        f"-p {server.port}",
        "-w",
        "-t",
        "30",
    ]


def _log(server: PgServer) -> str:
    try:
        return (server.root / "server.log").read_text(encoding="utf-8", errors="replace")[-4000:]
    except OSError:
        return "(no server log)"
