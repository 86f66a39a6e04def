"""``{% tournament_emails_panel %}``: the account page's switch for tournament emails
(league/tournaments/reach/), kept with tournaments so the matches app never imports league."""

from django import template

from ..reach import selectors

register = template.Library()


@register.inclusion_tag("tournaments/_emails_panel.html", takes_context=True)
def tournament_emails_panel(context):
    user = context["user"]
    return {"user": user, "opted_out": selectors.email_opted_out(user=user), "csrf_token": context.get("csrf_token")}
