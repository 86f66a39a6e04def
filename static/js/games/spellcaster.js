// SpellCaster: the elemental board as inline SVG (points split into the colours of their active
// elements, paths in their colours, casters and familiars), each caster's sheet (Life track,
// Will tokens, familiar pairs, spell display), the last contest with its rolls and margin, and
// click-to-act controls built only from the view's legal_actions (this file never invents a move).
// At a real table (tabletop mode) people enter d10 rolls by clicking die faces and the drawer
// enters a private draw by clicking the card drawn.
(function () {
  "use strict";
  const SVGNS = "http://www.w3.org/2000/svg";
  // Dark enough for white text on them (4.5:1, WCAG AA).
  const COLOUR = { fire: "#c8391f", earth: "#23813a", water: "#2f6fde", air: "#6b7079" };
  const SEAT_COLOUR = ["#7b3fc4", "#9a5a00", "#0c7678", "#c2185b"];
  const ELEMENTS = ["fire", "earth", "water", "air"];
  const UNIT = 110; // one board unit in SVG units
  const PAD = 50;
  const BAND_WORDS = {
    win_discard: "caster wins (d ≥ 4): the opponent's token leaves play",
    win_return: "caster wins (d 2-3): the opponent takes the token back",
    locked: "locked (d between −4 and +1)",
    broken: "the spell is broken (d ≤ −5)",
  };
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

  function build(node, attrs, children) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) node.setAttribute(k === "className" ? "class" : k, v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
    return node;
  }
  const el = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);
  const sv = (tag, attrs, ...children) => build(document.createElementNS(SVGNS, tag), attrs, children);

  function injectStyle() {
    if (document.getElementById("sc-style")) return;
    const css = `
      .sc { display: grid; grid-template-columns: minmax(320px, 1.1fr) 1fr; gap: 1rem; align-items: start; }
      @media (max-width: 900px) { .sc { grid-template-columns: 1fr; } }
      .sc svg { width: 100%; height: auto; background: #fbfaf6; border-radius: 12px; border: 1px solid #ddd; }
      .sc-point.clickable { cursor: pointer; }
      .sc-point.clickable circle.ring { stroke: #111; stroke-width: 5; stroke-dasharray: 8 5; }
      .sc-casters { display: grid; grid-template-columns: repeat(auto-fit, minmax(250px, 1fr)); gap: .6rem; }
      .sc-caster { border: 2px solid #ddd; border-radius: 10px; padding: .5rem .6rem; }
      .sc-caster.active { border-color: #333; box-shadow: 0 0 0 3px #ffe08a; }
      .sc-caster.out { opacity: .5; }
      .sc-caster h4 { margin: 0 0 .3rem; display: flex; justify-content: space-between; gap: .5rem; }
      .sc-track { display: flex; flex-wrap: wrap; gap: 2px; margin: .2rem 0; }
      .sc-sq { width: 18px; height: 18px; font-size: 11px; text-align: center; line-height: 18px; border: 1px solid #bbb; border-radius: 3px; }
      .sc-sq.lost { background: #eee; color: #bbb; text-decoration: line-through; }
      .sc-sq.top { background: #ffe08a; font-weight: bold; }
      .sc-spell { border: 1px dashed #bbb; border-radius: 8px; padding: .25rem .4rem; margin: .25rem 0; font-size: 13px; }
      .sc-card { display: inline-block; min-width: 26px; padding: 1px 4px; margin: 1px; border-radius: 4px; color: #fff; font-size: 12px; text-align: center; }
      .sc-card.down { background-image: repeating-linear-gradient(45deg, rgba(255,255,255,.25) 0 4px, transparent 4px 8px); }
      .sc-controls button { margin: .15rem; }
      .sc-prompt { font-weight: bold; margin: .3rem 0; }
      .sc-contest { border: 1px solid #ccc; border-radius: 8px; padding: .4rem .6rem; margin: .4rem 0; }
      .sc-die { display: inline-block; width: 30px; height: 30px; line-height: 30px; text-align: center; border: 2px solid #333; border-radius: 6px; margin: 2px; font-weight: bold; cursor: pointer; background: #fff; }
      .sc-die.chosen { background: #ffe08a; }
      .sc-legend { font-size: 12px; color: #555; }
    `;
    document.head.append(el("style", { id: "sc-style" }, css));
  }

  const nameOf = (ctx, seat) => {
    const s = ctx.match && ctx.match.seats ? ctx.match.seats.find((x) => x.seat === seat) : null;
    return s ? s.label : `Seat ${seat}`;
  };
  const spellName = (ctx, ref) => {
    const [owner, slot] = ref.split(":").map(Number);
    return `${nameOf(ctx, owner)}'s spell ${slot + 1}`;
  };

  function cardChip(card) {
    const label = card.value === null || card.value === undefined ? "?" : String(card.value);
    return el("span", {
      class: `sc-card${card.open ? "" : " down"}`, style: `background:${COLOUR[card.element]}`,
      title: `${cap(card.element)}${card.value ? ` ${card.value}` : ""}${card.open ? "" : " (face down)"}`,
      "data-testid": "card",
    }, `${cap(card.element)[0]}${label}`);
  }

  // -- the board -------------------------------------------------------------------------------------
  function boardSvg(view, ctx, clicks) {
    const pts = view.board.points;
    const xy = (p) => [PAD + pts[p].xy[0] * UNIT, PAD + pts[p].xy[1] * UNIT];
    const size = PAD * 2 + 4 * UNIT;
    const svg = sv("svg", { viewBox: `0 0 ${size} ${size}`, "data-testid": "board-svg", role: "img",
      "aria-label": "The elemental board" });
    // paths: parallel lines, one per element joining the two points
    const byPair = new Map();
    for (const path of view.board.paths) {
      const k = path.between.join("-");
      if (!byPair.has(k)) byPair.set(k, []);
      byPair.get(k).push(path.element);
    }
    for (const [k, elements] of byPair) {
      const [a, b] = k.split("-");
      const [x1, y1] = xy(a);
      const [x2, y2] = xy(b);
      const len = Math.hypot(x2 - x1, y2 - y1);
      const nx = -(y2 - y1) / len;
      const ny = (x2 - x1) / len;
      elements.forEach((e, i) => {
        const off = (i - (elements.length - 1) / 2) * 6;
        svg.append(sv("line", { x1: x1 + nx * off, y1: y1 + ny * off, x2: x2 + nx * off, y2: y2 + ny * off,
          stroke: COLOUR[e], "stroke-width": 4, "stroke-linecap": "round", "data-path": `${k}:${e}` }));
      });
    }
    // during a move: the paths of the Motion card's colour out of the familiar's point, thick and dashed
    const pr = view.prompt;
    if (pr && pr.p === "steps" && ctx.live) {
      const [owner, slot] = pr.spell.split(":").map(Number);
      const sp = view.casters[owner].display[slot];
      const card = sp && sp.motion[pr.card];
      if (sp && sp.point && card) {
        for (const path of view.board.paths) {
          if (path.element !== card.element || !path.between.includes(sp.point)) continue;
          const [a, b] = path.between;
          const [x1, y1] = xy(a);
          const [x2, y2] = xy(b);
          svg.append(sv("line", { x1, y1, x2, y2, stroke: COLOUR[card.element], "stroke-width": 12, opacity: 0.45,
            "stroke-dasharray": "14 8", "data-testid": "move-path" }));
        }
      }
    }
    // points: pie slices in the colours of the active elements
    const R = 26;
    for (const p of Object.keys(pts)) {
      const [cx, cy] = xy(p);
      const active = ELEMENTS.filter((e) => pts[p].active.includes(e));
      const click = clicks.get(p);
      const g = sv("g", { class: `sc-point${click ? " clickable" : ""}`, "data-point": p, "data-testid": `point-${p}`,
        onclick: click ? () => click() : null });
      if (active.length === 1) g.append(sv("circle", { cx, cy, r: R, fill: COLOUR[active[0]] }));
      else {
        active.forEach((e, i) => {
          const a0 = (2 * Math.PI * i) / active.length - Math.PI / 2;
          const a1 = (2 * Math.PI * (i + 1)) / active.length - Math.PI / 2;
          const d = `M${cx},${cy} L${cx + R * Math.cos(a0)},${cy + R * Math.sin(a0)} A${R},${R} 0 0 1 ${cx + R * Math.cos(a1)},${cy + R * Math.sin(a1)} Z`;
          g.append(sv("path", { d, fill: COLOUR[e] }));
        });
      }
      g.append(sv("circle", { class: "ring", cx, cy, r: R + 3, fill: "none", stroke: click ? "#111" : "#fff", "stroke-width": 2 }));
      g.append(sv("title", {}, `${p}: ${active.map(cap).join(", ")} active`));
      g.append(sv("text", { x: cx, y: cy + R + 16, "text-anchor": "middle", "font-size": 13, fill: "#444" }, p));
      svg.append(g);
    }
    // casters (large discs) and familiars (small diamonds with pair numbers)
    const crowd = new Map();
    const slotAt = (p) => { const n = crowd.get(p) || 0; crowd.set(p, n + 1); return n; };
    view.casters.forEach((c) => {
      if (!c.alive || !c.point) return;
      const [cx, cy] = xy(c.point);
      const n = slotAt(c.point);
      const ox = [-14, 14, -14, 14][n % 4];
      const oy = [-14, -14, 14, 14][n % 4];
      svg.append(sv("g", { "data-testid": `caster-${c.seat}`, "data-point": c.point },
        sv("circle", { cx: cx + ox, cy: cy + oy, r: 13, fill: SEAT_COLOUR[c.seat], stroke: "#fff", "stroke-width": 3 }),
        sv("text", { x: cx + ox, y: cy + oy + 5, "text-anchor": "middle", "font-size": 13, fill: "#fff", "font-weight": "bold" }, String(c.seat + 1)),
        sv("title", {}, `${nameOf(ctx, c.seat)} (caster)`)));
    });
    view.casters.forEach((c) => (c.display || []).forEach((sp) => {
      if (!sp || !sp.point || !["launched", "wild"].includes(sp.state)) return;
      const [cx, cy] = xy(sp.point);
      const n = slotAt(sp.point);
      const ox = [30, -30, 0, 0][n % 4];
      const oy = [0, 0, -32, 32][n % 4];
      const colour = sp.state === "wild" ? "#999" : SEAT_COLOUR[sp.familiar ? sp.familiar[0] : c.seat];
      const motion = sp.motion.map((m) => `${cap(m.element)} ${m.value}`).join(", ");
      svg.append(sv("g", { "data-testid": `familiar-${sp.spell}`, "data-state": sp.state },
        sv("rect", { x: cx + ox - 10, y: cy + oy - 10, width: 20, height: 20, transform: `rotate(45 ${cx + ox} ${cy + oy})`,
          fill: colour, stroke: "#000", "stroke-width": 1.5, "stroke-dasharray": sp.state === "wild" ? "3 2" : null }),
        sv("text", { x: cx + ox, y: cy + oy + 4, "text-anchor": "middle", "font-size": 11, fill: "#fff" }, sp.familiar ? String(sp.familiar[1]) : "?"),
        sv("title", {}, `${spellName(ctx, sp.spell)} (${sp.state}); Motion: ${motion}`)));
    }));
    return svg;
  }

  // -- each caster's sheet -------------------------------------------------------------------------
  function sheet(view, ctx, c) {
    const t = view.turn;
    const active = t && t.seat === c.seat;
    const attrs = c.attributes;
    const squares = c.squares || [];
    const lost = squares.length - c.life;
    const track = el("div", { class: "sc-track", "data-testid": `life-${c.seat}`, title: "Life Force track: action points per square" },
      squares.map((ap, i) => el("span", { class: `sc-sq${i < lost ? " lost" : ""}${i === lost ? " top" : ""}` }, String(ap))),
      el("span", { class: "sc-sq lost" }, "End"));
    const spells = (c.display || []).map((sp, i) => {
      if (!sp) return el("div", { class: "sc-spell muted", "data-testid": `spell-${c.seat}-${i}` }, `Space ${i + 1}: empty`);
      return el("div", { class: "sc-spell", "data-testid": `spell-${c.seat}-${i}`, "data-state": sp.state },
        el("div", {}, el("strong", {}, `Spell ${i + 1}`), ` · ${sp.state}`,
          sp.total !== null && sp.total !== undefined ? ` · total ${sp.total}/${attrs ? attrs.skill : "?"}` : "",
          sp.tokens.length ? ` · tokens: ${sp.tokens.map((s) => nameOf(ctx, s)).join(", ")}` : "",
          sp.lock !== null ? ` · locked with ${nameOf(ctx, sp.lock)}` : "",
          sp.point ? ` · familiar at ${sp.point}` : ""),
        el("div", {}, "Motion: ", sp.motion.length ? sp.motion.map(cardChip) : "—"),
        el("div", {}, "Mass: ", sp.mass.length ? sp.mass.map(cardChip) : "—"));
    });
    const faceUp = ELEMENTS.flatMap((e) => (c.face_up[e] || []).map((id) => ({ id, element: e, value: Number(id.split("-")[2]), open: true })));
    return el("section", { class: `sc-caster${active ? " active" : ""}${c.alive ? "" : " out"}`, "data-testid": `caster-sheet-${c.seat}` },
      el("h4", {}, el("span", { style: `color:${SEAT_COLOUR[c.seat]}` }, `● ${nameOf(ctx, c.seat)}${c.seat === ctx.seat ? " (you)" : ""}`),
        el("span", { class: "small" }, c.alive ? (c.point ? `at ${c.point}` : "") : "exhausted")),
      attrs
        ? el("p", { class: "small" }, `Life Force ${attrs.life_force} · Will ${attrs.will} · Focus ${attrs.focus} · Skill ${attrs.skill}`)
        : el("p", { class: "small muted" }, c.allocated ? "Attributes allocated (secret until all have)" : "Allocating attributes…"),
      attrs ? track : null,
      attrs ? el("p", { class: "small", "data-testid": `tokens-${c.seat}` },
        `Will tokens: ${c.tokens} unused, ${c.tokens_on_spells} on spells, ${c.tokens_discarded} gone · familiar pairs free: ${c.free_pairs}`) : null,
      attrs ? el("p", { class: "small" }, "Decks (face down): ", ELEMENTS.map((e) => el("span", { class: "sc-card down", style: `background:${COLOUR[e]}` }, `${c.pool_sizes[e]}`)),
        faceUp.length ? [" · face up: ", faceUp.map(cardChip)] : null) : null,
      c.hand && c.hand.length ? el("p", { class: "small" }, "Drawn: ", c.hand.map(cardChip)) : null,
      spells);
  }

  function contestPanel(view, ctx) {
    const last = view.last;
    if (!last || !["contest", "capture", "impact", "rest"].includes(last.kind)) return null;
    if (last.kind === "contest") {
      return el("section", { class: "sc-contest", "data-testid": "contest" },
        el("h4", {}, `Contest of Wills over ${spellName(ctx, last.spell)}`),
        el("p", {}, `${nameOf(ctx, last.caster)}: rolled ${last.rolls[0]} + ${last.tokens[0]} unused tokens = ${last.totals[0]}`),
        el("p", {}, `${nameOf(ctx, last.opponent)}: rolled ${last.rolls[1]} + ${last.tokens[1]} unused tokens = ${last.totals[1]}`),
        el("p", { "data-testid": "contest-margin" }, `Margin ${last.margin > 0 ? "+" : ""}${last.margin}: ${BAND_WORDS[last.band]}`));
    }
    if (last.kind === "capture") {
      return el("section", { class: "sc-contest", "data-testid": "contest" },
        el("h4", {}, `Capture of ${spellName(ctx, last.spell)}`),
        el("p", {}, `${nameOf(ctx, last.seat)} rolled ${last.roll} + ${last.tokens} = ${last.total}: ${last.captured ? "captured (6 or more)" : "failed"}`));
    }
    if (last.kind === "impact") {
      return el("section", { class: "sc-contest", "data-testid": "impact" },
        el("h4", {}, `Impact at ${last.point}`),
        el("p", {}, `${spellName(ctx, last.spell)} strikes ${last.struck.map((s) => nameOf(ctx, s)).join(", ")} for ${last.damage}.`));
    }
    return null;
  }

  // -- controls ------------------------------------------------------------------------------------
  function label(action, view, ctx) {
    switch (action.type) {
      case "allocate": return `Life +${action.life_force}, Will +${action.will}, Focus +${action.focus}, Skill +${action.skill}`;
      case "conjure": return action.cards === 3 ? "Conjure: draw 3, keep 1 face up" : "Conjure: draw 1 (face down or back face up)";
      case "draw": return ELEMENTS.includes(action.from) ? `Draw from the ${cap(action.from)} deck` : `Take face-up ${action.from.split("-")[1]} ${action.from.split("-")[2]}`;
      case "keep": {
        const card = view.casters[ctx.seat].hand[action.card];
        return `Keep ${cap(card.element)} ${card.value} → spell ${action.spell + 1} ${action.section}`;
      }
      case "keep_none": return "Nothing fits: return all face down";
      case "place": return `Place face down → spell ${action.spell + 1} ${action.section}`;
      case "return_up": return "Return it face up to the deck";
      case "launch": return `Launch ${spellName(ctx, action.spell)}`;
      case "no_launch": return "Do not launch";
      case "will": return action.place ? "Place a Will token (contest)" : "Do not contest";
      case "contest": return `Resolve the contest with ${nameOf(ctx, action.with)}`;
      case "step": return `Familiar → ${action.to}`;
      case "move": return `Move to ${action.to}`;
      case "rest": return "Rest";
      case "return": {
        const top = view.prompt;
        const cards = top && top.cards ? top.cards : [];
        const up = cards.filter((_, i) => action.up.includes(i)).map((c) => `${cap(c.element)} ${c.value ?? "?"}`);
        return up.length ? `Return; face up: ${up.join(", ")}` : "Return all face down";
      }
      case "continue": return `Continue the contest over ${spellName(ctx, action.spell)}`;
      case "withdraw": return `Withdraw from the contest over ${spellName(ctx, action.spell)}`;
      case "control": return `Control ${spellName(ctx, action.spell)}`;
      case "abandon": return `Abandon ${spellName(ctx, action.spell)}`;
      case "capture": return `Capture wild ${spellName(ctx, action.spell)}`;
      case "free_launch": return `Launch ${spellName(ctx, action.spell)} (free, uncontested)`;
      case "end_turn": return "End turn";
      case "wild_pick": return `Move wild ${spellName(ctx, action.spell)}`;
      case "wild_pass": return "Pass (move no more wild spells)";
      case "wild_next": return `Select ${nameOf(ctx, action.seat)} next`;
      default: return action.type;
    }
  }

  function testId(action) {
    const parts = [action.type];
    for (const k of ["cards", "from", "card", "spell", "section", "to", "with", "seat", "place"]) {
      if (action[k] !== undefined) parts.push(String(action[k]).replace(/[:]/g, "-"));
    }
    if (action.up) parts.push(action.up.length ? action.up.join("") : "down");
    if (action.type === "allocate") parts.push(action.life_force, action.will, action.focus, action.skill);
    return `act-${parts.join("-")}`;
  }

  function promptText(view, ctx, legal) {
    if (view.result) return "";
    if (!legal.length) {
      const who = (view.to_move || []).filter((s) => s >= 0).map((s) => nameOf(ctx, s)).join(", ");
      return who ? `Waiting for ${who}…` : "Waiting for a roll or a draw…";
    }
    const p = view.prompt ? view.prompt.p : null;
    if (view.phase === "allocate") return "Allocate your six attribute points (at most two on Life Force). The others will not see them until everyone has.";
    if (p === "steps") return "Move the familiar: click a highlighted point (a path of the Motion card's colour).";
    if (p === "draw") return "Choose where to draw from (only elements active at your point).";
    if (p === "keep") return "Keep one card face up on your display; the others go back face down.";
    if (p === "place") return "Place the card face down on your display, or return it face up.";
    if (p === "launch") return "Launch a complete spell now?";
    if (p === "contest") return "A Contest of Wills: decide.";
    if (p === "return") return "The spell's cards go back to your decks: choose which go face up.";
    if (p === "wild_pick") return "Wild spells move: pick one to move by its next Motion card, or pass.";
    if (p === "wild_next") return "Select the next player to pick or pass.";
    const t = view.turn;
    if (t) return `Your turn: ${t.left} of ${t.ap} action points left.${t.obligations.length ? ` Still to do: ${t.obligations.join("; ")}.` : ""}`;
    return "Your move.";
  }

  // The secret allocation: four counters and one button, which sends the matching legal action.
  const ATTRS = [["life_force", "Life Force", 1], ["will", "Will", 1], ["focus", "Focus", 2], ["skill", "Skill", 5]];
  let alloc = { key: null, points: {} };
  function allocationPicker(view, ctx, legal) {
    const key = ctx.match ? ctx.match.id : "match";
    if (alloc.key !== key) alloc = { key, points: { life_force: 0, will: 0, focus: 0, skill: 0 } };
    const pts = alloc.points;
    const spent = ATTRS.reduce((n, [k]) => n + pts[k], 0);
    const match = legal.find((a) => ATTRS.every(([k]) => a[k] === pts[k]));
    let node = null;
    const redraw = () => { const fresh = allocationPicker(view, ctx, legal); node.replaceWith(fresh); };
    const bump = (k, d) => () => { pts[k] = Math.max(0, pts[k] + d); redraw(); };
    node = el("section", { class: "sc-contest", "data-testid": "allocation" },
      el("p", { class: "small" }, `Points left: ${6 - spent} of 6 (at most 2 on Life Force)`),
      ATTRS.map(([k, name, base]) => el("div", { "data-testid": `alloc-${k}` },
        el("button", { "data-testid": `alloc-${k}-minus`, disabled: pts[k] === 0 ? "disabled" : null, onclick: bump(k, -1) }, "−"),
        el("button", { "data-testid": `alloc-${k}-plus`, disabled: spent >= 6 || (k === "life_force" && pts[k] >= 2) ? "disabled" : null,
          onclick: bump(k, 1) }, "+"),
        ` ${name}: ${base + pts[k]} (+${pts[k]})`)),
      el("button", { class: "primary", "data-testid": "allocate-confirm", disabled: match ? null : "disabled",
        onclick: () => match && ctx.act(match) }, "Allocate"));
    return node;
  }

  function controls(view, ctx) {
    const legal = ctx.live && ctx.seat !== null && ctx.seat !== undefined ? view.legal_actions || [] : [];
    if (legal.length && legal[0].type === "allocate") {
      return el("section", { class: "sc-controls", "data-testid": "controls", "data-my-turn": "true" },
        el("p", { class: "sc-prompt", "data-testid": "prompt" }, promptText(view, ctx, legal)),
        allocationPicker(view, ctx, legal));
    }
    const buttons = legal.filter((a) => a.type !== "step" && a.type !== "move")
      .map((a) => el("button", { class: a.type === "end_turn" ? "primary" : "", "data-testid": testId(a), onclick: () => ctx.act(a) }, label(a, view, ctx)));
    const t = view.turn;
    if (legal.length && t && t.seat === ctx.seat && !view.prompt && !legal.some((a) => a.type === "end_turn")) {
      buttons.push(el("button", { disabled: "disabled", "data-testid": "end-turn-blocked",
        title: t.obligations.join("; ") }, `End turn (first: ${t.obligations.join("; ")})`));
    }
    const moves = legal.filter((a) => a.type === "move" || a.type === "step");
    return el("section", { class: "sc-controls", "data-testid": "controls", "data-my-turn": legal.length ? "true" : "false" },
      el("p", { class: "sc-prompt", "data-testid": "prompt" }, promptText(view, ctx, legal)),
      moves.length ? el("p", { class: "small" }, "Or click a highlighted point on the board: ",
        moves.map((a) => el("button", { "data-testid": testId(a), onclick: () => ctx.act(a) }, label(a, view, ctx)))) : null,
      el("div", {}, buttons));
  }

  // -- tabletop entry: die faces and drawn cards are clicked, never typed ---------------------------------
  let picked = { key: null, dice: [] };
  function tabletopEntry(view, ctx) {
    const m = ctx.match;
    const spec = m && m.chance;
    if (!ctx.live || !spec || ctx.mode !== "tabletop" || ctx.seat === null || ctx.seat === undefined) return null;
    const key = `${m.id}:${m.head_seq}`;
    if (picked.key !== key) picked = { key, dice: [] };
    if (spec.kind === "draw") {
      const enteredBy = m.chance_entered_by || spec.visible_to || [];
      if (!enteredBy.includes(ctx.seat)) return el("p", { "data-testid": "draw-waiting" }, "Waiting for the drawer to enter the card drawn.");
      const element = view.prompt && view.prompt.element;
      const pool = element ? (view.casters[ctx.seat].pool || {})[element] || [] : [];
      const distinct = [...new Set(pool.map((id) => id.split("-")[2]))];
      return el("section", { class: "sc-contest", "data-testid": "draw-entry" },
        el("h4", {}, `Your draw from the ${cap(element || "")} deck: click the card you drew`),
        distinct.map((v) => {
          const id = pool.find((x) => x.split("-")[2] === v);
          return el("button", { "data-testid": `drawn-${element}-${v}`, onclick: () => ctx.recordChance({ cards: [id] }) },
            cardChip({ element, value: Number(v), open: true }));
        }));
    }
    if (spec.kind === "dice") {
      const node = el("section", { class: "sc-contest", "data-testid": "dice-entry" }, el("h4", {}, spec.label || "Roll"));
      spec.dice.forEach(([lo, hi], i) => {
        const faces = [];
        for (let v = lo; v <= hi; v++) {
          faces.push(el("span", { class: `sc-die${picked.dice[i] === v ? " chosen" : ""}`, "data-testid": `die-${i}-face-${v}`,
            onclick: () => {
              picked.dice[i] = v;
              if (spec.dice.every((_, j) => picked.dice[j] !== undefined)) ctx.recordChance(spec.dice.map((_, j) => picked.dice[j]));
              else node.replaceWith(tabletopEntry(view, ctx));
            } }, String(v)));
        }
        node.append(el("div", {}, el("span", { class: "small" }, `Die ${i + 1}: `), faces));
      });
      return node;
    }
    return null;
  }

  function legend() {
    return el("details", { class: "sc-legend" }, el("summary", {}, "How to read the board"),
      el("ul", {},
        el("li", {}, "Each point is split into the colours of the elements active there: red Fire, green Earth, blue Water, grey Air."),
        el("li", {}, "Lines are paths, one per element that joins the two points; a familiar moves along paths of its Motion card's colour."),
        el("li", {}, "Discs are casters (numbered by seat); diamonds are familiars (spells in flight), grey and dashed when wild."),
        el("li", {}, "A card shows its element and value; a ? is face down (its value is hidden from you).")));
  }

  function render(root, view, ctx) {
    injectStyle();
    if (!view || !view.board) { root.textContent = "Waiting for the match to start…"; return; }
    const legal = ctx.live && ctx.seat !== null && ctx.seat !== undefined ? view.legal_actions || [] : [];
    const clicks = new Map();
    for (const a of legal) if (a.type === "move" || a.type === "step") clicks.set(a.to, () => ctx.act(a));
    const result = view.result
      ? el("p", { class: "sc-prompt", "data-testid": "result" },
        `Game over: ${view.result.winners.map((s) => nameOf(ctx, s)).join(" and ")} win${view.result.winners.length > 1 ? "" : "s"}` +
        `${view.result.reason === "round_limit" ? " (round limit: ranked by Life Force left)" : ""}.`)
      : null;
    const state = view.result ? "over" : !ctx.live ? "replay" : legal.length ? "mine" : "waiting";
    root.replaceChildren(el("div", { class: "sc", "data-turn-state": state, "data-phase": view.phase },
      el("div", {}, boardSvg(view, ctx, clicks),
        el("p", { class: "small muted" }, `Round ${view.max_rounds ? Math.min(view.round, view.max_rounds) : view.round}${view.max_rounds ? ` of at most ${view.max_rounds}` : ""}`), legend()),
      el("div", {}, result, tabletopEntry(view, ctx),
        ctx.live && ctx.seat !== null && ctx.seat !== undefined && !view.result ? controls(view, ctx) : null,
        contestPanel(view, ctx),
        el("div", { class: "sc-casters" }, view.casters.map((c) => sheet(view, ctx, c))))));
  }

  (window.GameRenderers = window.GameRenderers || {}).spellcaster = { render, entersDraws: true, entersDice: true };
})();
