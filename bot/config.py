"""Settings from the environment and an optional `.env`, validated at start."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AliasChoices,
    Field,
    HttpUrl,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from content.loader import DEFAULT_CONTENT_DIR

POSTGRES_SCHEMES = ("postgresql://", "postgres://")

# Telegram's rules for setWebhook: the secret's alphabet and length, the ports it delivers to.
WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
WEBHOOK_PORTS = (443, 80, 88, 8443)
# Served by the bot's own HTTP server next to the webhook (bot/runners/http_server.py).
PROBE_PATHS = ("/healthz", "/readyz", "/metrics")

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]

TOKEN_HELP = (
    "TELEGRAM_BOT_TOKEN is not set. Get a token from @BotFather in Telegram (send /newbot), "
    "then put TELEGRAM_BOT_TOKEN=<token> in a .env file next to the Makefile "
    "(see .env.example) or export it in your shell."
)


def _env(name: str) -> AliasChoices:
    # Field names are for code; the environment (and .env) use the documented names.
    return AliasChoices(name, name.lower())


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", populate_by_name=True
    )

    telegram_bot_token: SecretStr | None = Field(
        default=None, validation_alias=_env("TELEGRAM_BOT_TOKEN")
    )
    # A file path (SQLite, the default) or a postgresql:// URL.
    database: str = Field(
        default="data/quizbot.sqlite3", min_length=1, validation_alias=_env("QUIZBOT_DATABASE")
    )
    # Connections each process keeps to PostgreSQL (not used with SQLite).
    database_pool_size: int = Field(
        default=10, ge=2, le=100, validation_alias=_env("QUIZBOT_DATABASE_POOL_SIZE")
    )
    content_dir: Path = Field(
        default=DEFAULT_CONTENT_DIR, validation_alias=_env("QUIZBOT_CONTENT_DIR")
    )
    default_deck: str = Field(
        default="nca-multi-gpu", min_length=1, validation_alias=_env("QUIZBOT_DEFAULT_DECK")
    )
    review_retention: float = Field(
        default=0.9, gt=0.5, lt=1.0, validation_alias=_env("QUIZBOT_REVIEW_RETENTION")
    )
    # How often the leader refits every deck's item parameters (hours since the last fit;
    # 0: never in the background, only `python -m bot calibrate`).
    calibrate_every_hours: int = Field(
        default=24, ge=0, le=24 * 30, validation_alias=_env("QUIZBOT_CALIBRATE_EVERY_HOURS")
    )
    # A learner's presses in a deck before the leader fits their own FSRS parameters there
    # (they run in the background, checked hourly).
    personal_memory_min_reviews: int = Field(
        default=400,
        ge=10,
        le=1_000_000,
        validation_alias=_env("QUIZBOT_PERSONAL_MEMORY_MIN_REVIEWS"),
    )
    timezone: str = Field(default="UTC", validation_alias=_env("QUIZBOT_TIMEZONE"))
    quiz_open_seconds: int = Field(
        default=300, ge=10, le=86_400, validation_alias=_env("QUIZBOT_QUIZ_OPEN_SECONDS")
    )
    round_open_seconds: int = Field(
        default=60, ge=10, le=3_600, validation_alias=_env("QUIZBOT_ROUND_OPEN_SECONDS")
    )
    daily_open_hours: int = Field(
        default=12, ge=1, le=23, validation_alias=_env("QUIZBOT_DAILY_OPEN_HOURS")
    )
    daily_grace_hours: int = Field(
        default=6, ge=0, le=23, validation_alias=_env("QUIZBOT_DAILY_GRACE_HOURS")
    )
    rate_limit_scale: float = Field(
        default=1.0, gt=0, le=1000, validation_alias=_env("QUIZBOT_RATE_LIMIT_SCALE")
    )
    log_level: LogLevel = Field(default="INFO", validation_alias=_env("QUIZBOT_LOG_LEVEL"))
    api_base_url: HttpUrl | None = Field(
        default=None, validation_alias=_env("QUIZBOT_API_BASE_URL")
    )
    # Learners' reports are posted here (a chat id; its admins mark them fixed or dismissed).
    reports_chat: int | None = Field(default=None, validation_alias=_env("QUIZBOT_REPORTS_CHAT"))
    # Webhook mode (instead of long polling) when a URL is set; the secret is then required.
    webhook_url: HttpUrl | None = Field(default=None, validation_alias=_env("QUIZBOT_WEBHOOK_URL"))
    webhook_secret: SecretStr | None = Field(
        default=None, validate_default=True, validation_alias=_env("QUIZBOT_WEBHOOK_SECRET")
    )
    webhook_listen: str = Field(
        default="0.0.0.0", min_length=1, validation_alias=_env("QUIZBOT_WEBHOOK_LISTEN")
    )
    webhook_port: int = Field(
        default=8080, ge=1, le=65_535, validation_alias=_env("QUIZBOT_WEBHOOK_PORT")
    )
    webhook_max_connections: int = Field(
        default=40, ge=1, le=100, validation_alias=_env("QUIZBOT_WEBHOOK_MAX_CONNECTIONS")
    )
    # Polling mode: /healthz, /readyz and /metrics on this port (webhook mode serves them on
    # the webhook's port).
    http_port: int | None = Field(
        default=None, ge=1, le=65_535, validation_alias=_env("QUIZBOT_HTTP_PORT")
    )
    http_listen: str = Field(
        default="0.0.0.0", min_length=1, validation_alias=_env("QUIZBOT_HTTP_LISTEN")
    )
    # The playground (`python -m bot` with no token): its page, on 127.0.0.1 only.
    playground_port: int = Field(
        default=8080, ge=1, le=65_535, validation_alias=_env("QUIZBOT_PLAYGROUND_PORT")
    )

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"unknown time zone {value!r}; use an IANA name such as Europe/Berlin"
            ) from None
        return value

    @field_validator("database", mode="before")
    @classmethod
    def _path_as_text(cls, value: object) -> object:
        return str(value) if isinstance(value, Path) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("telegram_bot_token", "reports_chat", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("webhook_url", "webhook_secret", "http_port", mode="before")
    @classmethod
    def _blank_is_unset_too(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("webhook_url")
    @classmethod
    def _webhook_url(cls, value: HttpUrl | None, info: ValidationInfo) -> HttpUrl | None:
        if value is None:
            return None
        if (value.path or "/") in PROBE_PATHS:
            raise ValueError(f"the webhook path may not be one of {', '.join(PROBE_PATHS)}")
        if info.data.get("api_base_url") is not None:
            return value  # a local Bot API server also delivers over plain HTTP, to any port
        if value.scheme != "https":
            raise ValueError("Telegram delivers webhooks only over HTTPS; use an https:// URL")
        if value.port not in WEBHOOK_PORTS:
            raise ValueError("Telegram delivers webhooks only to ports 443, 80, 88 or 8443")
        return value

    @field_validator("webhook_secret")
    @classmethod
    def _webhook_secret(cls, value: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        if value is None:
            if info.data.get("webhook_url") is not None:
                raise ValueError(
                    "required when QUIZBOT_WEBHOOK_URL is set: 1-256 characters of "
                    "A-Z, a-z, 0-9, _ and -, sent back by Telegram with every update"
                )
            return None
        if not WEBHOOK_SECRET.fullmatch(value.get_secret_value()):
            raise ValueError("must be 1-256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @field_validator("http_port")
    @classmethod
    def _http_port(cls, value: int | None, info: ValidationInfo) -> int | None:
        webhook_port = info.data.get("webhook_port")
        if value is not None and info.data.get("webhook_url") is not None and value != webhook_port:
            raise ValueError(
                "in webhook mode /healthz, /readyz and /metrics are served on "
                "QUIZBOT_WEBHOOK_PORT; leave QUIZBOT_HTTP_PORT unset or the same"
            )
        return value

    def webhook_path(self) -> str:
        """The path of QUIZBOT_WEBHOOK_URL, where the bot's server takes updates."""
        return (self.webhook_url.path if self.webhook_url else None) or "/"

    def database_is_postgres(self) -> bool:
        return self.database.startswith(POSTGRES_SCHEMES)

    def sqlite_path(self) -> Path:
        """The SQLite file (only when the database is not a PostgreSQL URL)."""
        return Path(self.database)

    def playground_folder(self) -> Path:
        """The playground's own files (its database, its decks), beside the SQLite database's
        folder and never that database: `data/playground/` by default."""
        base = Path("data") if self.database_is_postgres() else self.sqlite_path().parent
        return base / "playground"

    def bot_api_base_url(self) -> str:
        """The URL prefix PTB puts the token after: `<server>/bot<token>/<method>`."""
        if self.api_base_url is None:
            return "https://api.telegram.org/bot"
        return f"{str(self.api_base_url).rstrip('/')}/bot"

    def bot_api_file_url(self) -> str:
        if self.api_base_url is None:
            return "https://api.telegram.org/file/bot"
        return f"{str(self.api_base_url).rstrip('/')}/file/bot"


SECRET_VARIABLES = ("TELEGRAM_BOT_TOKEN", "QUIZBOT_WEBHOOK_SECRET")


def env_name(field: str) -> str:
    """The environment variable behind a settings field (errors may name either)."""
    info = Settings.model_fields.get(field)
    if info is not None and isinstance(info.validation_alias, AliasChoices):
        return str(info.validation_alias.choices[0])
    return field.upper()


def describe_settings_error(error: ValidationError) -> str:
    """One line per bad variable, naming it as the operator wrote it (never echoing the token)."""
    lines = []
    for item in error.errors():
        name = env_name(str(item["loc"][0])) if item["loc"] else "settings"
        message = item["msg"].removeprefix("Value error, ")
        shown = "" if name in SECRET_VARIABLES else f" (got {item.get('input')!r})"
        lines.append(f"{name}: {message}{shown}")
    return "\n".join(lines)
