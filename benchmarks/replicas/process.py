"""Replicas for `benchmarks.replicas.answers` and `benchmarks.replicas.failover` (a helper, no
`main()`): `python -m bot` processes in webhook mode on one PostgreSQL database, and the
machine's CPU.

Every replica registers the same public webhook URL (``HOOK_URL``, which Telegram would reach
through a load balancer); the fake Bot API delivers round-robin to the replicas' own ports
(``WebhookDelivery.replicas``), as that load balancer would.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks.fanout.bot import BotProcess, bot_environment

HOOK_PATH = "/hook"
HOOK_URL = f"https://quizbot.example{HOOK_PATH}"
HOOK_SECRET = "bench-secret"
READY_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def local_url(port: int) -> str:
    return f"http://127.0.0.1:{port}{HOOK_PATH}"


@dataclass
class Replica:
    process: BotProcess
    port: int

    @property
    def url(self) -> str:
        return local_url(self.port)


def replica_env(
    fake: Any, database_url: str, port: int, scale: float = 1.0, **extra: str
) -> dict[str, str]:
    """`benchmarks.fanout.bot.bot_environment` plus webhook mode on ``port``; ``fake`` needs
    ``url`` and ``token``; ``extra`` are more QUIZBOT_ variables."""
    env = bot_environment(fake, Path(database_url), scale)
    env.update(
        QUIZBOT_DATABASE=database_url,
        QUIZBOT_WEBHOOK_URL=HOOK_URL,
        QUIZBOT_WEBHOOK_SECRET=HOOK_SECRET,
        QUIZBOT_WEBHOOK_LISTEN="127.0.0.1",
        QUIZBOT_WEBHOOK_PORT=str(port),
        **extra,
    )
    return env


async def start_replica(
    fake: Any,
    database_url: str,
    log_path: Path,
    scale: float = 1.0,
    port: int | None = None,
    extra: dict[str, str] | None = None,
) -> Replica:
    """Start one replica (on ``port``, else a free one; ``extra``: more QUIZBOT_ variables) and
    wait until its /readyz answers 200."""
    port = port or free_port()
    process = BotProcess(replica_env(fake, database_url, port, scale, **(extra or {})), log_path)
    await process.start()
    replica = Replica(process, port)
    await wait_ready(replica)
    return replica


async def wait_ready(replica: Replica, timeout: float = READY_TIMEOUT) -> float:  # noqa: ASYNC109
    """Seconds until /readyz is 200 (the database answers and the webhook is ours)."""
    started = time.monotonic()
    async with aiohttp.ClientSession() as session:
        while time.monotonic() - started < timeout:
            if replica.process.returncode is not None:
                raise RuntimeError(
                    f"a replica exited with {replica.process.returncode} while starting:\n"
                    + replica.process.log_tail()
                )
            try:
                url = f"http://127.0.0.1:{replica.port}/readyz"
                async with session.get(url, timeout=aiohttp.ClientTimeout(total=2)) as resp:
                    if resp.status == 200:
                        return time.monotonic() - started
            except (aiohttp.ClientError, TimeoutError, OSError):
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError(
        f"a replica was not ready in {timeout:.0f} s:\n" + replica.process.log_tail()
    )


def _proc_cpu(pid: str) -> tuple[str, float] | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            text = stat.read()
    except OSError:
        return None
    name = text[text.find("(") + 1 : text.rfind(")")]
    fields = text.rsplit(")", 1)[1].split()
    return name, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds() -> float:
    """CPU seconds so far of every live process named postgres (the server and its backends;
    backends that exited are not counted, so take it over a span where they live)."""
    total = 0.0
    for pid in os.listdir("/proc"):
        if pid.isdigit() and (found := _proc_cpu(pid)) and found[0] == "postgres":
            total += found[1]
    return total


def machine_jiffies() -> tuple[int, int]:
    """(busy, total) jiffies of all cores from /proc/stat."""
    with open("/proc/stat", encoding="ascii") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


@dataclass
class CpuMeter:
    """Machine busy share (of all cores), PostgreSQL's and each bot's CPU over a span."""

    bots: list[BotProcess]
    _t: float = 0.0
    _machine: tuple[int, int] = (0, 0)
    _pg: float = 0.0
    _bots: list[float] = field(default_factory=list)

    def start(self) -> None:
        self._t = time.monotonic()
        self._machine = machine_jiffies()
        self._pg = postgres_cpu_seconds()
        self._bots = [_bot_cpu(bot) for bot in self.bots]

    def stop(self) -> dict[str, float]:
        wall = max(1e-9, time.monotonic() - self._t)
        busy, total = machine_jiffies()
        machine = (busy - self._machine[0]) / max(1, total - self._machine[1])
        bots = [(_bot_cpu(b) - c) / wall for b, c in zip(self.bots, self._bots, strict=True)]
        return {
            "machine": machine * (os.cpu_count() or 1),  # cores busy
            "postgres": (postgres_cpu_seconds() - self._pg) / wall,
            **{f"bot{i + 1}": share for i, share in enumerate(bots)},
            "load1": os.getloadavg()[0],
        }


def _bot_cpu(bot: BotProcess) -> float:
    """The bot's CPU seconds so far; once it is gone, its last sample (BotProcess samples
    every 100 ms)."""
    found = _proc_cpu(str(bot.pid)) if bot.returncode is None else None
    if found:
        return found[1]
    return bot.cpu[-1][1] if bot.cpu else 0.0


def format_cpu(cpu: dict[str, float]) -> str:
    bots = " ".join(f"{k} {v:.2f}" for k, v in cpu.items() if k.startswith("bot"))
    return (
        f"cores busy {cpu['machine']:.2f} of {os.cpu_count()}; postgres {cpu['postgres']:.2f}; "
        f"{bots}; load1 {cpu['load1']:.2f}"
    )
