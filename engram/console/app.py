"""The console's routes."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from engram.console import auth_pages, governance, memory, policies
from engram.console.sessions import SessionStore
from engram.console.settings import ConsoleSettings
from engram.console.suite import SuiteClient
from engram.console.web import PACKAGE_DIR, Console, SecurityHeaders


async def home(_request: Request) -> Response:
    return RedirectResponse("/review", status_code=303)


def routes() -> list[Route | Mount]:
    post = ["POST"]
    return [
        Route("/", home),
        Route("/login", auth_pages.login_form, methods=["GET"]),
        Route("/login", auth_pages.login, methods=post),
        Route("/logout", auth_pages.logout, methods=post),
        Route("/review", governance.review),
        Route("/review/{candidate_id}/publish", governance.publish_candidate, methods=post),
        Route("/review/{candidate_id}/reject", governance.reject_candidate, methods=post),
        Route("/learnings", governance.learnings),
        Route("/learnings/{learning_id}", governance.learning_detail),
        Route("/learnings/{learning_id}/revoke", governance.revoke_learning, methods=post),
        Route("/learnings/{learning_id}/supersede", governance.supersede_learning, methods=post),
        Route("/learnings/{learning_id}/promote", governance.promote_learning, methods=post),
        Route("/skills", governance.skills),
        Route("/skills/{skill_name}/rollout", governance.record_rollout, methods=post),
        Route("/skills/{skill_name}/revoke", governance.revoke_skill, methods=post),
        Route("/skills/{skill_name}/rollback", governance.rollback_skill, methods=post),
        Route("/search", memory.search),
        Route("/session", memory.session_card),
        Route("/quarantine", memory.quarantine),
        Route("/quarantine/add", memory.quarantine_add, methods=post),
        Route("/quarantine/restore", memory.quarantine_restore, methods=post),
        Route("/policy", policies.policy),
        Route("/policy/{kind:str}/preview", policies.policy_preview, methods=post),
        Route("/policy/{kind:str}/save", policies.policy_save, methods=post),
        Mount("/static", StaticFiles(directory=str(PACKAGE_DIR / "static")), name="static"),
    ]


def create_app(settings: ConsoleSettings, suite: SuiteClient | None = None) -> Starlette:
    """The application; `suite` defaults to a client of settings.address."""
    settings.validate()
    app = Starlette(
        routes=routes(),
        middleware=[
            Middleware(
                SecurityHeaders,
                loopback_only_hosts=settings.loopback,
                public_host=settings.public_host,
            )
        ],
    )
    app.state.console = Console(
        settings,
        suite or SuiteClient(settings.address, settings.rpc_timeout_seconds),
        SessionStore(settings.session_idle_seconds),
    )
    return app
