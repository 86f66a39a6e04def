"""``{% tournament_emails_panel %}``: the account page's switch for tournament emails, and the
entries an organiser made for the player that wait for the player's confirmation
(league/tournaments/reach/), kept with tournaments so the matches app never imports league."""

from django import template

from ..reach import selectors

register = template.Library()


@register.inclusion_tag("tournaments/_emails_panel.html", takes_context=True)
def tournament_emails_panel(context):
    user = context["user"]
    return {
        "user": user,
        "opted_out": selectors.email_opted_out(user=user),
        # Entries the organiser made that the player has not confirmed: no emails until they do.
        "to_confirm": selectors.entries_to_confirm(user=user),
        "csrf_token": context.get("csrf_token"),
    }
