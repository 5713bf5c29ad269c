"""What `benchmarks.fanout` prints: the figures of one fan-out against the targets, or the table
of the kill runs."""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.fanout.kill import KillRun
from benchmarks.fanout.run import TARGET_SHARE, Fanout
from benchmarks.harness import GROUP_PER_MINUTE, OVERALL_PER_SECOND, verdict


def _mb(kb: int) -> str:
    return f"{kb * 1024 / 10**6:.1f} MB"


def report(result: Fanout) -> list[str]:
    window = 1.0 / result.scale
    ledger = result.ledger
    statuses = (
        ", ".join(f"{n} {status}" for status, n in sorted(ledger.statuses.items()))
        if ledger and ledger.statuses
        else "no rows"
    )
    checks = dict(result.checks())
    rows: list[tuple[str, str, bool | None]] = [
        ("chats (supergroups)", f"{result.chats:,}", None),
        (
            "limits",
            f"×{result.scale:g}: {result.limit:g} msg/s overall, "
            f"{GROUP_PER_MINUTE * result.scale:g}/min per group; fake latency "
            f"{result.latency_ms:g} ms",
            None,
        ),
        ("question messages delivered", f"{result.delivered:,}", None),
        ("bot polling after start", f"{result.ready_after:.1f} s", None),
        ("first question after the slot", f"{result.first_send_after_slot:.2f} s", None),
        ("fan-out (first → last question)", f"{result.span:.1f} s", None),
        (
            "slot → last question",
            f"{result.end_to_end:.1f} s (at exactly the limit: "
            f"{result.chats / result.limit:.1f} s)",
            None,
        ),
        (
            "achieved rate",
            f"{result.rate:.2f} msg/s = {result.share:.1%} of {result.limit:g}/s",
            checks[f"≥ {TARGET_SHARE:.0%} of the limit"],
        ),
        (
            "largest count in any 1 s window",
            f"{result.max_1s} accepted (limit {result.limit:g}); "
            f"{result.attempts_max_1s} incl. rejected",
            result.max_1s <= result.limit,
        ),
    ]
    if result.scale != 1:
        rows.append(
            (
                f"largest count in any {window:g} s window",
                f"{result.max_window} (the fake's window, limit {OVERALL_PER_SECOND})",
                result.max_window <= OVERALL_PER_SECOND,
            )
        )
    rows += [
        (
            "CPU during the fan-out",
            f"bot {result.bot_cpu:.0%} of a core, fake (this process) {result.fake_cpu:.0%}",
            None,
        ),
        ("429s received", f"{result.rejected_429}", checks["zero 429s"]),
        (
            "duplicates (chats with > 1)",
            f"{result.duplicated} ({result.extra} extra messages)",
            checks["zero duplicates"],
        ),
        ("missing (chats with none)", f"{result.missing}", checks["zero missing"]),
        (
            "peak RSS of the bot (VmHWM)",
            f"{_mb(result.peak_hwm_kb)} (largest VmRSS sample {_mb(result.peak_rss_kb)}, "
            f"{result.rss_samples} samples); target ≤ 150 MB at 10,000 chats",
            checks["peak RSS ≤ 150 MB"],
        ),
        (
            "ledger (daily_pushes)",
            f"{statuses}; message id ≠ the fake's: {result.ledger_mismatch}"
            + (
                f"; asks {ledger.asks}, without message id {ledger.asks_without_message}"
                if ledger
                else ""
            ),
            checks["ledger: every push 'sent' once"],
        ),
        (
            "bot exit on SIGTERM",
            f"code {result.exit_code}, {'a Traceback' if result.traceback else 'no traceback'}"
            f", {result.log_lines} warning/error lines",
            checks["clean exit on SIGTERM"],
        ),
    ]
    if result.other_sends:
        rows.append(("other messages sent", f"{result.other_sends}", None))
    if result.timed_out:
        rows.append(("timed out", "the fan-out had not finished when the time was up", False))
    if not result.passed:
        calls = ", ".join(f"{name}: {n}" for name, n in sorted(result.calls.items()))
        rows.append(("requests (method status)", calls, None))
    if ledger and ledger.unsent:
        unsent = "; ".join(
            f"{n} {status}, {'with' if has_ask else 'no'} ask, {attempts} attempts"
            for (status, has_ask, attempts), n in ledger.unsent.most_common(5)
        )
        rows.append(("ledger rows not sent", unsent, None))
    if result.fake_errors:
        rows.append(("errors inside the fake", f"{result.fake_errors}", False))
    lines = [
        f"  {label:<34} {value}" + (f"  {verdict(ok)}" if ok is not None else "")
        for label, value, ok in rows
    ]
    lines += [f"    | {line}" for line in result.log_first]
    lines.append(f"  overall: {verdict(result.passed)} (took {result.wall:.0f} s)")
    return lines


def kill_report(runs: Sequence[KillRun]) -> list[str]:
    lines = [
        "",
        f"{'seed':>4} {'kill at':>7} {'delivered':>9} {'in flight':>9} {'unconfirmed':>11} "
        f"{'lost':>4} {'dup':>4} {'429s':>4} {'ledger':>6} {'exit':>4} {'peak RSS':>9}  verdict",
    ]
    for run in runs:
        lines.append(
            f"{run.seed:>4} {run.kill_after:>7} {run.delivered_at_kill:>9} "
            f"{run.inflight_at_kill:>9} {run.unconfirmed_at_kill:>11} {run.lost:>4} "
            f"{run.duplicated:>4} {run.rejected_429:>4} {'ok' if run.ledger_ok else 'BAD':>6} "
            f"{run.exit_code!s:>4} {_mb(run.peak_hwm_kb):>9}  {verdict(run.passed)}"
            + (" (timed out)" if run.timed_out else "")
            + (" (traceback in the bot's log)" if run.traceback else "")
        )
    lost = sum(r.lost for r in runs)
    dup = sum(r.duplicated for r in runs)
    bound = sum(r.unconfirmed_at_kill for r in runs)
    lines += [
        "",
        "kill at = delivered questions the SIGKILL waited for; in flight = send requests the fake "
        "was still handling; unconfirmed = questions delivered whose ledger row was not yet "
        "'sent' when the bot died (the most a restart can send twice)",
        f"lost pushes: {lost} {verdict(lost == 0)}; duplicated pushes: {dup} "
        f"(bound {bound}) {verdict(dup <= bound)}; never sent twice: "
        f"{'yes' if dup == 0 else 'NO'}",
        f"overall: {verdict(all(r.passed for r in runs))}",
    ]
    return lines
