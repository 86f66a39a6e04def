// Wizard Dodgeball: the court as inline SVG, the active wizard's card, the last dice, and
// click-to-act controls built only from the view's legal_actions (the engine decides what is
// legal; this file never invents a move).
(function () {
  "use strict";
  const SVGNS = "http://www.w3.org/2000/svg";
  const S = 40; // one court square, in SVG units (the SVG scales to the board's width)

  const TEAM_COLOUR = ["#2f6fde", "#c93d35"];
  const TEAM_WORD = ["Blue", "Red"];
  const DICE = { white: [0, 5], grey: [1, 6], blue: [2, 7], red: [3, 8] };
  const FACES = {
    teleport: ["Teleport", "Tp", "Moves the targets to squares of the caster's choice."],
    fireball: ["Fireball", "Fb", "A held ball burns: its throw scores 10 and cannot be caught."],
    freeze: ["Freeze", "Fr", "Cannot move, throw, pass or cast; dodges with a fixed 5."],
    shield: ["Shield", "Sh", "Shrugs off the first failed dodge or resist."],
    dispel: ["Dispel", "Di", "Removes one spell effect."],
    slow: ["Slow", "Sl", "One action point fewer per turn."],
    speed: ["Speed", "Sp", "One action point more per turn."],
    strong: ["Strong", "St", "Throws roll an extra white die."],
    weak: ["Weak", "Wk", "Throws lose the lower ATTACK die."],
    shrink: ["Shrink", "Sk", "Dodges roll an extra white die; MOVE 2 lower."],
    enlarge: ["Enlarge", "En", "Dodges lose the lower DODGE die; MOVE 2 higher."],
    butter_fingers: ["Butter Fingers", "Bu", "Drops any ball; cannot pick up, receive or catch."],
    sticky_fingers: ["Sticky Fingers", "Sy", "Cannot throw, pass or drop; catches more often."],
    magic_drain: ["Magic Drain", "Dr", "Spell range 4 shorter, 3 off CAST totals."],
    magic_boost: ["Magic Boost", "Bo", "Spell range 4 longer, 3 added to CAST totals."],
  };
  const RESULT_WORDS = {
    hit: "hit, out!", dodged: "dodged", dodged_in_place: "dodged (no room to step aside)",
    caught: "caught! The thrower is out", shielded: "the shield took it", resisted: "resisted",
    rebound: "doubles: the spell rebounds", affected: "the spell takes hold",
  };
  const CHOICE_PROMPT = {
    dodge_to: "Dodged! Click a highlighted square to step aside.",
    place_ball: "Click a highlighted square to place the ball.",
    return_wizard: "A catch! Click a wizard on your bench, then a highlighted square to bring it back.",
    teleport_to: "Click a highlighted square: where the teleported target reappears.",
  };
  const CHOICE_TYPES = new Set(Object.keys(CHOICE_PROMPT));

  // -- tiny DOM helpers ---------------------------------------------------------------
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
  const key = (sq) => `${sq[0]},${sq[1]}`;
  const faceName = (f) => (FACES[f] ? FACES[f][0] : f.replace(/_/g, " "));
  const refKey = (t) => (t.wizard !== undefined ? `wizard:${t.wizard}` : t.ball !== undefined ? `ball:${t.ball}` : `effect:${t.effect}`);

  function seatLabel(ctx, seat) {
    const s = ctx.match && ctx.match.seats ? ctx.match.seats.find((x) => x.seat === seat) : null;
    return s ? s.label : `seat ${seat}`;
  }
  function teamOfSeat(view, seat) {
    if (seat === null || seat === undefined || !view.sides) return null;
    const i = view.sides.findIndex((g) => g.includes(seat));
    return i < 0 ? null : i;
  }
  function teamName(view, ctx, team) {
    const who = (view.sides && view.sides[team] ? view.sides[team] : []).map((s) => seatLabel(ctx, s)).join(" & ");
    return `${TEAM_WORD[team]}${who ? ` (${who})` : ""}`;
  }
  const wizardLabel = (w) => `#${w.jersey} ${w.name}`;

  function die(colour, value, opts = {}) {
    const range = DICE[colour] || [0, 0];
    return el("span", {
      class: `wd-die wd-die-${colour}${opts.small ? " small" : ""}`, "data-colour": colour,
      title: `${colour} die (${range[0]}-${range[1]})${value === undefined ? "" : `: ${value}`}`,
    }, value === undefined ? "" : String(value));
  }

  // -- what the seat may do now, indexed for the board ----------------------------------
  function analyse(view, ctx) {
    const legal = ctx.live && ctx.seat !== null && ctx.seat !== undefined ? view.legal_actions || [] : [];
    const a = {
      any: legal.length > 0, choice: null, moves: new Map(), wizardActs: new Map(), pickups: new Map(),
      drops: new Map(), casts: new Map(), endTurn: null, choiceSquares: new Map(), returns: new Map(),
    };
    const push = (map, k, v) => { if (!map.has(k)) map.set(k, []); map.get(k).push(v); };
    for (const act of legal) {
      if (CHOICE_TYPES.has(act.type)) {
        a.choice = act.type;
        if (act.type === "return_wizard") {
          if (!a.returns.has(act.wizard)) a.returns.set(act.wizard, new Map());
          a.returns.get(act.wizard).set(key(act.to), act);
        } else a.choiceSquares.set(key(act.to), act);
      } else if (act.type === "move") push(a.moves, key(act.to), act);
      else if (act.type === "throw") push(a.wizardActs, act.target, act);
      else if (act.type === "pass") push(a.wizardActs, act.to, act);
      else if (act.type === "pick_up") a.pickups.set(act.ball, act);
      else if (act.type === "drop") a.drops.set(key(act.to), act);
      else if (act.type === "cast") push(a.casts, act.spell, act);
      else if (act.type === "end_turn") a.endTurn = act;
    }
    return a;
  }

  // A cast in progress: which targets may still be added, and which legal cast (if any) the
  // chosen targets make exactly. Order of clicking does not matter; the legal action is sent.
  function castState(actions, chosen) {
    const sets = actions.map((act) => ({ act, keys: new Set(act.targets.map(refKey)) }));
    const fits = sets.filter((s) => chosen.every((k) => s.keys.has(k)));
    const addable = new Set();
    for (const s of fits) for (const k of s.keys) if (!chosen.includes(k)) addable.add(k);
    const exact = fits.find((s) => s.keys.size === chosen.length);
    return { addable, exact: exact ? exact.act : null, canGrow: addable.size > 0 };
  }

  // -- per-board UI state (selection, modes) kept between renders ------------------------
  const boards = new WeakMap();
  function uiFor(root, view, ctx) {
    let ui = boards.get(root);
    const stamp = ctx.match && ctx.match.head_seq !== undefined ? `seq:${ctx.match.head_seq}` : view;
    if (!ui) { ui = {}; boards.set(root, ui); }
    if (ui.stamp !== stamp) {
      // A new position: forget half-made choices; point at the wizard whose turn it is.
      ui.stamp = stamp;
      ui.mode = null;
      ui.popover = null;
      ui.armed = true;
      ui.inspect = null;
    }
    ui.view = view;
    ui.ctx = ctx;
    return ui;
  }

  function act(ui, action) {
    ui.mode = null;
    ui.popover = null;
    ui.sent = true;
    redraw(ui);
    ui.ctx.act(action);
  }

  function redraw(ui) { render(ui.root, ui.view, ui.ctx); }

  // -- the court --------------------------------------------------------------------------
  function court(view, ctx, ui, a) {
    const c = view.court;
    const flip = teamOfSeat(view, ctx.seat) === 1; // your own half is always on the left
    const left = 26, top = 36, W = c.length * S, H = c.width * S;
    const benchTop = top + H + 40, benchH = 46;
    const vbW = left + W + 10, vbH = benchTop + benchH + 4;
    const pos = (sq) => {
      const ix = flip ? c.length - sq[1] : sq[1] - 1;
      const iy = flip ? c.width - sq[0] : sq[0] - 1;
      return [left + ix * S, top + iy * S];
    };
    const centre = (sq) => { const [x, y] = pos(sq); return [x + S / 2, y + S / 2]; };
    const rowX = (row) => pos([1, row])[0];
    const neutral = new Set(c.neutral_rows);
    const starting = new Map();
    (c.starting_rows || []).forEach((rows, team) => { for (let r = rows[0]; r <= rows[1]; r++) starting.set(r, team); });
    const zoneOf = (row) => c.zones.find((z) => row >= z.rows[0] && row <= z.rows[1] && !neutral.has(row));
    const mine = a.any && !view.result;
    const active = view.turn ? view.turn.wizard : null;
    const armed = mine && !a.choice && ui.armed;
    const cast = ui.mode && ui.mode.kind === "cast" ? castState(a.casts.get(ui.mode.face) || [], ui.mode.chosen) : null;
    const returning = a.choice === "return_wizard"
      ? (ui.mode && ui.mode.kind === "return" ? ui.mode.wizard : (a.returns.size === 1 ? [...a.returns.keys()][0] : null))
      : null;
    const dropMode = ui.mode && ui.mode.kind === "drop";

    const svg = sv("svg", {
      class: "wd-court", "data-testid": "court", viewBox: `0 0 ${vbW} ${vbH}`, role: "img",
      "aria-label": `${c.name}: ${c.width} by ${c.length} squares`, "data-flipped": flip ? "true" : "false",
    });
    const layer = (name) => svg.appendChild(sv("g", { class: `wd-layer-${name}` }));
    const squares = layer("squares"), marks = layer("marks"), items = layer("items"), labels = layer("labels");

    // Squares, shaded by zone; a square is the click target for moves and square choices.
    for (let row = 1; row <= c.length; row++) {
      for (let col = 1; col <= c.width; col++) {
        const sq = [col, row];
        const [x, y] = pos(sq);
        const z = zoneOf(row);
        const cls = ["wd-sq"];
        if (neutral.has(row)) cls.push("wd-neutral");
        else if (z) cls.push(`wd-zone-${z.side}-${z.kind}`);
        if (starting.has(row)) cls.push("wd-start");
        let onclick = null;
        const k = key(sq);
        if (a.choice && a.choice !== "return_wizard" && a.choiceSquares.has(k)) {
          cls.push("wd-opt", "wd-choice");
          onclick = () => act(ui, a.choiceSquares.get(k));
        } else if (returning !== null && a.returns.get(returning) && a.returns.get(returning).has(k)) {
          cls.push("wd-opt", "wd-choice");
          onclick = () => act(ui, a.returns.get(returning).get(k));
        } else if (dropMode && a.drops.has(k)) {
          cls.push("wd-opt", "wd-drop");
          onclick = () => act(ui, a.drops.get(k));
        } else if (armed && !ui.mode && a.moves.has(k)) {
          cls.push("wd-opt", "wd-move");
          onclick = (ev) => choose(ui, ev, centre(sq), a.moves.get(k).map((m) => [
            m.pick_up ? `Move here, picking up ball ${m.pick_up} on the way` : "Move here", m]));
        }
        squares.append(sv("rect", {
          class: cls.join(" "), x, y, width: S, height: S, "data-testid": `square-${col}-${row}`,
          "data-col": col, "data-row": row, onclick,
        }, sv("title", {}, `square ${col}, ${row}${neutral.has(row) ? " (Neutral Area)" : z ? ` (${z.name})` : ""}`)));
        if (cls.includes("wd-opt")) {
          const [cx, cy] = centre(sq);
          marks.append(sv("circle", { class: "wd-opt-dot", cx, cy, r: 5 }));
        }
      }
    }

    // The Neutral Area band and the attack lines, drawn over the squares.
    const rowsSpan = (a0, b0) => {
      const xs = [rowX(a0), rowX(b0)];
      return [Math.min(...xs), Math.max(...xs) + S];
    };
    const nRows = [...neutral].sort((p, q) => p - q);
    if (nRows.length) {
      const [x0, x1] = rowsSpan(nRows[0], nRows[nRows.length - 1]);
      marks.append(sv("rect", { class: "wd-neutral-band", x: x0, y: top, width: x1 - x0, height: H, "data-testid": "neutral-area" },
        sv("title", {}, "Neutral Area: either team may step in, never across")));
      labels.append(sv("text", { class: "wd-zone-label wd-neutral-label", x: (x0 + x1) / 2, y: top - 22 }, "Neutral Area"));
    }
    for (const line of c.attack_lines) {
      const [ra, rb] = line.between_rows;
      const x = (rowX(ra) + rowX(rb)) / 2 + S / 2;
      marks.append(sv("line", {
        class: "wd-attack-line", x1: x, x2: x, y1: top - 4, y2: top + H + 4, stroke: TEAM_COLOUR[line.side],
        "data-testid": `attack-line-${line.side}`,
      }, sv("title", {}, `${TEAM_WORD[line.side]} attack line: a ball brought behind it becomes active`)));
      labels.append(sv("text", { class: "wd-line-label", x, y: top + H + 31, fill: TEAM_COLOUR[line.side] }, "attack line"));
    }
    for (const z of c.zones) {
      const rows = [];
      for (let r = z.rows[0]; r <= z.rows[1]; r++) if (!neutral.has(r)) rows.push(r);
      if (!rows.length) continue;
      const [x0, x1] = rowsSpan(rows[0], rows[rows.length - 1]);
      labels.append(sv("text", { class: "wd-zone-label", x: (x0 + x1) / 2, y: top - 7, fill: TEAM_COLOUR[z.side] },
        `${z.kind} zone`, sv("title", {}, z.name)));
    }
    // Coordinates, so the log's squares can be found on the board.
    for (let row = 1; row <= c.length; row++) {
      labels.append(sv("text", { class: "wd-coord", x: rowX(row) + S / 2, y: top + H + 16 }, String(row)));
    }
    for (let col = 1; col <= c.width; col++) {
      labels.append(sv("text", { class: "wd-coord", x: left - 8, y: pos([col, 1])[1] + S / 2 + 4 }, String(col)));
    }
    for (const st of c.stars) {
      const [cx, cy] = centre(st);
      marks.append(sv("polygon", { class: "wd-star", points: starPoints(cx, cy, 15, 6.5), "data-testid": `star-${st[0]}-${st[1]}` }));
    }

    // Loose balls.
    for (const b of view.balls) {
      if (!b.square) continue;
      const [cx, cy] = centre(b.square);
      const g = ballGlyph(b, cx, cy, 10, ui, a, cast);
      items.append(g);
    }

    // Wizards on the court; eliminated ones on their team's bench below.
    const effectsOn = new Map();
    for (const e of view.effects || []) if (e.wizard !== null && e.wizard !== undefined) {
      if (!effectsOn.has(e.wizard)) effectsOn.set(e.wizard, []);
      effectsOn.get(e.wizard).push(e);
    }
    const benchSlots = [0, 0];
    const benchX = (team) => left + (((team === 1) !== flip) ? W / 2 + 8 : 0);
    for (const team of [0, 1]) {
      const bx = benchX(team);
      marks.append(sv("rect", { class: "wd-bench", x: bx, y: benchTop, width: W / 2 - 8, height: benchH, rx: 8,
        "data-testid": `bench-${team}` }));
      labels.append(sv("text", { class: "wd-bench-label", x: bx + 8, y: benchTop + 28, fill: TEAM_COLOUR[team] },
        `${TEAM_WORD[team]} out:`));
    }
    for (const w of view.wizards) {
      let cx, cy;
      if (w.eliminated || !w.square) {
        cx = benchX(w.team) + 100 + benchSlots[w.team]++ * 40;
        cy = benchTop + benchH / 2;
      } else [cx, cy] = centre(w.square);
      items.append(wizardGlyph(view, ctx, ui, a, w, cx, cy, { active, armed, cast, returning, effects: effectsOn.get(w.jersey) || [] }));
    }
    return { svg, vbW, vbH };
  }

  function starPoints(cx, cy, R, r) {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const rad = i % 2 ? r : R;
      const t = -Math.PI / 2 + (i * Math.PI) / 5;
      pts.push(`${(cx + rad * Math.cos(t)).toFixed(1)},${(cy + rad * Math.sin(t)).toFixed(1)}`);
    }
    return pts.join(" ");
  }

  function ballGlyph(b, cx, cy, r, ui, a, cast) {
    const cls = ["wd-ball", b.active ? "active" : "inactive"];
    if (b.on_fire) cls.push("on-fire");
    let onclick = null;
    const k = `ball:${b.id}`;
    if (cast && cast.addable.has(k)) { cls.push("wd-opt", "wd-cast-target"); onclick = (ev) => { ev.stopPropagation(); addTarget(ui, k); }; }
    else if (cast && ui.mode.chosen.includes(k)) cls.push("wd-cast-chosen");
    else if (!ui.mode && ui.armed && a.pickups.has(b.id) && !a.choice) {
      cls.push("wd-opt", "wd-pickup");
      // The ball's square may also be where a move that picks it up on the way ends.
      const here = b.square ? a.moves.get(key(b.square)) || [] : [];
      const options = [[`Pick up ball ${b.id} (free)`, a.pickups.get(b.id)],
        ...here.map((m) => [m.pick_up ? `Move here, picking up ball ${m.pick_up}` : "Move here", m])];
      onclick = (ev) => choose(ui, ev, [cx, cy], options);
    }
    // A ball that offers nothing lets clicks through to its square (a move may end there).
    if (!onclick) cls.push("wd-inert");
    const state = b.active ? "active" : "not active yet";
    return sv("g", {
      class: cls.join(" "), "data-testid": `ball-${b.id}`, "data-active": b.active ? "true" : "false",
      "data-square": b.square ? key(b.square) : "", onclick,
    },
      sv("title", {}, `Ball ${b.id}: ${state}${b.on_fire ? ", on fire" : ""}${onclick ? " (click)" : ""}`),
      sv("circle", { cx, cy, r }),
      r >= 8 ? sv("text", { x: cx, y: cy + 3.5 }, String(b.id)) : null);
  }

  function wizardGlyph(view, ctx, ui, a, w, cx, cy, o) {
    const cls = ["wd-wizard", `team-${w.team}`];
    if (w.eliminated) cls.push("out");
    if (w.jersey === o.active && !w.eliminated && !view.result) cls.push("wd-active");
    if (ui.inspect === w.jersey || (o.armed && w.jersey === o.active && ui.inspect === null)) cls.push("wd-selected");
    let onclick = () => inspect(ui, w.jersey);
    const k = `wizard:${w.jersey}`;
    let hint = "";
    if (o.cast && o.cast.addable.has(k)) {
      cls.push("wd-opt", "wd-cast-target");
      onclick = () => addTarget(ui, k);
      hint = `target of ${faceName(ui.mode.face)}`;
    } else if (o.cast && ui.mode.chosen.includes(k)) {
      cls.push("wd-cast-chosen");
      onclick = () => removeTarget(ui, k);
    } else if (a.choice === "return_wizard" && a.returns.has(w.jersey)) {
      cls.push("wd-opt", "wd-return");
      if (o.returning === w.jersey) cls.push("wd-selected");
      onclick = () => { ui.mode = { kind: "return", wizard: w.jersey }; redraw(ui); };
      hint = "bring back";
    } else if (o.armed && !ui.mode && a.wizardActs.has(w.jersey)) {
      const acts = a.wizardActs.get(w.jersey);
      const throwing = acts.some((x) => x.type === "throw");
      cls.push("wd-opt", throwing ? "wd-throw" : "wd-pass");
      hint = throwing ? "throw at" : "pass to";
      onclick = (ev) => choose(ui, ev, [cx, cy], acts.map((x) => [x.type === "throw" ? `Throw at #${w.jersey}` : `Pass to #${w.jersey}`, x]));
    } else if (w.jersey === o.active && a.any && !a.choice) {
      onclick = () => { ui.armed = true; ui.inspect = null; ui.mode = null; ui.popover = null; redraw(ui); };
    }
    const colour = TEAM_COLOUR[w.team];
    const g = sv("g", {
      class: cls.join(" "), "data-testid": `wizard-${w.jersey}`, "data-team": w.team,
      "data-square": w.square ? key(w.square) : "", onclick,
    }, sv("title", {}, `${wizardLabel(w)} (${TEAM_WORD[w.team]})${w.eliminated ? ", out" : ""}${hint ? ` - click to ${hint}` : ""}`));
    g.append(sv("circle", { class: "wd-halo", cx, cy, r: 19 }));
    g.append(sv("circle", { class: "wd-body", cx, cy, r: 15, fill: w.eliminated ? "#b9b6c6" : colour }));
    g.append(sv("text", { class: "wd-jersey", x: cx, y: cy + 5 }, String(w.jersey)));
    if (w.eliminated) g.append(sv("line", { class: "wd-out-cross", x1: cx - 11, y1: cy - 11, x2: cx + 11, y2: cy + 11 }));
    if (w.ball !== null && w.ball !== undefined) {
      const b = view.balls.find((x) => x.id === w.ball);
      if (b) g.append(ballGlyph(b, cx + 12, cy + 11, 6.5, ui, a, o.cast));
    }
    o.effects.forEach((e, i) => {
      const f = FACES[e.spell] || [e.name, e.spell.slice(0, 2), ""];
      const bx = cx - 19 + i * 15, by = cy - 25;
      g.append(sv("g", { class: "wd-effect", "data-testid": `effect-${e.id}`, "data-spell": e.spell },
        sv("title", {}, `${e.name} (cast by #${e.cast_by}, ${TEAM_WORD[e.team]}): ${f[2]}`),
        sv("rect", { x: bx, y: by, width: 14, height: 11, rx: 3, fill: TEAM_COLOUR[e.team] }),
        sv("text", { x: bx + 7, y: by + 8.5 }, f[1])));
    });
    return g;
  }

  // -- clicks ---------------------------------------------------------------------------------
  function inspect(ui, jersey) {
    const active = ui.view.turn ? ui.view.turn.wizard : null;
    ui.inspect = jersey === active ? null : jersey;
    ui.armed = jersey === active;
    ui.mode = null;
    ui.popover = null;
    redraw(ui);
  }

  // One option: do it. Several (move with or without picking up on the way): ask, next to the click.
  function choose(ui, ev, at, options) {
    if (ev) ev.stopPropagation();
    if (options.length === 1) { act(ui, options[0][1]); return; }
    ui.popover = { at, options };
    redraw(ui);
  }

  function addTarget(ui, k) {
    ui.mode.chosen.push(k);
    const st = castState(ui.view.legal_actions.filter((x) => x.type === "cast" && x.spell === ui.mode.face), ui.mode.chosen);
    // A single-target spell (nothing more could be added) goes off at once.
    if (st.exact && !st.canGrow) { act(ui, st.exact); return; }
    redraw(ui);
  }

  function removeTarget(ui, k) {
    ui.mode.chosen = ui.mode.chosen.filter((x) => x !== k);
    redraw(ui);
  }

  // -- the side panel --------------------------------------------------------------------------
  function statRow(label, colours) {
    return el("div", { class: "wd-stat" }, el("span", { class: "wd-stat-name" }, label),
      colours.map((c) => die(c, undefined, { small: true })),
      el("span", { class: "muted small" }, colours.map((c) => `${DICE[c][0]}-${DICE[c][1]}`).join(" + ")));
  }

  function wizardCard(view, w, ctx, isActive) {
    const ball = w.ball !== null && w.ball !== undefined ? view.balls.find((b) => b.id === w.ball) : null;
    const effects = (view.effects || []).filter((e) => e.wizard === w.jersey);
    return el("section", { class: `wd-card team-${w.team}`, "data-testid": "wizard-card", "data-jersey": w.jersey },
      el("h4", {}, el("span", { class: "wd-card-number", style: `background:${TEAM_COLOUR[w.team]}` }, `#${w.jersey}`),
        ` ${w.name}`, isActive ? el("span", { class: "badge" }, "to act") : null),
      el("p", { class: "small muted" }, `${teamName(view, ctx, w.team)}${w.eliminated ? " · out" : ""}`),
      el("div", { class: "wd-stats" },
        el("div", { class: "wd-stat" }, el("span", { class: "wd-stat-name" }, "MOVE"), el("strong", {}, String(w.stats.move)),
          el("span", { class: "wd-stat-name" }, "MAGIC"), el("strong", {}, String(w.stats.magic))),
        statRow("ATTACK", w.stats.attack), statRow("DODGE", w.stats.dodge),
        statRow("CAST", w.stats.cast), statRow("RESIST", w.stats.resist)),
      ball ? el("p", { class: "small" }, `Holds ball ${ball.id} (${ball.active ? "active" : "not active yet: carry it behind an attack line"})`) : null,
      effects.length ? el("p", { class: "small" }, "Under: ", effects.map((e) => `${e.name} (by #${e.cast_by})`).join(", ")) : null);
  }

  function turnBlock(view, ctx, ui, a) {
    const parts = [];
    if (view.result && view.result.unfinished) {
      // A bot game that reached its bound on turns: no winner (RULES.md, "Unfinished games").
      parts.push(el("p", { class: "wd-result", "data-testid": "result" },
        `Game over, unfinished: no winner. ${view.result.detail || ""}`.trim()));
    } else if (view.result) {
      const winners = view.result.winners.map((s) => seatLabel(ctx, s)).join(" & ");
      const team = teamOfSeat(view, view.result.winners[0]);
      parts.push(el("p", { class: "wd-result", "data-testid": "result" },
        `Game over: ${team === null ? "" : `${TEAM_WORD[team]} `}(${winners}) win${view.result.winners.length > 1 ? "" : "s"}`,
        view.result.reason ? `: ${view.result.reason.replace(/\.$/, "")}` : "", "."));
    }
    const t = view.turn;
    const activeW = t ? view.wizards.find((w) => w.jersey === t.wizard) : null;
    if (t && activeW && !view.result) {
      parts.push(el("p", { class: "wd-turn", "data-testid": "turn" },
        el("span", { class: "wd-turn-team", style: `background:${TEAM_COLOUR[t.team]}` }, `Turn ${t.number}`), " ",
        `${seatLabel(ctx, t.seat)}: ${wizardLabel(activeW)}`, " · ",
        el("strong", { "data-testid": "actions-left" }, `${t.actions_left} action${t.actions_left === 1 ? "" : "s"} left`)));
    } else if (!view.result) {
      parts.push(el("p", { class: "wd-turn", "data-testid": "turn" }, "Setting up: the roll-off decides who starts."));
    }
    let prompt = "";
    const p = view.pending;
    if (view.result) prompt = "";
    else if (a.choice) prompt = CHOICE_PROMPT[a.choice];
    else if (p && p.dice) prompt = `Waiting for dice: ${p.dice.label}`;
    else if (p && p.seat !== null && p.seat !== undefined) prompt = `Waiting for ${seatLabel(ctx, p.seat)} to choose.`;
    else if (a.any && ui.mode && ui.mode.kind === "cast") prompt = `${faceName(ui.mode.face)}: click the highlighted targets${castState(a.casts.get(ui.mode.face) || [], ui.mode.chosen).canGrow ? ", then Cast" : ""}.`;
    else if (a.any && ui.mode && ui.mode.kind === "drop") prompt = "Click a highlighted square to drop the ball there.";
    else if (a.any && !ui.armed) prompt = `Your turn: click ${activeW ? `#${activeW.jersey}` : "your glowing wizard"} to act with it.`;
    else if (a.any) prompt = "Your turn: click a green square to move, a ringed wizard to throw or pass, or use the buttons below.";
    else if (t && ctx.seat !== null && ctx.seat !== undefined && ctx.live) prompt = `Waiting for ${seatLabel(ctx, t.seat)}…`;
    if (prompt) parts.push(el("p", { class: "wd-prompt", "data-testid": "prompt" }, prompt));
    if (p && p.dice && p.dice.colours) {
      parts.push(el("p", { class: "small", "data-testid": "pending-dice" }, "To roll: ", p.dice.colours.map((c) => die(c, undefined, { small: true }))));
    }
    return el("section", { class: "wd-turn-block" }, parts);
  }

  function controls(view, ctx, ui, a) {
    if (!a.any || view.result || a.choice) return null;
    const buttons = [];
    if (ui.mode && ui.mode.kind === "cast") {
      const actions = a.casts.get(ui.mode.face) || [];
      const st = castState(actions, ui.mode.chosen);
      const nameOf = (k) => {
        const [kind, id] = k.split(":");
        const n = Number(id);
        if (kind === "wizard") { const w = view.wizards.find((x) => x.jersey === n); return w ? wizardLabel(w) : k; }
        if (kind === "ball") return `Ball ${n}`;
        const e = (view.effects || []).find((x) => x.id === n);
        if (!e) return `effect ${n}`;
        return `${e.name} on ${e.wizard !== null && e.wizard !== undefined ? `#${e.wizard}` : `ball ${e.ball}`}`;
      };
      const chips = [];
      for (const k of ui.mode.chosen) chips.push(el("button", { class: "wd-chip chosen", "data-testid": `target-${k.replace(":", "-")}`, onclick: () => removeTarget(ui, k), title: "remove" }, `✓ ${nameOf(k)}`));
      for (const k of st.addable) chips.push(el("button", { class: "wd-chip", "data-testid": `target-${k.replace(":", "-")}`, onclick: () => addTarget(ui, k) }, `+ ${nameOf(k)}`));
      return el("section", { class: "wd-controls", "data-testid": "controls" },
        el("h4", {}, `Cast ${faceName(ui.mode.face)}`),
        el("p", { class: "small muted" }, FACES[ui.mode.face] ? FACES[ui.mode.face][2] : ""),
        el("div", { class: "wd-chips" }, chips),
        el("div", { class: "wd-buttons" },
          el("button", { class: "primary", "data-testid": "cast-confirm", disabled: st.exact ? null : "disabled",
            onclick: () => st.exact && act(ui, st.exact) }, "Cast"),
          el("button", { "data-testid": "cast-cancel", onclick: () => { ui.mode = null; redraw(ui); } }, "Cancel")));
    }
    if (ui.mode && ui.mode.kind === "drop") {
      buttons.push(el("button", { "data-testid": "drop-cancel", onclick: () => { ui.mode = null; redraw(ui); } }, "Cancel drop"));
    } else {
      for (const [id, action] of a.pickups) buttons.push(el("button", { "data-testid": `pick-up-${id}`, onclick: () => act(ui, action) }, `Pick up ball ${id}`));
      if (a.drops.size) buttons.push(el("button", { "data-testid": "drop-ball", onclick: () => { ui.mode = { kind: "drop" }; ui.armed = true; ui.inspect = null; redraw(ui); } }, "Drop ball…"));
    }
    if (a.endTurn) buttons.push(el("button", { class: "primary", "data-testid": "end-turn", onclick: () => act(ui, a.endTurn) }, "End turn"));
    const casts = [];
    for (const [face, actions] of a.casts) {
      casts.push(el("button", {
        class: "wd-cast", "data-testid": `cast-${face}`, title: FACES[face] ? FACES[face][2] : "",
        onclick: () => { ui.mode = { kind: "cast", face, chosen: [] }; ui.armed = true; ui.inspect = null; ui.popover = null; redraw(ui); },
      }, `${faceName(face)} (${new Set(actions.flatMap((x) => x.targets.map(refKey))).size})`));
    }
    return el("section", { class: "wd-controls", "data-testid": "controls" },
      el("div", { class: "wd-buttons" }, buttons),
      casts.length ? el("div", {}, el("p", { class: "small muted" }, "Cast a spell (eligible targets in brackets):"), el("div", { class: "wd-buttons" }, casts)) : null);
  }

  function lastRoll(view, ctx) {
    const rolls = view.last_rolls || [];
    if (!rolls.length) return el("section", { class: "wd-rolls", "data-testid": "last-roll" }, el("h4", {}, "Last roll"), el("p", { class: "muted small" }, "No dice rolled yet."));
    const byJersey = new Map(view.wizards.map((w) => [w.jersey, w]));
    const rows = rolls.map((r) => {
      const who = r.who !== null && r.who !== undefined && byJersey.get(r.who);
      return el("div", { class: "wd-roll", "data-kind": r.kind },
        el("span", { class: "wd-roll-who" }, who ? el("span", { class: "wd-dot", style: `background:${TEAM_COLOUR[who.team]}` }) : null,
          r.label || r.kind),
        el("span", { class: "wd-roll-dice", "data-testid": "dice" },
          r.fixed ? el("span", { class: "wd-fixed", title: "no dice: a fixed score" }, "fixed") : r.dice.map((d) => die(d.colour, d.value)),
          r.bonus ? el("span", { class: "small" }, ` ${r.bonus > 0 ? "+" : "−"}${Math.abs(r.bonus)}`) : null,
          el("span", { class: "wd-total" }, `= ${r.total}`)));
    });
    // The comparison the rules make: the attack (or cast) against the dodge (or resist).
    const verdicts = [];
    for (const r of rolls) {
      if (r.kind === "rolloff" && r.dice.length === 2) {
        const [x, y] = r.dice.map((d) => d.value);
        verdicts.push(`Roll-off ${x} vs ${y}: ${x === y ? "tie, roll again" : `${TEAM_WORD[x > y ? 0 : 1]} starts`}`);
      }
      if (r.against === undefined || r.against === null) continue;
      const words = RESULT_WORDS[r.result] || r.result || "";
      if (r.kind === "dodge") verdicts.push(`Attack ${r.against} vs dodge ${r.total}${r.fixed ? " (frozen)" : ""}: ${words}`);
      else verdicts.push(`Cast ${r.against} vs resist ${r.total}: ${words}`);
    }
    return el("section", { class: "wd-rolls", "data-testid": "last-roll" }, el("h4", {}, "Last roll"), rows,
      verdicts.map((v) => el("p", { class: "wd-verdict", "data-testid": "roll-verdict" }, v)));
  }

  function spellCards(view, ctx) {
    const byJersey = new Map(view.wizards.map((w) => [w.jersey, w]));
    return el("section", { class: "wd-spells" }, el("h4", {}, "Spell cards"),
      (view.spell_cards || []).map((cards, team) => el("div", { class: "wd-spell-team", "data-testid": `spells-${team}` },
        el("p", { class: "small" }, el("span", { class: "wd-dot", style: `background:${TEAM_COLOUR[team]}` }),
          `${teamName(view, ctx, team)} · budget ${view.spell_budgets ? view.spell_budgets[team] : "?"}`),
        el("div", { class: "wd-spell-list" }, cards.map((card) => {
          const caster = card.cast_by !== null && card.cast_by !== undefined ? byJersey.get(card.cast_by) : null;
          return el("span", {
            class: `wd-spell ${card.charged ? "charged" : "recharging"}`, "data-testid": `spell-${team}-${card.id}`,
            title: card.charged ? `${card.name}: charged (cost ${card.cost})`
              : `${card.name}: recharging, cast by ${caster ? wizardLabel(caster) : "?"} on turn ${card.cast_on_turn}`,
          }, card.name, card.charged ? "" : " ⟳");
        })))));
  }

  function legend() {
    return el("details", { class: "wd-legend small" }, el("summary", {}, "How to read the court"),
      el("ul", {},
        el("li", {}, "Circles are wizards with their jersey numbers; the glowing ring marks the wizard whose turn it is."),
        el("li", {}, "Balls: solid gold = active (can be thrown), pale dashed = not active yet (carry it behind an attack line). A small ball on a wizard is held; an orange one is on fire."),
        el("li", {}, "Green squares: where the selected wizard can move. Red rings: throw targets. Green rings: pass targets. Purple rings: spell targets. Amber squares: a choice to make."),
        el("li", {}, "Badges on wizards are spell effects, coloured by the team that cast them: ",
          Object.entries(FACES).filter(([f]) => f !== "teleport" && f !== "dispel" && f !== "fireball").map(([, v]) => `${v[1]} ${v[0]}`).join(", "), ".")));
  }

  function popover(ui, vbW, vbH) {
    if (!ui.popover) return null;
    const [x, y] = ui.popover.at;
    return el("div", { class: "wd-popover", "data-testid": "choice-popover", style: `left:${(x / vbW) * 100}%;top:${(y / vbH) * 100}%` },
      ui.popover.options.map(([label, action], i) => el("button", { "data-testid": `option-${i}`, onclick: () => act(ui, action) }, label)),
      el("button", { class: "link", "data-testid": "option-cancel", onclick: () => { ui.popover = null; redraw(ui); } }, "Cancel"));
  }

  function render(root, view, ctx) {
    const ui = uiFor(root, view, ctx);
    ui.root = root;
    if (!view || !view.court) { root.textContent = "Waiting for the match to start…"; return; }
    const a = analyse(view, ctx);
    const { svg, vbW, vbH } = court(view, ctx, ui, a);
    const t = view.turn;
    const shown = ui.inspect !== null && ui.inspect !== undefined ? ui.inspect : t ? t.wizard : null;
    const shownW = shown !== null ? view.wizards.find((w) => w.jersey === shown) : null;
    const state = view.result ? "over" : !ctx.live ? "replay" : ctx.seat === null || ctx.seat === undefined ? "watching"
      : a.any ? "mine" : "waiting";
    const wrap = el("div", { class: "wd", "data-turn-state": state, "data-armed": ui.armed && a.any ? "true" : "false" },
      el("div", { class: "wd-court-wrap" }, svg, popover(ui, vbW, vbH)),
      el("div", { class: "wd-panel" },
        el("div", { class: "wd-col" }, turnBlock(view, ctx, ui, a), controls(view, ctx, ui, a),
          shownW ? wizardCard(view, shownW, ctx, !view.result && t && shownW.jersey === t.wizard) : null),
        el("div", { class: "wd-col" }, lastRoll(view, ctx), spellCards(view, ctx), legend())));
    root.replaceChildren(wrap);
  }

  (window.GameRenderers = window.GameRenderers || {})["wizard-dodgeball"] = { render };
})();
