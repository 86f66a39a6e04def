"""Reach: how a tournament is heard of outside its own pages.

- ``followups``: what a command changed (pairings now ready, a result to confirm, results made
  final, the event finished), noted in the command's transaction as one outbox message, and
  fanned out after the commit into one email per player and one signed webhook per endpoint.
- ``webhooks``: the organiser's URLs (SSRF-checked), the HMAC-SHA256 signature, delivery with
  retries and backoff through Celery, and the delivery log.
- ``embed``: the standings and bracket widgets, framed only by the origins the organiser allowed.

Settings: ``EMAIL_*``, ``DEFAULT_FROM_EMAIL``, ``SITE_URL``, ``WEBHOOKS_ALLOW_PRIVATE``,
``WEBHOOKS_TIMEOUT``, ``WEBHOOKS_MAX_ATTEMPTS`` (config/settings.py).
"""
