"""What `benchmarks.answers` prints: a line per step and the summary of the sweeps."""

from __future__ import annotations

import math

from benchmarks.answers.crowd import ACHIEVED_SHARE, P99_TARGET, Run, Step

HEADER = (
    f"{'config':<8} {'latency':>7} {'offered/s':>9} {'presses':>7} {'answered':>8} "
    f"{'achieved/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'bot CPU':>7} "
    f"{'fake CPU':>8} {'errors':>6}  ok"
)


def _ms(seconds: float) -> str:
    return "never" if math.isinf(seconds) else f"{seconds * 1000:.1f}"


def format_step(step: Step) -> str:
    return (
        f"{step.config:<8} {step.latency_ms:>4} ms {step.offered:>9.0f} {step.presses:>7} "
        f"{step.answered:>8} {step.achieved:>10.1f} {_ms(step.p50):>8} {_ms(step.p99):>8} "
        f"{_ms(step.worst):>8} {step.bot_cpu:>6.0%} {step.fake_cpu:>8.0%} {step.errors:>6}  "
        f"{'yes' if step.passed else 'NO'}"
    )


def _rate(run: Run) -> str:
    value = f"{run.sustained:.0f}/s" if run.sustained else "none of the rates"
    return value if run.swept_past_knee else f"≥ {value} (no step failed)"


def summary(runs: list[Run]) -> list[str]:
    lines = [
        "",
        f"sustained rate = highest offered rate up to which every step achieved "
        f"≥ {ACHIEVED_SHARE:.0%} of it with p99 ≤ {P99_TARGET * 1000:.0f} ms",
    ]
    latencies = sorted({r.latency_ms for r in runs})
    for latency in latencies:
        by_config = {r.config: r for r in runs if r.latency_ms == latency}
        parts = [f"{name} {_rate(run)}" for name, run in by_config.items()]
        line = f"  {latency:>3} ms: " + ", ".join(parts)
        quizbot, plain = by_config.get("quizbot"), by_config.get("plain")
        if quizbot and plain:
            if plain.sustained:
                line += f"; ratio quizbot/plain = {quizbot.sustained / plain.sustained:.1f}×"
            else:
                line += "; ratio quizbot/plain = ∞ (plain sustained none of its rates)"
        lines.append(line)
    lines.append("recorded once (one row per press, no duplicates, none missing):")
    for run in runs:
        verdict = "yes" if run.recorded_once else "NO"
        lines.append(
            f"  {run.config:<8} {run.latency_ms:>3} ms: {verdict} "
            f"({run.pressed} presses incl. warm-up, {run.rows} rows, "
            f"{run.unanswered_at_end} unanswered after the final drain)"
        )
    at50 = {r.config: r for r in runs if r.latency_ms == 50}
    if "quizbot" in at50:
        lines += _targets(at50["quizbot"], at50.get("plain"))
    return lines


def _targets(quizbot: Run, plain: Run | None) -> list[str]:
    at400 = next((s for s in quizbot.steps if s.offered == 400), None)
    lines = [
        "targets at 50 ms:",
        f"  sustained ≥ 400 answers/s: {'yes' if quizbot.sustained >= 400 else 'NO'}",
    ]
    if at400 is not None:
        lines.append(
            f"  at 400/s: achieved {at400.achieved:.0f}/s, p99 {_ms(at400.p99)} ms: "
            f"{'yes' if at400.passed else 'NO'}"
        )
    lines.append(f"  every answer recorded once: {'yes' if quizbot.recorded_once else 'NO'}")
    if plain is not None:
        ok = plain.sustained == 0 or quizbot.sustained >= 3 * plain.sustained
        lines.append(f"  ≥ 3× the plain configuration: {'yes' if ok else 'NO'}")
    return lines
