"""The playground's memory over a long session: `python -m benchmarks.playground_memory`.

Starts `python -m bot playground` as a newcomer does (a child process, no token, a fresh
folder) and plays the group through the page's JSON API for `--minutes` of real time: every
`--every` seconds a `/quiz` in the group, the four simulated members answer it (fast), and the
clock is moved to its deadline so it is revealed. The child's resident memory (VmRSS, from
/proc) is sampled every minute, and the playground's database size with it. What should hold:
after the warm-up the memory stays flat (the in-process Bot API server forgets old records;
the database keeps the history).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from benchmarks.harness import ROOT, table

GROUP = -1001000000001


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _sample(minute: float, asked: int, pid: int, database: Path) -> list[str]:
    files = [database, database.with_name(database.name + "-wal")]
    size = sum(path.stat().st_size for path in files if path.exists()) / 2**20
    return [f"{minute:.0f}", str(asked), f"{_rss_mb(pid):.1f}", f"{size:.1f}"]


async def _post(session: aiohttp.ClientSession, base: str, path: str, body: object) -> None:
    async with session.post(f"{base}{path}", json=body) as answer:
        if answer.status != 200:
            raise SystemExit(f"{path}: {answer.status} {await answer.text()}")


async def _wait_page(session: aiohttp.ClientSession, base: str) -> None:
    for _ in range(600):
        try:
            async with session.get(f"{base}/api/state") as answer:
                if answer.status == 200:
                    return
        except aiohttp.ClientConnectionError:
            pass
        await asyncio.sleep(0.1)
    raise SystemExit("the playground never answered")


async def play(args: argparse.Namespace, folder: Path) -> list[list[str]]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QUIZBOT_", "TELEGRAM_"))}
    env |= {"PYTHONPATH": str(ROOT), "QUIZBOT_PLAYGROUND_PORT": str(port)}
    env |= {"QUIZBOT_LOG_LEVEL": "WARNING"}
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=folder, env=env, stdout=asyncio.subprocess.DEVNULL
    )
    base, rows = f"http://127.0.0.1:{port}", []
    database = folder / "data" / "playground" / "quizbot.sqlite3"
    try:
        async with aiohttp.ClientSession() as session:
            await _wait_page(session, base)
            pace = {"accuracy": 0.7, "fastest": 0.1, "slowest": 1.0}
            await _post(session, base, "/api/pace", pace)
            started, asked, next_sample = time.monotonic(), 0, 0.0
            while (elapsed := time.monotonic() - started) < args.minutes * 60:
                if elapsed >= next_sample:
                    size = database.stat().st_size / 2**20 if database.exists() else 0.0
                    rows.append(
                        [
                            f"{elapsed / 60:.0f}",
                            str(asked),
                            f"{_rss_mb(child.pid):.1f}",
                            f"{size:.1f}",
                        ]
                    )
                    print("  ".join(rows[-1]), flush=True)
                    next_sample += 60.0
                await _post(session, base, "/api/say", {"chat_id": GROUP, "text": "/quiz"})
                await asyncio.sleep(args.every / 2)  # the members answer meanwhile
                await _post(session, base, "/api/clock", {"close": True})
                asked += 1
                await asyncio.sleep(args.every / 2)
            rows.append(_sample(args.minutes, asked, child.pid, database))
    finally:
        child.send_signal(signal.SIGTERM)
        await asyncio.wait_for(child.wait(), 60)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.playground_memory",
        description=__doc__.splitlines()[0] if __doc__ else "",
    )
    parser.add_argument("--minutes", type=int, default=60, help="real minutes of play (60)")
    parser.add_argument("--every", type=float, default=6.0, help="seconds between questions")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="quizbot-bench-playground-") as scratch:
        print("minute  questions  RSS MB  database MB", flush=True)
        rows = asyncio.run(play(args, Path(scratch)))
    print("\n".join(table(["minute", "questions", "RSS MB", "database MB"], rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
