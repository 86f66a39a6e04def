// Dueling Wizards: health bars, the hand as clickable cards, and what the last round did.
// At a real table (tabletop mode) a wizard enters their own private draws by clicking the
// cards they drew on a picture of every card they cannot already see.
(function () {
  "use strict";
  const SUITS = { R: "Rock", P: "Paper", S: "Scissors", L: "Lizard", W: "Water", X: "Joker" };
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  // The engine's canonical order: Rock, Paper, Scissors, Lizard, Water, then the Jokers.
  const SUIT_ROWS = ["R", "P", "S", "L", "W"].map((s) => RANKS.map((r) => s + r));
  const JOKERS = ["X1", "X2", "X3", "X4", "X5"];
  const COUNT_WORDS = { 1: "one card", 2: "two cards", 3: "three cards" };
  // The cards clicked so far for the pending draw; kept across re-renders of the same draw.
  let picking = { key: null, cards: [] };
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

  const RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };  // engines/dueling_wizards/deck.py

  function card(id, opts = {}) {
    if (!id) return el("div", { class: `dw-card back ${opts.small ? "small" : ""}`, title: "face down" });
    const suit = id[0];
    const rank = suit === "X" ? "★" : id.slice(1);
    return el("div", {
      class: `dw-card ${suit} ${opts.small ? "small" : ""} ${opts.playable ? "playable" : ""} ${opts.selected ? "selected" : ""}`,
      // Named as the log names it ("Queen of Rock", not "Q of Rock"): a screen reader says the same
      // card the log then reports.
      "data-card": id, title: suit === "X" ? "Joker" : `${RANK_NAMES[rank] || rank} of ${SUITS[suit]}`, onclick: opts.onclick,
      role: opts.onclick ? "button" : null,
      // A card that acts is reached with Tab and played with Enter or Space, like a button.
      tabindex: opts.onclick ? "0" : null,
      onkeydown: opts.onclick ? (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); opts.onclick(ev); } } : null,
    }, el("span", { class: "rank" }, rank), el("span", { class: "suit" }, SUITS[suit]));
  }

  const fmt = (n) => (n === null || n === undefined ? "" : String(n));
  const nameOf = (ctx, seat) => {
    const s = ctx.match && ctx.match.seats ? ctx.match.seats.find((x) => x.seat === seat) : null;
    return s ? s.label : `Seat ${seat}`;
  };

  // A private draw due now (tabletop): the drawer clicks the cards drawn, everyone else waits.
  function drawEntry(view, ctx) {
    const m = ctx.match;
    const spec = m && m.chance;
    if (!ctx.live || !spec || spec.kind !== "draw" || ctx.mode !== "tabletop") return null;
    const enteredBy = m.chance_entered_by || [];
    const count = COUNT_WORDS[spec.count] || `${spec.count} cards`;
    if (ctx.seat === null || ctx.seat === undefined || !enteredBy.includes(ctx.seat)) {
      const who = enteredBy.map((s) => nameOf(ctx, s)).join(" or ") || "nobody";
      return el("p", { class: "dw-prompt", "data-testid": "draw-waiting" },
        `Waiting for ${who} to enter the ${count} they drew from the draw pile.`);
    }
    const key = `${m.id}:${m.head_seq}`;
    if (picking.key !== key) picking = { key, cards: [] };
    // Every card this seat cannot see already: not in its hand, not its face-down defence,
    // not in the discard. The others' hands are among them: this seat cannot tell them apart.
    const known = new Set([...(view.hand || []), view.my_defence, ...(view.discard || [])]);
    const rows = [...SUIT_ROWS, view.jokers ? JOKERS : []]
      .map((row) => row.filter((c) => !known.has(c)))
      .filter((row) => row.length);

    function build() {
      const chosen = picking.cards;
      const full = chosen.length === spec.count;
      const toggle = (c) => () => {
        if (chosen.includes(c)) picking.cards = chosen.filter((x) => x !== c);
        else if (!full) picking.cards = [...chosen, c];
        section.replaceWith((section = build()));
      };
      const node = el("section", { class: "dw-draw card stack", "data-testid": "draw-entry" },
        el("h3", {}, `Your draw: ${count}`),
        el("p", { class: "dw-prompt your-turn", "data-testid": "draw-prompt" },
          `Click the ${count} you drew from the draw pile (${spec.pool} cards), in the order you drew them.`),
        el("div", { "data-testid": "draw-cards" }, rows.map((row) => el("div", { class: "dw-hand", style: "gap:.3rem;margin:.3rem 0" },
          row.map((c) => card(c, { small: true, playable: !full || chosen.includes(c),
            selected: chosen.includes(c), onclick: toggle(c) }))))),
        el("p", { class: "small", "data-testid": "draw-chosen" },
          `Chosen ${chosen.length} of ${spec.count}`, chosen.length ? ": " : "", chosen.map((c) => card(c, { small: true }))),
        el("button", {
          class: "primary", type: "button", "data-testid": "record-draw", disabled: !full,
          // One press, one request: a refused draw (its error shown by the page) can be fixed and sent again.
          onclick: (ev) => { ev.target.disabled = true; ctx.recordChance({ cards: picking.cards }).then(() => { ev.target.disabled = false; }); },
        }, "Record my draw"));
      return node;
    }
    let section = build();
    return section;
  }

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
          // A wizard who left (resigned, or out of time) is out as a knocked-out one is, and says so.
          !p.alive ? (((ctx.match && ctx.match.seats[p.seat]) || {}).left ? "Left the duel. " : "Knocked out. ") : "",
          p.has_defended ? "Defence chosen (face down). " : "",
          view.draw && view.draw.seat === p.seat ? `Drawing ${COUNT_WORDS[view.draw.count] || view.draw.count}. ` : ""),
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
        r.circle_turned === undefined
          ? (r.inverted_by_joker ? " (a Joker turned the suits around)" : "")
          : (r.inverted_by_joker ? " (on the reversed circle)" : "")),
      r.jokers ? el("p", { class: "small", "data-testid": "joker-note" }, r.circle_turned
        ? (r.inverted_by_joker ? "A Joker reversed the circle of strength from this round on."
          : "A Joker turned the circle of strength back from this round on.")
        : "The Jokers cancelled out: the circle of strength stayed as it was.") : null,
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
    if (view.draw) prompt = "";
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
      view.circle_reversed
        ? el("p", { class: "dw-prompt", "data-testid": "circle-reversed" },
          "The circle of strength is reversed: weaker and stronger, weakest and strongest are swapped.")
        : null,
      drawEntry(view, ctx),
      players(view, ctx),
      myHand(view, ctx, root),
      lastRound(view, ctx),
    ];
    root.replaceChildren(...parts.filter(Boolean));
  }

  // entersDraws: this page takes a tabletop draw as clicked cards (match.js leaves it alone).
  (window.GameRenderers = window.GameRenderers || {})["dueling-wizards"] = { render, entersDraws: true };
})();
