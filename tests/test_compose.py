"""docker-compose.yml: valid against the Compose Specification's schema, the single SQLite bot
by default, and the `replicas` profile (PostgreSQL, two webhook replicas, Caddy on 443).

The schema is vendored in tests/data/compose-spec.json (compose-spec/compose-spec,
schema/compose-spec.json at commit 170098ba07d9f53c383a41bfd4c5166b0a4529a6; see
tests/data/README.md), so this runs without network access. `${...}` strings are plain strings
to the schema; `interpolate` below does what Compose does with the forms used here.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from jsonschema import Draft7Validator
from pydantic import AliasChoices

from bot.config import Settings

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yml"
SCHEMA = Path(__file__).resolve().parent / "data" / "compose-spec.json"
PROFILE = "replicas"
# What an operator puts in .env for the replicas (docs/operators/replicas.md, "Deploying").
DOT_ENV = {
    "QUIZBOT_POLLING_BOT": "0",
    "TELEGRAM_BOT_TOKEN": "123456:ABCdef",
    "QUIZBOT_DOMAIN": "quiz.example.org",
    "QUIZBOT_WEBHOOK_SECRET": "0123456789abcdef",
    "POSTGRES_PASSWORD": "5f4dcc3b5aa765d61d8327deb882cf99",
}
REQUIRED = ("TELEGRAM_BOT_TOKEN", "QUIZBOT_DOMAIN", "QUIZBOT_WEBHOOK_SECRET", "POSTGRES_PASSWORD")

_VARIABLE = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:[-?])(?P<arg>[^}]*))?\}")


class MissingRequiredError(Exception):
    pass


def interpolate(text: str, env: Mapping[str, str]) -> str:
    """Compose's `${VAR}`, `${VAR:-default}` and `${VAR:?error}` (unset or empty alike)."""

    def one(match: re.Match[str]) -> str:
        value = env.get(match["name"], "")
        if value:
            return value
        if match["op"] == ":?":
            raise MissingRequiredError(f"{match['name']}: {match['arg']}")
        return (match["arg"] or "") if match["op"] == ":-" else ""

    return _VARIABLE.sub(one, text)


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def services() -> dict[str, dict[str, Any]]:
    found = compose()["services"]
    assert isinstance(found, dict)
    return found


def in_profile(profile: str | None) -> dict[str, dict[str, Any]]:
    """The services `docker compose [--profile profile] up` starts (by their profiles only)."""
    return {
        name: service
        for name, service in services().items()
        if not service.get("profiles") or profile in service["profiles"]
    }


def env_files(service: Mapping[str, Any]) -> list[str]:
    files = service.get("env_file", [])
    files = [files] if isinstance(files, str | dict) else files
    return [f if isinstance(f, str) else f["path"] for f in files]


def read_env_file(path: str) -> dict[str, str]:
    """KEY=VALUE lines, as written (not interpolated); comments and blank lines skipped."""
    found = {}
    for line in (ROOT / path).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            found[key.strip()] = value.strip()
    return found


def environment(service: Mapping[str, Any]) -> dict[str, str]:
    """What the repository sets for the service (its env files but the operator's .env, then
    `environment:`, which wins), not yet interpolated."""
    found: dict[str, str] = {}
    for path in env_files(service):
        if path != ".env":
            found |= read_env_file(path)
    declared = service.get("environment", {})
    if isinstance(declared, list):
        declared = dict(item.partition("=")[::2] for item in declared)
    return found | {key: str(value) for key, value in declared.items()}


def setting_names() -> set[str]:
    names = set()
    for field in Settings.model_fields.values():
        alias = field.validation_alias
        assert isinstance(alias, AliasChoices)
        names.add(str(alias.choices[0]))
    return names


def bots(profile: str | None = PROFILE) -> dict[str, dict[str, Any]]:
    """The services that run the bot (built from this repository)."""
    return {name: s for name, s in in_profile(profile).items() if s.get("build") == "."}


def replicas() -> dict[str, dict[str, Any]]:
    return {name: s for name, s in bots().items() if PROFILE in s.get("profiles", [])}


def rendered(service: Mapping[str, Any], env: Mapping[str, str] = DOT_ENV) -> dict[str, str]:
    return {key: interpolate(value, env) for key, value in environment(service).items()}


# -- the schema -------------------------------------------------------------------------------


def test_compose_file_is_valid_against_the_compose_specification() -> None:
    """docker-compose.yml passes the Compose Specification's JSON schema (draft 7)."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["$schema"].startswith("https://json-schema.org/draft-07/")
    Draft7Validator.check_schema(schema)
    errors = [e.message for e in Draft7Validator(schema).iter_errors(compose())]
    assert errors == []


def test_the_schema_check_catches_a_misspelt_key() -> None:
    """The validation is real: an unknown service key is an error."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    broken = copy.deepcopy(compose())
    broken["services"]["bot"]["restrat"] = "always"
    assert not Draft7Validator(schema).is_valid(broken)


# -- the default: one bot, SQLite, polling ---------------------------------------------------


def test_plain_up_starts_only_the_single_sqlite_bot() -> None:
    """`docker compose up` starts one bot on a SQLite file in a volume, polling Telegram."""
    started = in_profile(None)
    assert list(started) == ["bot"]
    bot = started["bot"]
    assert environment(bot)["QUIZBOT_DATABASE"] == "/data/quizbot.sqlite3"
    assert "quizbot-data:/data" in bot["volumes"]
    assert "QUIZBOT_WEBHOOK_URL" not in environment(bot)
    assert interpolate(str(bot.get("scale", 1)), {}) == "1"


def test_the_compose_file_itself_requires_no_variable() -> None:
    """No `${VAR:?}` in docker-compose.yml: Compose interpolates all of it before applying
    profiles, so one would stop the single bot too; the replicas' checks are in env files."""
    required = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?\?")
    assert not required.search(json.dumps(compose()))
    for service in in_profile(None).values():
        for path in env_files(service):
            assert path == ".env" or ":?" not in (ROOT / path).read_text(encoding="utf-8")


def test_the_single_bot_is_off_when_the_replicas_run() -> None:
    """With QUIZBOT_POLLING_BOT=0 (the replicas' .env) the polling bot is scaled to 0, so it
    cannot take the webhook away from the replicas."""
    bot = services()["bot"]
    assert interpolate(str(bot["scale"]), DOT_ENV) == "0"


# -- the replicas profile ---------------------------------------------------------------------


def test_replicas_profile_has_postgres_15_with_a_volume_and_a_healthcheck() -> None:
    """PostgreSQL 15 keeps its data in a named volume and reports healthy via pg_isready."""
    postgres = in_profile(PROFILE)["postgres"]
    assert PROFILE in postgres["profiles"]
    assert postgres["image"].startswith("postgres:15")
    assert any(v.endswith(":/var/lib/postgresql/data") for v in postgres["volumes"])
    assert postgres["volumes"][0].split(":")[0] in compose()["volumes"]
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert rendered(postgres)["POSTGRES_PASSWORD"] == DOT_ENV["POSTGRES_PASSWORD"]


def test_two_bot_replicas_take_webhooks_and_use_postgres() -> None:
    """Two replicas, each in webhook mode on 0.0.0.0:8080 with an https URL on 443, storing in
    the postgres service (after it is healthy); the rendered env is valid Settings."""
    found = replicas()
    assert len(found) == 2
    for replica in found.values():
        env = rendered(replica)
        assert env["QUIZBOT_WEBHOOK_LISTEN"] == "0.0.0.0"
        assert env["QUIZBOT_WEBHOOK_PORT"] == "8080"
        url = urlsplit(env["QUIZBOT_WEBHOOK_URL"])
        assert (url.scheme, url.hostname, url.port) == ("https", DOT_ENV["QUIZBOT_DOMAIN"], None)
        assert url.path.startswith("/telegram/")
        database = urlsplit(env["QUIZBOT_DATABASE"])
        assert database.scheme == "postgresql"
        assert database.hostname == "postgres"
        assert database.password == DOT_ENV["POSTGRES_PASSWORD"]
        assert replica["depends_on"]["postgres"]["condition"] == "service_healthy"
        settings = Settings(**env, _env_file=None)  # type: ignore[arg-type]
        assert settings.database_is_postgres()
        assert settings.webhook_url is not None
        assert settings.webhook_path() == url.path
        assert settings.webhook_port == 8080


def test_replicas_report_health_on_healthz() -> None:
    """Each replica's healthcheck asks its own /healthz on the webhook port."""
    for replica in replicas().values():
        test = " ".join(replica["healthcheck"]["test"])
        assert "http://127.0.0.1:8080/healthz" in test


def test_proxy_publishes_443_and_serves_the_caddyfile() -> None:
    """Caddy publishes 443 (a port Telegram delivers webhooks to) with deploy/Caddyfile."""
    proxy = in_profile(PROFILE)["proxy"]
    assert proxy["image"].startswith("caddy:")
    published = {str(p).split(":")[0] for p in proxy["ports"]}
    assert "443" in published
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert rendered(proxy)["QUIZBOT_DOMAIN"] == DOT_ENV["QUIZBOT_DOMAIN"]


def test_caddyfile_proxies_the_webhook_path_to_both_replicas_only() -> None:
    """The Caddyfile serves $QUIZBOT_DOMAIN, sends /telegram/* to both replicas' port 8080
    with /readyz health checks, and answers 404 to everything else (/metrics included)."""
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")
    code = "\n".join(line.split("#")[0] for line in caddyfile.splitlines())
    assert "{$QUIZBOT_DOMAIN} {" in code
    assert "handle /telegram/* {" in code
    upstreams = re.search(r"reverse_proxy ([^{]+)\{", code)
    assert upstreams is not None
    assert set(upstreams[1].split()) == {f"{name}:8080" for name in replicas()}
    assert re.search(r"health_uri /readyz\b", code)
    assert "/metrics" not in code
    assert re.search(r"handle \{\s*respond 404\s*\}", code)
    for replica in replicas().values():
        path = urlsplit(rendered(replica)["QUIZBOT_WEBHOOK_URL"]).path
        assert path.startswith("/telegram/")


@pytest.mark.parametrize("name", REQUIRED)
def test_each_required_value_stops_the_replicas_profile_when_missing(name: str) -> None:
    """Without TELEGRAM_BOT_TOKEN, QUIZBOT_DOMAIN, QUIZBOT_WEBHOOK_SECRET or POSTGRES_PASSWORD
    some service of the profile fails with `${VAR:?…}` (Compose then refuses to start)."""
    without = {key: value for key, value in DOT_ENV.items() if key != name}
    users = [s for s in in_profile(PROFILE).values() if f"${{{name}:?" in str(environment(s))]
    assert users
    for service in users:
        with pytest.raises(MissingRequiredError, match=name):
            rendered(service, without)


def test_every_bot_variable_the_compose_file_sets_is_a_setting() -> None:
    """Each variable set for a bot service (compose `environment:` and deploy/*.env) is one
    that bot.config.Settings reads: a misspelt name would be silently ignored."""
    known = setting_names()
    for name, service in bots().items():
        assert set(environment(service)) - known == set(), name
