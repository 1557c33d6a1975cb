"""Signing in and out. A browser signs in with an operator (or admin) bearer
token, checked by an operator-role call to the suite; on a loopback console
the console's own configured token (or none, against a suite without tokens)
is offered as a one-click sign-in. The token is kept server-side only."""

from __future__ import annotations

import grpc
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from engram.console.sessions import COOKIE_NAME
from engram.console.suite import SuiteError
from engram.console.web import console_of, local_path, same_origin
from engram.learning.v1 import learning_pb2 as lpb

REFUSALS = {
    grpc.StatusCode.UNAUTHENTICATED: "the suite does not know this token",
    grpc.StatusCode.PERMISSION_DENIED: "this token's role cannot govern memory "
    "(operator or admin needed)",
}


async def login_form(request: Request, error: str = "", status: int = 200) -> Response:
    console = console_of(request)
    return console.templates.TemplateResponse(
        request,
        "login.html",
        {
            "nonce": console.sessions.issue_login_nonce(),
            "next": local_path(request.query_params.get("next", "/")),
            "error": error
            or ("the session ended; sign in again" if request.query_params.get("expired") else ""),
            "offer_console_token": console.settings.loopback,
            "console_has_token": bool(console.settings.token),
        },
        status_code=status,
    )


async def login(request: Request) -> Response:
    console = console_of(request)
    if not same_origin(request):
        return Response("cross-origin request refused", status_code=403)
    form = await request.form()
    if not console.sessions.use_login_nonce(str(form.get("nonce", ""))):
        return await login_form(request, "the sign-in form expired; try again", 400)
    if form.get("use_console_token") and console.settings.loopback:
        token, label = console.settings.token, "console token"
    else:
        token, label = str(form.get("token", "")).strip(), "token"
        if not token:
            return await login_form(request, "a bearer token is required", 401)
    try:
        await run_in_threadpool(
            console.suite.call,
            token,
            console.suite.learning.GetLearningStatus,
            lpb.GetLearningStatusRequest(),
        )
    except SuiteError as exc:
        reason = REFUSALS.get(exc.failure.code) or exc.failure.describe()
        return await login_form(request, f"sign-in refused: {reason}", 401)
    session = console.sessions.create(token, label)
    response = RedirectResponse(local_path(str(form.get("next", "/"))), status_code=303)
    response.set_cookie(
        COOKIE_NAME,
        session.session_id,
        httponly=True,
        samesite="strict",
        secure=console.settings.secure_cookies,
        path="/",
    )
    return response


async def logout(request: Request) -> Response:
    console = console_of(request)
    session = console.sessions.get(request.cookies.get(COOKIE_NAME))
    if session is None or not same_origin(request):
        return Response("refused", status_code=403)
    form = await request.form()
    if not session.check_csrf(str(form.get("csrf", ""))):
        return Response("missing or wrong CSRF token", status_code=403)
    console.sessions.drop(session.session_id)
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(COOKIE_NAME, path="/")
    return response
