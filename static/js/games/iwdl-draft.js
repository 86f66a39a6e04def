// IWDL draft room: the pool as stat cards, whose pick it is, each coach's team, then team building.
(function () {
  "use strict";
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
    return node;
  };
  const STATS = ["attack", "dodge", "cast", "resist"];
  const nameOf = (ctx, seat) => {
    const s = ctx.match && ctx.match.seats ? ctx.match.seats.find((x) => x.seat === seat) : null;
    return s ? s.label : `Seat ${seat}`;
  };

  function dice(colours) {
    return el("span", { class: "wd-dice" }, colours.map((c) => el("span", { class: `die ${c}`, title: c })));
  }

  function wizardCard(w, opts = {}) {
    return el("div", {
      class: `wiz-card ${opts.playable ? "playable" : ""} ${opts.small ? "small" : ""}`,
      "data-wizard": w.jersey, role: opts.onclick ? "button" : null, onclick: opts.onclick,
      title: opts.onclick ? `Pick #${w.jersey} ${w.name}` : null,
    },
      el("div", { class: "wiz-head" }, el("span", { class: "jersey" }, `#${w.jersey}`), el("span", { class: "name" }, w.name)),
      opts.small ? null : el("div", { class: "wiz-stats" },
        el("span", {}, `MOVE ${w.move}`), el("span", { class: "magic" }, `MAGIC ${w.magic}`),
        w.attack ? el("table", {}, el("tbody", {}, STATS.map((s) => el("tr", {}, el("td", {}, s.toUpperCase()), el("td", {}, dice(w[s])))))) : null));
  }

  function header(view, ctx) {
    let text = "";
    if (view.phase === "deal") text = "Shuffling the wizard stat cards…";
    if (view.phase === "choose_first") text = `${nameOf(ctx, view.choosing_first)} (player 2) decides: take the first pick or pass it.`;
    if (view.phase === "picking") text = `Pick ${view.pick_number} of ${view.picks_total}: ${nameOf(ctx, view.on_the_clock)} is on the clock.`;
    if (view.phase === "building") text = "Teams are drafted. Each coach sets a line-up and buys spells, then says ready.";
    if (view.phase === "over") text = "The draft is complete.";
    const mine = ctx.seat !== null && ctx.seat !== undefined && (view.legal_actions || []).length > 0;
    return el("div", { class: "draft-header" },
      el("p", { class: `dw-prompt ${mine ? "your-turn" : ""}`, "data-testid": "draft-status" }, text, mine && view.phase !== "building" ? " Your move." : ""));
  }

  function choice(view, ctx) {
    const legal = view.legal_actions || [];
    const buttons = legal.filter((a) => a.type === "take_first_pick" || a.type === "pass_first_pick");
    if (!buttons.length) return null;
    return el("div", { class: "row", "data-testid": "first-pick-choice" }, buttons.map((a) =>
      el("button", { class: a.type === "take_first_pick" ? "primary" : "", "data-testid": a.type, onclick: () => ctx.act({ type: a.type }) },
        a.type === "take_first_pick" ? "Take the first pick" : "Pass the first pick")));
  }

  function pool(view, ctx, root) {
    if (!view.pool.length || view.phase === "over" || view.phase === "building") return null;
    const picks = new Set((view.legal_actions || []).filter((a) => a.type === "pick").map((a) => a.wizard));
    return el("section", {},
      el("h3", {}, `Pool (${view.pool.length} face up, ${view.deck_remaining} left in the deck)`),
      el("div", { class: "wiz-grid", "data-testid": "pool" }, view.pool.map((w) => wizardCard(w, {
        playable: picks.has(w.jersey),
        onclick: picks.has(w.jersey) ? () => {
          // One pick per turn: the pool goes quiet until the next update redraws it.
          root.querySelectorAll(".wiz-card.playable").forEach((x) => x.classList.remove("playable"));
          ctx.act({ type: "pick", wizard: w.jersey });
        } : null,
      }))));
  }

  // A spell card's name from the catalogue the view carries ("slow_speed" -> "Slow / Speed").
  const spellName = (view, id) => {
    const card = (view.spell_catalogue || []).find((s) => s.id === id);
    return card ? card.name : id.replace(/_/g, " ");
  };

  function teams(view, ctx) {
    return el("section", { class: "draft-teams" }, view.teams.map((t) => el("div", {
      class: `draft-team ${view.on_the_clock === t.seat ? "on-clock" : ""}`, "data-testid": `team-${t.seat}`,
    },
      el("h4", {}, el("span", { class: `seat-chip seat-${t.seat}` }, nameOf(ctx, t.seat) + (t.seat === ctx.seat ? " (you)" : "")),
        " ", `MAGIC ${t.magic_total}`, t.ready ? el("span", { class: "badge verified" }, "ready") : null),
      el("div", { class: "wiz-row" }, t.picks.map((w) => wizardCard(w, { small: true }))),
      t.lineup ? el("p", { class: "small", "data-testid": `lineup-${t.seat}` }, "Line-up: ", t.lineup.map((j) => `#${j}`).join(" → ")) : null,
      t.spells ? el("p", { class: "small", "data-testid": `spells-${t.seat}` }, "Spells: ", t.spells.map((id) => spellName(view, id)).join(", ") || "none",
        t.spell_cost !== null ? ` (${t.spell_cost} of ${t.budget})` : "") : null,
      !t.lineup && t.lineup_set ? el("p", { class: "small muted" }, "Line-up chosen (hidden until everyone is ready).") : null)));
  }

  // Unsaved team-building choices survive re-renders (another coach's move redraws the page).
  let edits = null;

  // Team building for the viewer: order the line-up, buy spells within the MAGIC budget, say ready.
  function building(view, ctx) {
    const me = view.me;
    if (!me || view.phase !== "building" || me.ready) { edits = null; return null; }
    const team = me.team;
    const size = 5;
    if (!edits) edits = { lineup: (me.lineup && me.lineup.slice()) || team.slice(0, size), chosen: new Set(me.spells || []) };
    const lineup = edits.lineup;
    const chosen = edits.chosen;
    const byJersey = new Map(view.teams[me.seat].picks.map((w) => [w.jersey, w]));
    const magicOf = (list) => list.reduce((sum, j) => sum + byJersey.get(j).magic, 0);
    const list = el("ol", { class: "lineup", "data-testid": "lineup-editor" });
    const costLine = el("p", { class: "small", "data-testid": "budget" });
    const spellBoxes = el("div", { class: "spell-grid", "data-testid": "spell-shop" });

    function drawLineup() {
      list.replaceChildren(...lineup.map((j, i) => el("li", {},
        `#${j} ${byJersey.get(j).name} (MAGIC ${byJersey.get(j).magic}) `,
        el("button", { class: "small-btn", title: "earlier", disabled: i === 0, onclick: () => { [lineup[i - 1], lineup[i]] = [lineup[i], lineup[i - 1]]; drawLineup(); } }, "↑"),
        el("button", { class: "small-btn", title: "later", disabled: i === lineup.length - 1, onclick: () => { [lineup[i + 1], lineup[i]] = [lineup[i], lineup[i + 1]]; drawLineup(); } }, "↓"))));
      const bench = team.filter((j) => !lineup.includes(j));
      if (bench.length) list.append(el("li", { class: "muted" }, "Alternate: ", bench.map((j) => `#${j}`).join(", "),
        el("button", { class: "small-btn", onclick: () => { const out = lineup.pop(); lineup.push(bench[0]); drawLineup(); } }, "swap in for the last")));
      drawCost();
    }
    function drawCost() {
      const cost = view.spell_catalogue.filter((s) => chosen.has(s.id)).reduce((a, s) => a + s.cost, 0);
      const budget = magicOf(lineup);
      costLine.textContent = `Spells cost ${cost} of your line-up's MAGIC ${budget}.`;
      costLine.classList.toggle("error", cost > budget);
    }
    spellBoxes.append(...view.spell_catalogue.map((s) => el("label", { class: "spell-option" },
      el("input", { type: "checkbox", value: s.id, checked: chosen.has(s.id), "data-spell": s.id,
        onchange: (ev) => { if (ev.target.checked) chosen.add(s.id); else chosen.delete(s.id); drawCost(); } }),
      ` ${s.name} (${s.cost})`)));
    drawLineup();
    const save = async () => {
      await ctx.act({ type: "lineup", wizards: lineup.slice() });
    };
    return el("section", { class: "card", "data-testid": "team-building" },
      el("h3", {}, "Your team"),
      el("p", { class: "small muted" }, "Wizards activate from top to bottom."), list,
      el("h3", {}, "Spells"), spellBoxes, costLine,
      el("div", { class: "row" },
        el("button", { "data-testid": "save-lineup", onclick: save }, "Save line-up"),
        el("button", { "data-testid": "save-spells", onclick: () => ctx.act({ type: "spells", spells: view.spell_catalogue.map((s) => s.id).filter((id) => chosen.has(id)) }) }, "Save spells"),
        el("button", { class: "primary", "data-testid": "ready", disabled: !(me.lineup && me.spells), onclick: () => ctx.act({ type: "ready" }) }, "Ready: lock my team")));
  }

  function render(root, view, ctx) {
    root.replaceChildren(...[header(view, ctx), choice(view, ctx), building(view, ctx), pool(view, ctx, root), teams(view, ctx)].filter(Boolean));
  }

  (window.GameRenderers = window.GameRenderers || {})["iwdl-draft"] = { render };
})();
