import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs the app registry loaded)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.urls import re_path, reverse  # noqa: E402

from league.routing import websocket_urlpatterns as league_websockets  # noqa: E402
from matches.consumers import NotFoundConsumer  # noqa: E402
from matches.routing import websocket_urlpatterns as match_websockets  # noqa: E402

# The URLconf (every view module and what it imports) loads, and its patterns compile, on the
# first reverse or resolve: left to the first request, that was 1.2-1.5 s of it on a new process,
# and of every request arriving with it (they wait on the import lock and the GIL; the live
# fan-out benchmark's first round at 10 x 100: p99 2.2-2.4 s against 0.4-0.8 s for the next
# rounds). Done here, a new process pays it before it serves.
reverse("login")

# Plain `daphne config.asgi:application` serves static files itself when asked to (a
# first run, the browser tests); production puts them behind a CDN or a web server.
http_app = ASGIStaticFilesHandler(django_asgi_app) if settings.SERVE_STATIC else django_asgi_app

application = ProtocolTypeRouter(
    {
        "http": http_app,
        # Anything else (a non-UUID match id, a path that does not exist) is closed with 4404, not a traceback.
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(
                URLRouter(match_websockets + league_websockets + [re_path(r"", NotFoundConsumer.as_asgi())])
            )
        ),
    }
)
