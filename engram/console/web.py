"""Request plumbing every page shares: the signed-in operator, CSRF and
same-origin checks on every POST, rendering with the header, POST-redirect-GET
with one-time messages, and the security headers of every response."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import grpc
import jinja2
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engram.cli.client import RpcFailure
from engram.console import display
from engram.console.sessions import COOKIE_NAME, BrowserSession, SessionStore
from engram.console.settings import ConsoleSettings, is_loopback_host
from engram.console.suite import SuiteClient, SuiteError

PACKAGE_DIR = Path(__file__).resolve().parent

# No inline script or style anywhere, so the policy can forbid both: stored
# text that escaped escaping still could not run.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
)


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every response; on a loopback console, refuses
    a Host header that is neither a loopback name nor the public origin's host
    (DNS rebinding)."""

    def __init__(self, app: ASGIApp, loopback_only_hosts: bool, public_host: str = "") -> None:
        self.app = app
        self.loopback_only_hosts = loopback_only_hosts
        self.public_host = public_host.lower()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.loopback_only_hosts and not self._known_host(scope):
            response = Response("unknown host", status_code=421)
            await response(scope, receive, self._with_headers(send))
            return
        await self.app(scope, receive, self._with_headers(send))

    @staticmethod
    def _with_headers(send: Send) -> Send:
        async def sender(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        return sender

    def _known_host(self, scope: Scope) -> bool:
        host = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1").lower()
        if self.public_host and host == self.public_host:
            return True
        try:
            name = urlsplit(f"//{host}").hostname or ""
        except ValueError:
            return False
        return is_loopback_host(name)


def build_templates() -> Jinja2Templates:
    # Autoescape on for every template whatever its name: stored text is untrusted.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(PACKAGE_DIR / "templates")),
        autoescape=True,
    )
    env.filters.update(display.FILTERS)
    return Jinja2Templates(env=env)


@dataclass
class Console:
    """What the application holds for its lifetime."""

    settings: ConsoleSettings
    suite: SuiteClient
    sessions: SessionStore
    templates: Jinja2Templates = field(default_factory=build_templates)


def console_of(request: Request) -> Console:
    console: Console = request.app.state.console
    return console


def local_path(target: str, fallback: str = "/") -> str:
    """`target` if it is a path of this console (no scheme, host, // or \\),
    else `fallback`: redirects never leave the console."""
    if target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return fallback


def same_origin(request: Request) -> bool:
    """A POST must come from a page of this console (Origin, else Referer):
    the origin it was reached at, or the configured public origin."""
    expected = {f"{request.url.scheme}://{request.url.netloc}"}
    public = console_of(request).settings.public_origin
    if public:
        expected.add(public.rstrip("/"))
    origin = request.headers.get("origin")
    if origin is not None:
        return origin in expected
    referer = request.headers.get("referer", "")
    parts = urlsplit(referer)
    return bool(referer) and f"{parts.scheme}://{parts.netloc}" in expected


@dataclass
class Operator:
    """The signed-in operator of one request."""

    console: Console
    request: Request
    session: BrowserSession
    form: FormData | None = None

    async def call(self, method: Callable[..., Any], request: Any) -> Any:
        """A unary call with this operator's token (SuiteError on failure)."""
        return await run_in_threadpool(self.console.suite.call, self.session.token, method, request)

    async def attempt(
        self, method: Callable[..., Any], request: Any
    ) -> tuple[Any, RpcFailure | None]:
        """(response, None) or (None, failure): for reads a page can do without."""
        try:
            return await self.call(method, request), None
        except SuiteError as exc:
            if exc.failure.code is grpc.StatusCode.UNAUTHENTICATED:
                raise
            return None, exc.failure

    def field(self, name: str, default: str = "") -> str:
        if self.form is not None:
            value = self.form.get(name)
            return default if value is None else str(value).strip()
        return self.request.query_params.get(name, default).strip()

    def checked(self, name: str) -> bool:
        return self.form is not None and name in self.form

    def flash_ok(self, text: str) -> None:
        self.session.flash(level="ok", text=text)

    def flash_failure(self, what: str, failure: RpcFailure, **extra: Any) -> None:
        self.session.flash(level="error", text=what, failure=failure, **extra)

    def redirect(self, url: str) -> RedirectResponse:
        return RedirectResponse(url, status_code=303)

    async def act(
        self,
        method: Callable[..., Any],
        request: Any,
        *,
        refused: str,
        done: Callable[[Any], str],
        then: str,
    ) -> RedirectResponse:
        """One mutation: call, say what happened (or the typed refusal), and
        redirect to `then` (POST-redirect-GET)."""
        try:
            response = await self.call(method, request)
        except SuiteError as exc:
            self.flash_failure(refused, exc.failure)
        else:
            self.flash_ok(done(response))
        return self.redirect(then)

    async def render(self, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        from engram.console.header import load_header

        header = await run_in_threadpool(load_header, self.console.suite, self.session.token)
        return self.console.templates.TemplateResponse(
            self.request,
            template,
            {
                "csrf": self.session.csrf,
                "signed_in_as": self.session.label,
                "header": header,
                "flashes": self.session.take_flashes(),
                "path": self.request.url.path,
                **context,
            },
            status_code=status,
        )


Handler = Callable[[Operator], Awaitable[Response]]

# A page the suite refused, by gRPC status; anything else is a bad gateway.
HTTP_STATUS = {
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.FAILED_PRECONDITION: 409,
}


def page(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A page or action for signed-in operators only; POSTs need this
    console's origin and the session's CSRF token."""

    @functools.wraps(handler)
    async def endpoint(request: Request) -> Response:
        console = console_of(request)
        session = console.sessions.get(request.cookies.get(COOKIE_NAME))
        if session is None:
            if request.method == "GET":
                target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
                return RedirectResponse(f"/login?next={quote(target, safe='')}", status_code=303)
            return Response("sign in first", status_code=401)
        form = None
        if request.method == "POST":
            if not same_origin(request):
                return Response("cross-origin request refused", status_code=403)
            form = await request.form()
            if not session.check_csrf(str(form.get("csrf", ""))):
                return Response("missing or wrong CSRF token", status_code=403)
        operator = Operator(console, request, session, form)
        try:
            return await handler(operator)
        except SuiteError as exc:
            if exc.failure.code is grpc.StatusCode.UNAUTHENTICATED:
                console.sessions.drop(session.session_id)
                return RedirectResponse("/login?expired=1", status_code=303)
            status = HTTP_STATUS.get(exc.failure.code, 502)
            return await operator.render("error.html", status=status, failure=exc.failure)

    return endpoint
