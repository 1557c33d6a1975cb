"""Deployment files checked without a container engine: the compose file
parses and wires the services together, every ENGRAM_* variable is a real
setting, and the Dockerfile installs and runs what the package declares."""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from engram.auth import load_token_file
from engram.config import SERVICES, Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "deploy" / "compose.yaml"
DOCKERFILE = ROOT / "Dockerfile"
SETTINGS_VARIABLES = {f"ENGRAM_{f.name.upper()}" for f in dataclasses.fields(Settings)}
# Client-side variables of the `engram` CLI (not server settings).
CLI_VARIABLES = {"ENGRAM_ADDRESS", "ENGRAM_TOKEN"}
ENGRAM_VARIABLE = re.compile(r"\bENGRAM_[A-Z0-9_]+\b")
SERVICE_NAMES = {
    "journal": "engram.journal.v1.JournalService",
    "learning": "engram.learning.v1.LearningService",
    "retrieval": "engram.retrieval.v1.RetrievalService",
    "gateway": "engram.gateway.v1.GatewayService",
}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = compose["services"]
    return found


MONITORING = {"prometheus", "grafana"}


def test_compose_has_database_migration_and_every_service(compose: dict[str, Any]) -> None:
    svc = services(compose)
    assert set(svc) == {"postgres", "migrate", *SERVICES, *MONITORING}
    assert all(svc[name]["profiles"] == ["monitoring"] for name in MONITORING)
    assert svc["postgres"]["image"] == "pgvector/pgvector:pg17"
    assert "pg_isready" in " ".join(svc["postgres"]["healthcheck"]["test"])
    assert svc["migrate"]["entrypoint"] == ["engram", "db", "migrate"]
    assert svc["migrate"]["restart"] == "no"
    assert svc["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"


@pytest.mark.parametrize("name", SERVICES)
def test_each_service_container(compose: dict[str, Any], name: str) -> None:
    service = services(compose)[name]
    assert service["command"] == [name]
    assert service["build"]["dockerfile"] == "Dockerfile"
    env = service["environment"]
    assert env["ENGRAM_LISTEN"] == "0.0.0.0:50051"
    assert env["ENGRAM_TOKENS_FILE"] == "/run/secrets/engram_tokens"
    assert "ENGRAM_SERVICE_TOKEN" in env
    assert "engram_tokens" in service["secrets"]
    check = service["healthcheck"]["test"]
    assert check[:3] == ["CMD", "engram", "health"]
    assert check[check.index("--service") + 1] == SERVICE_NAMES[name]
    assert check[check.index("--address") + 1] == "127.0.0.1:50051"
    uses_database = name in ("journal", "learning")
    assert ("ENGRAM_DATABASE_URL" in env) == uses_database
    if uses_database:
        assert service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_service_addresses_point_at_compose_services(compose: dict[str, Any]) -> None:
    svc = services(compose)
    for name, service in svc.items():
        for key, value in service.get("environment", {}).items():
            if key.endswith("_ADDR"):
                host, _, port = str(value).partition(":")
                assert host in svc, f"{name}.{key} -> unknown service {host}"
                assert port == "50051"
                assert host in service["depends_on"], f"{name} must wait for {host}"
    gateway = svc["gateway"]["environment"]
    assert {"ENGRAM_JOURNAL_ADDR", "ENGRAM_LEARNING_ADDR", "ENGRAM_RETRIEVAL_ADDR"} <= set(gateway)


@pytest.mark.parametrize("name", SERVICES)
def test_each_service_serves_metrics_to_the_network(compose: dict[str, Any], name: str) -> None:
    service = services(compose)[name]
    env = service["environment"]
    settings = Settings.load(env={k: str(v) for k, v in env.items() if "${" not in str(v)})
    assert settings.metrics_port == 9464 and settings.metrics_host == "0.0.0.0"
    published = [str(p) for p in service["ports"] if str(p).endswith(":9464")]
    assert len(published) == 1 and published[0].startswith("127.0.0.1:")


def test_prometheus_scrapes_every_service() -> None:
    config = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text(encoding="utf-8"))
    targets = {
        target: group["labels"]["service"]
        for job in config["scrape_configs"]
        for group in job["static_configs"]
        for target in group["targets"]
    }
    assert targets == {f"{name}:9464": name for name in SERVICES}


def _exported_series() -> set[str]:
    """Every series name the process registry can expose."""
    from engram import metrics

    names: set[str] = set()
    for family in metrics.REGISTRY.collect():
        if family.type == "counter":
            names |= {family.name + "_total", family.name + "_created"}
        elif family.type == "histogram":
            names |= {family.name + s for s in ("_bucket", "_count", "_sum", "_created")}
        else:
            names.add(family.name)
    return names


def test_dashboard_charts_only_series_that_exist() -> None:
    dashboard = json.loads(
        (ROOT / "deploy" / "grafana" / "dashboards" / "engram.json").read_text(encoding="utf-8")
    )
    exported = _exported_series()
    charted: set[str] = set()
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            expr = target["expr"]
            # Series are the identifiers followed by a selector or a range.
            charted |= set(re.findall(r"\b([a-z_][a-z0-9_]*)\{", expr))
    assert charted, "no series charted"
    assert sorted(charted - exported) == []
    for wanted in (
        "engram_db_pool_connections",
        "engram_embedding_backlog_episodes",
        "engram_index_episodes",
        "engram_feed_lag_changes",
        "engram_rpc_stream_duration_seconds_bucket",
        "process_resident_memory_bytes",
        "python_gc_collections_total",
    ):
        assert wanted in charted, wanted


def test_database_url_reaches_the_postgres_service(compose: dict[str, Any]) -> None:
    svc = services(compose)
    for name in ("migrate", "journal", "learning"):
        url = svc[name]["environment"]["ENGRAM_DATABASE_URL"]
        assert url.startswith("postgresql://engram:")
        assert "@postgres:5432/engram" in url


def test_secret_is_declared(compose: dict[str, Any]) -> None:
    assert compose["secrets"]["engram_tokens"]["file"] == "./secrets/engram_tokens.yaml"
    assert (ROOT / "deploy" / "secrets" / ".gitignore").is_file()


def test_every_engram_variable_is_a_setting(compose: dict[str, Any]) -> None:
    used = set(ENGRAM_VARIABLE.findall(COMPOSE.read_text(encoding="utf-8")))
    used |= set(ENGRAM_VARIABLE.findall(DOCKERFILE.read_text(encoding="utf-8")))
    for service in services(compose).values():
        used |= {k for k in service.get("environment", {}) if k.startswith("ENGRAM_")}
    assert used
    assert sorted(used - SETTINGS_VARIABLES) == []
    # Each one also parses as its setting's type.
    for service in services(compose).values():
        env = {k: str(v) for k, v in service.get("environment", {}).items() if "${" not in str(v)}
        Settings.load(env=env)


def test_docs_name_only_real_variables() -> None:
    for doc in ("deploy.md", "operators.md"):
        named = set(ENGRAM_VARIABLE.findall((ROOT / "docs" / doc).read_text(encoding="utf-8")))
        assert sorted(named - SETTINGS_VARIABLES - CLI_VARIABLES - {"ENGRAM_ADMIN_TOKEN"}) == []


def test_token_example_loads() -> None:
    entries = load_token_file(ROOT / "deploy" / "tokens.example.yaml")
    assert {e.role.name for e in entries} == {"RUNTIME", "SERVICE", "OPERATOR", "ADMIN"}
    assert next(e for e in entries if e.name == "services").role.name == "SERVICE"


def dockerfile_instructions() -> list[tuple[str, str]]:
    text = DOCKERFILE.read_text(encoding="utf-8").replace("\\\n", " ")
    out = []
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            out.append((keyword.upper(), rest.strip()))
    return out


def test_dockerfile_builds_the_declared_packages() -> None:
    steps = dockerfile_instructions()
    stages = [rest for kind, rest in steps if kind == "FROM"]
    assert stages == ["python:3.11-slim AS wheel", "python:3.11-slim"]
    copied = {rest.split()[0] for kind, rest in steps if kind == "COPY"}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    assert packages <= copied
    assert {"pyproject.toml", "requirements-build.txt", "requirements.txt"} <= copied
    run = " ".join(rest for kind, rest in steps if kind == "RUN")
    # The make wheel-check path: locked build tools, the wheel over the hashed runtime lock.
    assert "pip install --require-hashes --no-deps -r requirements-build.txt" in run
    assert "python -m build --no-isolation --wheel" in run
    assert "pip install --require-hashes --no-deps -r /tmp/requirements.txt" in run
    assert "pip install --no-deps /tmp/dist/engram-*.whl" in run
    assert "pip check" in run


def test_dockerfile_runs_unprivileged_engram_serve() -> None:
    steps = dockerfile_instructions()
    users = [rest for kind, rest in steps if kind == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert ("ENTRYPOINT", '["engram", "serve"]') in steps
    health = [rest for kind, rest in steps if kind == "HEALTHCHECK"]
    assert health and '"engram", "health"' in health[0]


def test_dockerignore_keeps_the_packages() -> None:
    ignored = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    for needed in ("engram", "memory_service", "learning_service", "retrieval_service", "gateway"):
        assert needed not in ignored
    assert {".venv", ".engram", ".git"} <= ignored
    assert not {"requirements.txt", "requirements-build.txt", "*.txt"} & ignored
