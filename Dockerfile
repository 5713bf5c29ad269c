FROM python:3.11-slim

# Optional dependencies to install: `postgres` (asyncpg, a prebuilt wheel: no compiler needed)
# lets QUIZBOT_DATABASE be a postgresql:// URL; `--build-arg EXTRAS=` builds SQLite only.
ARG EXTRAS=postgres

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    QUIZBOT_DATABASE=/data/quizbot.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY content ./content
COPY storage ./storage
RUN pip install --no-cache-dir ".${EXTRAS:+[$EXTRAS]}" \
    && useradd --system --uid 10001 --home-dir /app quizbot \
    && mkdir -p /data && chown quizbot /data

USER quizbot
VOLUME ["/data"]
# SIGTERM (docker stop) lets the bot finish in-flight work and close the database.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot", "run"]
