import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs the app registry loaded)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.urls import re_path  # noqa: E402

from league.routing import websocket_urlpatterns as league_websockets  # noqa: E402
from matches.consumers import NotFoundConsumer  # noqa: E402
from matches.routing import websocket_urlpatterns as match_websockets  # noqa: E402

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
