// The organiser's webhooks (with their delivery log) and the sites allowed to frame the widgets,
// on the tournament page (templates/tournaments/_reach.html), through /api/tournaments/<id>/webhooks/ and /embed/.
(function () {
  "use strict";
  const root = document.getElementById("reach");
  if (!root) return;
  const id = root.dataset.id;
  const $ = (name) => root.querySelector(`[data-testid=${name}]`);
  const csrf = () => { const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/); return m ? decodeURIComponent(m[1]) : ""; };
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v); else node.setAttribute(k, v);
    }
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  };

  async function call(method, path, body) {
    const error = $("reach-error");
    error.hidden = true;
    const r = await fetch(`/api/tournaments/${id}/${path}`, {
      method, credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = r.status === 204 ? {} : await r.json().catch(() => ({}));
    if (!r.ok) { error.textContent = data.detail || `The server answered ${r.status}.`; error.hidden = false; return null; }
    return data;
  }

  function delivery(d) {
    const when = d.delivered_at || d.created_at;
    return el("tr", { "data-testid": `delivery-${d.id}`, class: d.status },
      el("td", {}, d.event), el("td", { "data-testid": `delivery-status-${d.id}` }, d.status),
      el("td", {}, `${d.attempts} attempt${d.attempts === 1 ? "" : "s"}`),
      el("td", {}, d.last_status_code ? `HTTP ${d.last_status_code}` : ""), el("td", {}, d.last_error || ""),
      el("td", {}, el("time", { datetime: when }, new Date(when).toLocaleString())));
  }

  async function loadWebhooks() {
    const data = await call("GET", "webhooks/");
    if (!data) return;
    $("webhooks").replaceChildren(...data.webhooks.map((w) => el("div", { class: "webhook", "data-testid": `webhook-${w.id}` },
      el("p", {}, el("code", {}, w.url), ` · secret ${w.secret_hint} `,
        el("button", { class: "small-btn", type: "button", "data-testid": `webhook-remove-${w.id}`, onclick: async () => {
          if (await call("DELETE", `webhooks/${w.id}/`)) loadWebhooks();
        } }, "Remove")),
      w.deliveries.length
        ? el("table", { class: "list", "data-testid": `deliveries-${w.id}` }, el("tbody", {}, ...w.deliveries.map(delivery)))
        : el("p", { class: "muted small" }, "Nothing delivered yet."))));
  }

  $("webhook-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = $("webhook-url");
    const made = await call("POST", "webhooks/", { url: input.value.trim() });
    if (!made) return;
    input.value = "";
    const box = $("webhook-secret");
    // Shown this once: the server keeps the secret to sign with and never shows it again.
    box.replaceChildren(el("p", {}, "Signing secret for ", el("code", {}, made.url), " (copy it now, it is not shown again): "),
      el("code", { "data-testid": "webhook-secret-value" }, made.secret));
    box.hidden = false;
    loadWebhooks();
  });

  $("embed-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const origins = $("embed-origins").value.split(/\s+/).map((x) => x.trim()).filter(Boolean);
    const saved = await call("PUT", "embed/", { origins });
    if (!saved) return;
    $("embed-origins").value = saved.origins.join("\n");
    $("embed-saved").textContent = saved.origins.length ? `Saved: ${saved.origins.length} site${saved.origins.length === 1 ? "" : "s"}.` : "Saved: no site may frame the widgets.";
  });

  // The saved sites arrive after the page: on a slow answer the organiser may already be typing,
  // and what they typed wins over what was saved.
  let originsTyped = false;
  $("embed-origins").addEventListener("input", () => { originsTyped = true; });
  call("GET", "embed/").then((data) => { if (data && !originsTyped) $("embed-origins").value = data.origins.join("\n"); });
  loadWebhooks();
})();
