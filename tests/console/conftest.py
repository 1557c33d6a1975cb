"""The console in a real browser: Debian's chromium, headless, driven by
Selenium, against the console served by uvicorn on 127.0.0.1:0 and a real
suite (all four services, tokens on) on a real PostgreSQL. One suite, console
and browser per module keeps the tests fast; each test uses its own ids."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest

from engram.channels import open_channel
from engram.console.server import RunningConsole, start_console
from engram.console.settings import ConsoleSettings
from engram.server import Suite
from tests.integration.test_learning_support import Stubs, shared_suite, stubs, wait_until

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# Without the background-networking flags chromium misbehaves on a closed network.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,1600",
)
OPERATOR_TOKEN = "console-operator-token-0123"
RUNTIME_TOKEN = "console-runtime-token-0123"
TOKENS = f"ops:operator:{OPERATOR_TOKEN},agent:runtime:{RUNTIME_TOKEN}"
ALL = ["journal", "learning", "retrieval", "gateway"]


@dataclass
class Deployment:
    suite: Suite
    console: RunningConsole
    operator: Stubs  # the suite as the operator sees it (for set-up and checks)
    channel: grpc.Channel

    @property
    def url(self) -> str:
        return self.console.url


@pytest.fixture(scope="module")
def deployment(pg_server_url: str, template_database: str) -> Iterator[Deployment]:
    with shared_suite(pg_server_url, template_database, ALL, tokens=TOKENS) as (suite, _):
        channel = open_channel(suite.address, OPERATOR_TOKEN)
        console = start_console(ConsoleSettings(listen="127.0.0.1:0", address=suite.address))
        try:
            yield Deployment(suite, console, stubs(channel), channel)
        finally:
            console.stop()
            channel.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("Debian chromium and chromium-driver are not installed")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="engram-console-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


class Page:
    """The browser on the console, with the few moves the tests make."""

    def __init__(self, driver: Any, base: str) -> None:
        self.driver = driver
        self.base = base

    def open(self, path: str) -> None:
        self.driver.get(self.base + path)

    def css(self, selector: str) -> Any:
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector: str) -> list[Any]:
        from selenium.webdriver.common.by import By

        return list(self.driver.find_elements(By.CSS_SELECTOR, selector))

    def text(self, selector: str = "body") -> str:
        text: str = self.css(selector).text
        return text

    def submit(self, selector: str) -> None:
        """Click something that loads a page, and wait until the new one is there."""
        from selenium.webdriver.support import expected_conditions
        from selenium.webdriver.support.wait import WebDriverWait

        old = self.css("html")
        self.css(selector).click()
        WebDriverWait(self.driver, 15).until(expected_conditions.staleness_of(old))

    def fill(self, selector: str, value: str) -> None:
        element = self.css(selector)
        element.clear()
        element.send_keys(value)

    def sign_in(self, token: str = OPERATOR_TOKEN) -> None:
        self.driver.delete_all_cookies()
        self.open("/login")
        self.fill("#token", token)
        self.submit("#sign-in")

    def screenshot(self, name: str) -> None:
        """Saved under $ENGRAM_CONSOLE_SCREENSHOTS when set (docs, reviews)."""
        import os

        directory = os.environ.get("ENGRAM_CONSOLE_SCREENSHOTS")
        if directory:
            Path(directory).mkdir(parents=True, exist_ok=True)
            self.driver.save_screenshot(str(Path(directory) / f"{name}.png"))


@pytest.fixture
def page(browser: Any, deployment: Deployment) -> Page:
    """A browser page signed in as the operator."""
    current = Page(browser, deployment.url)
    current.sign_in()
    return current


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


__all__ = ["Deployment", "Page", "unique", "wait_until"]
