"""A per-caller rate for the pages that replay or analyse matches on every request.

The API's throttles (REST_FRAMEWORK's DEFAULT_THROTTLE_RATES) never see a page; most pages are
cheap and need none, but a replay or a fairness report costs an analysis per request. Those pages
take ``@expensive_page``: the "expensive_page" rate (THROTTLE_EXPENSIVE_PAGES), counted per account,
or per address for visitors, with DRF's throttle and cache like the API's.
"""

from __future__ import annotations

import functools
import math

from django.shortcuts import render

from .api.views import ExpensiveReadThrottle


class ExpensivePageThrottle(ExpensiveReadThrottle):
    scope = "expensive_page"


def expensive_page(view):
    @functools.wraps(view)
    def throttled(request, *args, **kwargs):
        throttle = ExpensivePageThrottle()
        if not throttle.allow_request(request, None):
            wait = max(1, math.ceil(throttle.wait() or 1))
            why = "Too many requests for this page from you in a short time: each one replays or analyses matches."
            response = render(request, "429.html", {"wait": wait, "why": why}, status=429)
            response["Retry-After"] = str(wait)
            return response
        return view(request, *args, **kwargs)

    return throttled
