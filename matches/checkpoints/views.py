"""The checkpoints page: recent signed checkpoints and, in plain words, how to audit."""

from django.core.exceptions import ImproperlyConfigured
from django.shortcuts import render

from . import keys, selectors


def checkpoint_list(request):
    try:
        public_key, key_id = keys.public_key(), keys.key_id()
    except ImproperlyConfigured:
        public_key = key_id = ""
    return render(
        request,
        "checkpoints/list.html",
        {
            "checkpoints": selectors.checkpoints_recent(limit=50),
            "public_key": public_key,
            "key_id": key_id,
        },
    )
