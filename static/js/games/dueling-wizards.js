// Dueling Wizards: health bars, the hand as clickable cards, and what the last round did.
(function () {
  "use strict";
  const SUITS = { R: "Rock", P: "Paper", S: "Scissors", L: "Lizard", W: "Water", X: "Joker" };
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
    return node;
  };

  function card(id, opts = {}) {
    if (!id) return el("div", { class: `dw-card back ${opts.small ? "small" : ""}`, title: "face down" });
    const suit = id[0];
    const rank = suit === "X" ? "★" : id.slice(1);
    return el("div", {
      class: `dw-card ${suit} ${opts.small ? "small" : ""} ${opts.playable ? "playable" : ""} ${opts.selected ? "selected" : ""}`,
      "data-card": id, title: suit === "X" ? "Joker" : `${rank} of ${SUITS[suit]}`, onclick: opts.onclick,
      role: opts.onclick ? "button" : null,
    }, el("span", { class: "rank" }, rank), el("span", { class: "suit" }, SUITS[suit]));
  }

  const fmt = (n) => (n === null || n === undefined ? "" : String(n));
  const nameOf = (ctx, seat) => {
    const s = ctx.match && ctx.match.seats ? ctx.match.seats.find((x) => x.seat === seat) : null;
    return s ? s.label : `Seat ${seat}`;
  };

  function players(view, ctx) {
    return el("div", { class: "dw-players" }, view.players.map((p) => {
      const hand = p.hand || (view.seat_views ? view.seat_views[p.seat].hand : null);
      const low = p.health <= 25;
      return el("section", {
        class: `dw-player ${p.attacker ? "attacker" : ""} ${p.alive ? "" : "out"}`, "data-testid": `player-${p.seat}`,
      },
        el("h4", {}, el("span", { class: `seat-chip seat-${p.seat}` }, nameOf(ctx, p.seat) + (p.seat === ctx.seat ? " (you)" : "")),
          el("span", { "data-testid": `health-${p.seat}` }, `${fmt(p.health)} HP`)),
        el("div", { class: `hp-bar ${low ? "low" : ""}` }, el("span", { style: `width:${Math.max(0, p.health)}%` })),
        el("p", { class: "small muted" },
          p.attacker ? "Attacking this round. " : "",
          !p.alive ? "Knocked out. " : "",
          p.has_defended ? "Defence chosen (face down). " : ""),
        p.seat === ctx.seat ? null : el("div", { class: "dw-hand" },
          hand ? hand.map((c) => card(c, { small: true })) : Array.from({ length: p.hand_size }, () => card(null, { small: true }))),
      );
    }));
  }

  function lastRound(view, ctx) {
    const r = view.last_round;
    if (!r) return el("p", { class: "muted" }, "No round played yet.");
    const rows = r.defences.map((d) => el("tr", { "data-testid": `damage-${d.seat}` },
      el("td", {}, nameOf(ctx, d.seat)),
      el("td", {}, card(d.card, { small: true })),
      el("td", {}, d.relation || ""),
      el("td", {}, d.multiplier === null ? "" : `×${d.multiplier}`),
      el("td", { class: "damage" }, r.spell === "heal" ? "" : `−${fmt(d.damage)}`)));
    return el("div", { class: "dw-round", "data-testid": "last-round" },
      el("h3", {}, `Round ${r.round}: ${nameOf(ctx, r.attacker)} ${r.spell === "heal" ? "heals" : "attacks"} with ${r.cards_name}`,
        r.inverted_by_joker ? " (a Joker turned the suits around)" : ""),
      el("div", { class: "dw-hand" }, (r.heal_cards || [r.attack]).map((c) => card(c, { small: true }))),
      r.spell === "heal"
        ? el("p", { class: "heal", "data-testid": "heal" }, `+${fmt(r.healed)} health${r.heal_halved ? " (halved by a stronger defence)" : ""}`)
        : null,
      el("table", {}, el("tbody", {}, rows)),
      r.knocked_out && r.knocked_out.length ? el("p", { class: "damage" }, `Knocked out: ${r.knocked_out.map((s) => nameOf(ctx, s)).join(", ")}`) : null);
  }

  function myHand(view, ctx, root) {
    if (ctx.seat === null || ctx.seat === undefined || !view.hand) return null;
    const legal = view.legal_actions || [];
    const byCard = new Map();
    for (const a of legal) if (a.card) byCard.set(a.card, a);
    const heals = legal.filter((a) => a.type === "heal");
    let prompt = "Waiting for the others…";
    if (legal.length && view.phase === "defend") prompt = "Choose your defence: click a card. It stays face down until the attack.";
    if (legal.length && view.phase === "attack") prompt = "Attack: click a card" + (heals.length ? ", or heal with all three." : ".");
    if (view.phase === "over") prompt = "";
    return el("section", { "data-testid": "my-hand" },
      el("p", { class: "dw-prompt", "data-testid": "prompt" }, prompt),
      view.my_defence ? el("p", { class: "small", "data-testid": "my-defence" }, "Your defence, face down: ", card(view.my_defence, { small: true })) : null,
      el("div", { class: "dw-hand" }, view.hand.map((c) => {
        const action = byCard.get(c);
        return card(c, {
          playable: !!action, selected: view.my_defence === c,
          onclick: action ? () => { root.querySelectorAll(".dw-card.playable").forEach((x) => x.classList.remove("playable")); ctx.act(action); } : null,
        });
      })),
      heals.map((a) => el("button", { class: "primary", "data-testid": "heal-button", onclick: () => ctx.act(a) }, `Heal with ${a.cards.join(" ")}`)));
  }

  function result(view, ctx) {
    if (!view.result) return null;
    const winners = view.result.winners.map((s) => nameOf(ctx, s)).join(" and ");
    return el("p", { class: "dw-result", "data-testid": "result" }, `Game over: ${winners} win${view.result.winners.length > 1 ? "" : "s"}.`);
  }

  function render(root, view, ctx) {
    const parts = [
      result(view, ctx),
      el("p", { class: "small muted" }, `Round ${view.round} · draw pile ${view.pile_size} · phase ${view.phase}`),
      players(view, ctx),
      myHand(view, ctx, root),
      lastRound(view, ctx),
    ];
    root.replaceChildren(...parts.filter(Boolean));
  }

  (window.GameRenderers = window.GameRenderers || {})["dueling-wizards"] = { render };
})();
