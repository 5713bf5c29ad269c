"""Settings from the environment and an optional `.env`, validated at start."""

from __future__ import annotations

from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AliasChoices, Field, HttpUrl, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from content.loader import DEFAULT_CONTENT_DIR

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
    database: Path = Field(
        default=Path("data/quizbot.sqlite3"), validation_alias=_env("QUIZBOT_DATABASE")
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

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("telegram_bot_token", "reports_chat", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    def bot_api_base_url(self) -> str:
        """The URL prefix PTB puts the token after: `<server>/bot<token>/<method>`."""
        if self.api_base_url is None:
            return "https://api.telegram.org/bot"
        return f"{str(self.api_base_url).rstrip('/')}/bot"

    def bot_api_file_url(self) -> str:
        if self.api_base_url is None:
            return "https://api.telegram.org/file/bot"
        return f"{str(self.api_base_url).rstrip('/')}/file/bot"


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
        shown = "" if name == "TELEGRAM_BOT_TOKEN" else f" (got {item.get('input')!r})"
        lines.append(f"{name}: {message}{shown}")
    return "\n".join(lines)
