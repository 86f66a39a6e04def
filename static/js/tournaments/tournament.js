// Tournament page: bracket as SVG, round tables, round-robin grid, pods, standings, your
// next match, and every command a player or the organiser has. Refetches on the stream's
// websocket update, so results land on every open page without a reload.
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
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
  const sv = (tag, attrs, ...children) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) node.setAttribute(k, v);
    for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
    return node;
  };
  const csrf = () => { const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/); return m ? decodeURIComponent(m[1]) : ""; };

  let root, body, errorBox, id, me, data = null;
  let render = () => {}; // draw, once start has the page: it waits for a press to end
  let playerName = null;  // set on a player's own page
  let embed = null;  // "standings" or "bracket" in an embedded widget
  let typedName = "";
  // Edits the organiser has not saved yet survive redraws (a websocket update redraws the page).
  let seedEdits = {}, tiebreakEdits = null, pairEdits = ["", ""], windowEdits = null, dropEdit = "";
  // The organiser's round edits (swap, bye, re-pair, readmit, grant a bye) and a player's bye
  // request: nothing preselected, and what was picked or typed survives a websocket redraw.
  const dayEdits = { swap: ["", ""], bye: "", reason: "", readmit: "", grant: "", grantRound: "", myRound: "" };
  // The outcome the organiser picked for a ruling or correction, until it is sent.
  const picked = {};

  const playerUrl = (name) => `/tournaments/${id}/players/${encodeURIComponent(name)}/`;

  async function load() {
    const query = playerName ? `?player=${encodeURIComponent(playerName)}` : "";
    const r = await fetch(`/api/tournaments/${id}/${query}`, { headers: { Accept: "application/json" } });
    if (!r.ok) return;
    accept(await r.json());
  }

  // Answers and reloads can arrive out of order (a command's answer after a reload that already
  // shows the next command, or two commands' answers swapped on a busy server): never step back,
  // or the page would show an older tournament than the one its socket already announced.
  function accept(fresh) {
    if (data && fresh.head_seq < data.head_seq) return;
    // A reload that brings nothing new leaves the page as it is: a redraw replaces every field,
    // and one landing mid-keystroke (a reload set off by an earlier command's late update) could
    // drop what was being typed into a number field, whose caret cannot be put back.
    if (data && fresh.head_seq === data.head_seq && JSON.stringify(fresh) === JSON.stringify(data)) return;
    data = fresh;
    root.dataset.headSeq = fresh.head_seq; // at once, even while the redraw waits (below)
    render();
  }

  function newEventId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  async function post(path, payload) {
    errorBox.hidden = true;
    const r = await fetch(`/api/tournaments/${id}/${path}/`, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      // Every command is based on the head this page shows and carries its own id (the API requires both).
      body: JSON.stringify({ expected_seq: data ? data.head_seq : 0, event_id: newEventId(), ...payload }),
    });
    const answer = await r.json().catch(() => ({}));
    if (!r.ok) { errorBox.textContent = answer.detail || `Refused (${r.status})`; errorBox.hidden = false; if (r.status === 409) load(); return null; }
    // A player's page needs that player's view, which command answers do not carry.
    if (playerName) await load(); else accept(answer);
    return answer;
  }

  const nameOf = (pid) => { const p = data.players.find((x) => x.id === pid); return p ? p.name : pid; };
  const isPlayer = (rec) => me && rec.players.includes(me);
  const resultText = (rec) => {
    const r = rec.result;
    if (!r && rec.status === "disputed") {
      // Say why: a player's dispute, or a result retracted because its match was found disputed.
      const last = (rec.history || []).filter((h) => h.reason).pop();
      return last ? `disputed: ${last.reason}` : "disputed";
    }
    if (!r) return rec.status === "reported" ? "reported, awaiting confirmation" : rec.status;
    if (r.bye && r.requested) return "requested bye";
    if (r.bye) return "bye";
    // A game score (best of three: 2-1) reads winner first; a level one as it is.
    const games = r.games ? ` ${r.games[rec.players.indexOf(r.winner)] ?? r.games[0]}–${r.games[1 - rec.players.indexOf(r.winner)] ?? r.games[1]}` : "";
    if (r.draw) return `draw${games}`;
    if (r.double_forfeit) return "double forfeit";
    if (r.finish) return r.finish.map((place) => place.map(nameOf).join(" = ")).join(" › ");
    return `${nameOf(r.winner)} won${games}${r.forfeit ? " (forfeit)" : ""}`;
  };

  // Best of three or five: every game score a match can end with, winner first ([won, lost]).
  const bestOf = () => Number((data.options || {}).best_of || 1);
  function gameScores() {
    const need = Math.floor(bestOf() / 2) + 1;
    const wins = [], draws = [];
    for (let lost = 0; lost < need; lost++) wins.push([need, lost]);
    for (let each = 0; each < need && 2 * each <= bestOf(); each++) draws.push(each);
    return { wins, draws };
  }
  // The result a score means, in the pairing's player order.
  const scored = (rec, winner, [won, lost]) => ({ winner, games: rec.players[0] === winner ? [won, lost] : [lost, won] });

  function parseFinish(text) {
    return text.split(/[,>›]/).map((s) => s.trim()).filter(Boolean).map((place) => place.split("=").map((n) => n.trim()));
  }

  // The buttons a viewer has on one pairing.
  function actions(rec) {
    const out = [];
    const path = `pairings/${rec.id}`;
    const open = ["pending", "reported", "disputed"].includes(rec.status);
    const two = rec.players.length === 2;
    // A pod of two (a game for at most three cannot always seat threes) reports a finish
    // like any pod: the buttons stay "X won" and "Draw", the result is a finish.
    const pod = rec.reports_finish;
    const won = (p) => (pod ? { finish: [[p], rec.players.filter((x) => x !== p)] } : { winner: p });
    const drawn = () => (pod ? { finish: [rec.players] } : { draw: true });
    if (open && isPlayer(rec) && rec.status !== "disputed") {
      const mine = rec.reports[me];
      const other = Object.entries(rec.reports).find(([p]) => p !== me);
      if (other && !mine) {
        out.push(el("button", { class: "small-btn primary", "data-testid": `confirm-${rec.id}`, onclick: () => post(`${path}/confirm`, {}) }, "Confirm"));
        out.push(el("button", { class: "small-btn", "data-testid": `dispute-${rec.id}`, onclick: () => post(`${path}/dispute`, { reason: "I disagree" }) }, "Dispute"));
      } else if (!mine) {
        if (two && bestOf() > 1 && !pod) {
          const { wins, draws } = gameScores();
          rec.players.forEach((p) => wins.forEach((score) => out.push(el("button", { class: "small-btn", "data-testid": `report-${rec.id}-${nameOf(p)}-${score.join("-")}`,
            onclick: () => post(`${path}/report`, { result: scored(rec, p, score) }) }, `${nameOf(p)} won ${score.join("–")}`))));
          if (!rec.bracket_match) draws.forEach((each) => out.push(el("button", { class: "small-btn", "data-testid": `report-${rec.id}-draw-${each}-${each}`,
            onclick: () => post(`${path}/report`, { result: { draw: true, games: [each, each] } }) }, `Draw ${each}–${each}`)));
        } else if (two) {
          rec.players.forEach((p) => out.push(el("button", { class: "small-btn", "data-testid": `report-${rec.id}-${nameOf(p)}`, onclick: () => post(`${path}/report`, { result: won(p) }) }, `${nameOf(p)} won`)));
          if (!rec.bracket_match) out.push(el("button", { class: "small-btn", "data-testid": `report-${rec.id}-draw`, onclick: () => post(`${path}/report`, { result: drawn() }) }, "Draw"));
        } else {
          const input = el("input", { placeholder: "finish: a, b = c, d", "aria-label": "Finishing order", "data-testid": `finish-${rec.id}` });
          out.push(input, el("button", { class: "small-btn", onclick: () => post(`${path}/report`, { result: { finish: parseFinish(input.value) } }) }, "Report"));
        }
      }
      if (!rec.match_id && rec.status === "pending" && !Object.keys(rec.reports).length) {
        out.push(el("button", { class: "small-btn", "data-testid": `play-${rec.id}`, onclick: async () => {
          const a = await post(`${path}/match`, {});
          if (a) { const r2 = findPairing(rec.id); if (r2 && r2.match_id) location.href = `/matches/${r2.match_id}/`; }
        } }, "Play on the platform"));
      }
    }
    if (data.is_organiser && rec.players.length > 1 && rec.status !== "waiting" && rec.status !== "not_needed") {
      const verb = rec.status === "final" ? "correct" : "rule";
      const label = rec.status === "final" ? "Correct" : "Rule";
      // No outcome is chosen for the organiser: a ruling or a correction is always picked
      // by hand and confirmed, so one stray click cannot decide a pairing.
      const settle = (what, send) => {
        if (!window.confirm(`${label} ${rec.names.join(" v ")} (${rec.id}): ${what}?`)) return null;
        return send();
      };
      const refuse = (text) => { errorBox.textContent = text; errorBox.hidden = false; return null; };
      if (two) {
        const key = `${verb}:${rec.id}`;
        const option = (value, text) => el("option", { value, selected: (picked[key] || "") === value }, text);
        const sel = el("select", { "aria-label": `${label}: result`, "data-testid": `${verb}-select-${rec.id}`,
          // A websocket update redraws the page: the choice survives it.
          onchange: (ev) => { picked[key] = ev.target.value; } },
          option("", "choose the result…"),
          bestOf() > 1 && !pod
            ? rec.players.map((p) => gameScores().wins.map((score) => option(`w:${p}:${score.join("-")}`, `${nameOf(p)} won ${score.join("–")}`)))
            : rec.players.map((p) => option(`w:${p}`, `${nameOf(p)} won`)),
          rec.bracket_match ? null : (bestOf() > 1 && !pod
            ? gameScores().draws.map((each) => option(`d:${each}`, `Draw ${each}–${each}`))
            : option("draw", "Draw")),
          open ? rec.players.map((p) => option(`ns:${p}`, `${nameOf(p)} did not show`)) : null,
          open && !rec.bracket_match ? option("ns:both", "Nobody showed (double forfeit)") : null);
        const sent = (answer) => { if (answer) delete picked[key]; return answer; };
        out.push(sel, el("button", { class: "small-btn", "data-testid": `${verb}-${rec.id}`, onclick: () => {
          const v = sel.value;
          if (!v) return refuse(`Choose the result of ${rec.id} first.`);
          const what = sel.options[sel.selectedIndex].textContent;
          if (v.startsWith("ns:")) return settle(what, () => post(`${path}/no-show`, { absent: v === "ns:both" ? rec.players : [v.slice(3)] }).then(sent));
          const chosen = v === "draw" ? drawn()
            : v.startsWith("d:") ? { draw: true, games: [Number(v.slice(2)), Number(v.slice(2))] }
            : v.split(":").length === 3 ? scored(rec, v.split(":")[1], v.split(":")[2].split("-").map(Number))
            : won(v.slice(2));
          return settle(what, () => post(`${path}/${verb}`, { result: chosen, reason: "organiser" }).then(sent));
        } }, label));
      } else {
        const input = el("input", { placeholder: "finish: a, b = c, d", "aria-label": "Finishing order", "data-testid": `${verb}-finish-${rec.id}` });
        out.push(input, el("button", { class: "small-btn", "data-testid": `${verb}-${rec.id}`, onclick: () => {
          const finish = parseFinish(input.value);
          if (!finish.length) return refuse(`Type the finishing order of ${rec.id} first.`);
          return settle(finish.map((place) => place.join(" = ")).join(" › "), () => post(`${path}/${verb}`, { result: { finish } }));
        } }, label));
      }
    }
    if (rec.match_id) out.push(el("a", { href: `/matches/${rec.match_id}/`, class: "small" }, " match →"));
    return out;
  }

  function findPairing(pid) {
    for (const r of data.rounds) for (const p of r.pairings) if (p.id === pid) return p;
    return null;
  }

  // -- panels -------------------------------------------------------------------------
  function statusPanel() {
    const p = data.progress;
    const text = p.status === "registration" ? `Registration open · ${data.players.filter((x) => x.status === "registered").length} registered`
      : p.status === "finished" ? "Finished" : data.stage && data.bracket ? "Playoff" : `Round ${p.round}${p.planned_rounds ? ` of ${p.planned_rounds}` : ""}${p.round_complete ? " · complete" : ""}`;
    const champion = data.progress.finished && data.standings.tables.length ? data.standings.tables[0].rows[0] : null;
    return el("div", { class: "card row" },
      el("span", { class: "badge", "data-testid": "status" }, text),
      data.options.requested_bye_points !== undefined && byRound(data) && p.status !== "finished"
        ? el("span", { class: "muted small", "data-testid": "requested-bye-points" }, `A requested bye is worth ${data.options.requested_bye_points} point(s).`) : null,
      champion ? el("strong", { "data-testid": "champion" }, `Winner: ${champion.name}`) : null);
  }

  function organiserPanel() {
    if (!data.is_organiser) return null;
    const p = data.progress;
    // The typed name survives redraws (a websocket update can redraw the page mid-typing).
    const who = el("input", { placeholder: "username", "aria-label": "Player's username", "data-testid": "add-player-name", value: typedName,
      oninput: (ev) => { typedName = ev.target.value; } });
    const named = () => { const n = who.value.trim(); typedName = ""; return n; };
    const bits = [el("strong", {}, "Organiser")];
    if (p.status === "registration") {
      bits.push(who, el("button", { "data-testid": "add-player", onclick: () => { const n = named(); if (n) post("register", { user: n }); } }, "Register player"));
      bits.push(el("button", { "data-testid": "seed-rating", onclick: () => post("seed", { method: "rating" }) }, "Seed by rating"));
      if (data.game === "wizard-dodgeball" && !data.draft) bits.push(el("button", { "data-testid": "open-draft", onclick: () => post("draft", {}) }, "Open the tournament draft (four coaches)"));
      bits.push(el("button", { class: "primary", "data-testid": "start", onclick: () => post("start", {}) }, "Start"));
    } else if (p.status === "running") {
      if (p.can_pair_next) bits.push(el("button", { class: "primary", "data-testid": "pair-next", onclick: () => post("pair", {}) }, "Pair the next round"));
      // A retracted result holds the event up: said where the button would be, not left to a refusal.
      if (p.reopened_words) bits.push(el("span", { class: "muted small", role: "status", "data-testid": "reopened" }, p.reopened_words));
      // The players list is gone once the event runs: who gets no emails is said here instead.
      const unconfirmed = data.players.filter((x) => x.asked_to_play === false && x.status === "active").map((x) => x.name);
      if (unconfirmed.length) bits.push(el("span", { class: "muted small", "data-testid": "unconfirmed" }, `Not confirmed, so no emails: ${unconfirmed.join(", ")}`));
      if (data.format_info.late_entry && !data.stage) bits.push(who, el("button", { "data-testid": "late-join", onclick: () => { const n = named(); if (n) post("join-late", { user: n }); } }, "Add a late player"));
      // No player is preselected, and the one picked survives a websocket redraw: a redraw between
      // picking and pressing used to fall back to the first name, dropping someone else.
      const active = data.players.filter((x) => x.status === "active").map((x) => x.name);
      if (!active.includes(dropEdit)) dropEdit = "";
      const drop = el("select", { "aria-label": "Player to drop", "data-testid": "drop-select", onchange: (ev) => { dropEdit = ev.target.value; } },
        el("option", { value: "", selected: dropEdit === "" }, "choose a player…"),
        active.map((name) => el("option", { value: name, selected: dropEdit === name }, name)));
      bits.push(drop, el("button", { "data-testid": "drop", onclick: async () => {
        if (!drop.value) { errorBox.textContent = "Choose the player to drop first."; errorBox.hidden = false; return; }
        if (await post("drop", { user: drop.value })) dropEdit = "";
      } }, "Drop player"));
    }
    return el("div", {}, el("div", { class: "card row", "data-testid": "organiser" }, bits), dayPanel(), settingsPanel());
  }

  // -- the organiser's day: editing the current round, readmitting, granting byes ----------
  const byRound = data_ => data_.format_info && data_.format_info.late_entry && !data_.bracket;
  const currentRound = () => {
    const r = data.rounds.length ? data.rounds[data.rounds.length - 1] : null;
    return r && r.kind === "round" ? r : null;
  };
  // Rounds still to come that a player may sit out.
  const futureRounds = () => {
    const planned = data.progress.planned_rounds || data.options.rounds;
    const from = data.rounds.length + 1;
    const out = [];
    for (let n = from; planned && n <= planned; n++) out.push(n);
    return out;
  };
  const choose = (label, testid, value, names, onpick, blank = "choose a player…") =>
    el("select", { "aria-label": label, "data-testid": testid, onchange: (ev) => onpick(ev.target.value) },
      el("option", { value: "", selected: value === "" }, blank),
      names.map((n) => el("option", { value: String(n), selected: value === String(n) }, String(n))));
  const say = (text) => { errorBox.textContent = text; errorBox.hidden = false; return null; };

  function dayPanel() {
    const p = data.progress;
    if (p.status !== "running" || !byRound(data)) return null;
    const rows = [];
    const cur = currentRound();
    const open = cur ? cur.pairings.filter((rec) => rec.status === "pending" && !Object.keys(rec.reports).length && !rec.match_id) : [];
    const swappable = open.filter((rec) => rec.players.length > 1).flatMap((rec) => rec.names);
    const byeRec = cur ? cur.pairings.find((rec) => rec.players.length === 1 && rec.source === "bye") : null;
    if (cur && !p.round_complete) {
      for (const i of [0, 1]) if (!swappable.includes(dayEdits.swap[i])) dayEdits.swap[i] = "";
      if (!swappable.includes(dayEdits.bye)) dayEdits.bye = "";
      const reason = el("input", { placeholder: "why (shown to every player)", "aria-label": "Reason for the change", "data-testid": "edit-reason", value: dayEdits.reason,
        oninput: (ev) => { dayEdits.reason = ev.target.value; } });
      const needReason = () => (dayEdits.reason.trim() ? dayEdits.reason.trim() : say("Say why first: the reason is shown to every player."));
      const sent = (answer) => { if (answer) { dayEdits.reason = ""; dayEdits.swap = ["", ""]; dayEdits.bye = ""; } return answer; };
      const bits = [el("span", {}, `Edit round ${cur.number}:`), reason];
      bits.push(choose("Swap: first player", "swap-1", dayEdits.swap[0], swappable, (v) => { dayEdits.swap[0] = v; }),
        choose("Swap: second player", "swap-2", dayEdits.swap[1], swappable, (v) => { dayEdits.swap[1] = v; }),
        el("button", { "data-testid": "swap", onclick: () => {
          const [a, b] = dayEdits.swap;
          if (!a || !b) return say("Choose the two players to swap first.");
          const why = needReason(); if (!why) return null;
          if (!window.confirm(`Swap ${a} and ${b} in round ${cur.number}? Reason shown to everyone: ${why}`)) return null;
          return post("swap", { round: cur.number, players: [a, b], reason: why }).then(sent);
        } }, "Swap players"));
      if (byeRec) {
        bits.push(choose("Give the bye to", "bye-select", dayEdits.bye, swappable, (v) => { dayEdits.bye = v; }),
          el("button", { "data-testid": "set-bye", onclick: () => {
            if (!dayEdits.bye) return say("Choose the player who gets the bye first.");
            const why = needReason(); if (!why) return null;
            if (!window.confirm(`Give ${dayEdits.bye} the bye of round ${cur.number} (${byeRec.names[0]} plays in their place)? Reason: ${why}`)) return null;
            return post("set-bye", { round: cur.number, player: dayEdits.bye, reason: why }).then(sent);
          } }, "Give the bye"));
      }
      bits.push(el("button", { "data-testid": "repair", onclick: () => {
        const why = needReason(); if (!why) return null;
        if (!window.confirm(`Un-pair round ${cur.number} and pair it again? Reason: ${why}`)) return null;
        return post("repair", { round: cur.number, reason: why }).then(sent);
      } }, `Re-pair round ${cur.number}`));
      rows.push(el("div", { class: "row", "data-testid": "edit-round" }, bits));
    }
    const dropped = data.players.filter((x) => x.status === "dropped").map((x) => x.name);
    if (dropped.length) {
      if (!dropped.includes(dayEdits.readmit)) dayEdits.readmit = "";
      rows.push(el("div", { class: "row" }, el("span", {}, "Bring back:"),
        choose("Dropped player to bring back", "readmit-select", dayEdits.readmit, dropped, (v) => { dayEdits.readmit = v; }),
        el("button", { "data-testid": "readmit", onclick: async () => {
          if (!dayEdits.readmit) return say("Choose the player to bring back first.");
          if (!window.confirm(`Bring ${dayEdits.readmit} back? They are paired again from the next round.`)) return null;
          if (await post("readmit", { user: dayEdits.readmit })) dayEdits.readmit = "";
          return null;
        } }, "Bring back")));
    }
    const active = data.players.filter((x) => x.status === "active").map((x) => x.name);
    const rounds = futureRounds();
    if (rounds.length && active.length) {
      if (!active.includes(dayEdits.grant)) dayEdits.grant = "";
      if (!rounds.map(String).includes(dayEdits.grantRound)) dayEdits.grantRound = "";
      rows.push(el("div", { class: "row" }, el("span", {}, "Grant a bye:"),
        choose("Player granted a bye", "grant-bye-player", dayEdits.grant, active, (v) => { dayEdits.grant = v; }),
        choose("Round of the granted bye", "grant-bye-round", dayEdits.grantRound, rounds, (v) => { dayEdits.grantRound = v; }, "round…"),
        el("button", { "data-testid": "grant-bye", onclick: async () => {
          if (!dayEdits.grant || !dayEdits.grantRound) return say("Choose the player and the round first.");
          if (!window.confirm(`Grant ${dayEdits.grant} a bye in round ${dayEdits.grantRound} (worth ${data.options.requested_bye_points ?? "0"})?`)) return null;
          if (await post("request-bye", { user: dayEdits.grant, round: Number(dayEdits.grantRound) })) { dayEdits.grant = ""; dayEdits.grantRound = ""; }
          return null;
        } }, "Grant bye")));
    }
    return rows.length ? el("div", { class: "card", "data-testid": "organiser-day" }, el("strong", {}, "Pairings and byes"), rows) : null;
  }

  // An edit of a round as everyone reads it.
  function editText(line) {
    const [a, b] = line.names || [];
    if (line.event === "swapped") return `Swapped by the organiser (${a} ↔ ${b}): ${line.reason}`;
    if (line.event === "bye_set") return `Bye given by the organiser to ${a} (${b} plays in their place): ${line.reason}`;
    if (line.event === "unpaired") return `Re-paired by the organiser: ${line.reason}`;
    return line.reason;
  }
  const editLines = (number) => {
    const lines = (data.edits || []).filter((x) => x.round === number);
    return lines.length ? el("ul", { class: "muted small", "data-testid": `round-edits-${number}` }, lines.map((x) => el("li", {}, editText(x)))) : null;
  };
  // Why a player's pairing is not the one first published (the newest edit touching it).
  const pairingNote = (rec) => {
    const h = (rec.history || []).filter((x) => ["swapped", "bye_set"].includes(x.event)).pop();
    if (!h) return null;
    const line = (data.edits || []).find((x) => x.seq === h.seq);
    return line ? el("span", { class: "muted small", "data-testid": "pairing-note" }, ` · ${editText(line)}`) : null;
  };

  // Tie-breaks (order matters), forbidden pairs and the check-in window, after creation.
  function settingsPanel() {
    const p = data.progress;
    const rows = [];
    if (data.format_info.ranks_by_tiebreaks) {
      const names = ["buchholz", "median_buchholz", "sonneborn_berger", "head_to_head", "omw", "wins", "mwp", "gwp", "ogwp"];
      const current = tiebreakEdits || (data.options.tiebreaks || data.standings.columns || []).slice();
      const selects = [0, 1, 2, 3].map((i) => el("select", { "aria-label": `Tie-break ${i + 1}`, "data-testid": `tiebreak-${i + 1}`, onchange: (ev) => {
        tiebreakEdits = (tiebreakEdits || current.slice()); tiebreakEdits[i] = ev.target.value; } },
        el("option", { value: "" }, i ? "(none)" : "choose"),
        names.map((n) => el("option", { value: n, selected: current[i] === n }, n.replace(/_/g, " ")))));
      rows.push(el("div", { class: "row" }, el("span", {}, "Tie-breaks, in order:"), selects,
        el("button", { "data-testid": "save-tiebreaks", onclick: async () => {
          const chosen = selects.map((s) => s.value).filter(Boolean);
          if (await post("configure", { tiebreaks: [...new Set(chosen)] })) tiebreakEdits = null;
        } }, "Save tie-breaks")));
    }
    if (data.format_info.options.includes("forbidden_pairs") && p.status !== "finished") {
      const present = data.players.filter((x) => ["registered", "active", "waitlisted"].includes(x.status));
      const pick = (i) => el("select", { "aria-label": `Never pair: player ${i + 1}`, "data-testid": `forbid-${i + 1}`, onchange: (ev) => { pairEdits[i] = ev.target.value; } },
        el("option", { value: "" }, "player"), present.map((x) => el("option", { value: x.name, selected: pairEdits[i] === x.name }, x.name)));
      const pairs = data.options.forbidden_pairs || [];
      const asNames = pairs.map(([a, b]) => [nameOf(a), nameOf(b)]);
      rows.push(el("div", { class: "row", "data-testid": "forbidden-pairs" }, el("span", {}, "Never pair:"),
        asNames.map(([a, b], i) => el("span", { class: "badge", "data-testid": `forbidden-${a}-${b}` }, `${a} × ${b} `,
          el("button", { class: "small-btn", "data-testid": `allow-${a}-${b}`, onclick: () => post("configure", { forbidden_pairs: asNames.filter((_, j) => j !== i) }) }, "allow"))),
        pick(0), pick(1),
        el("button", { "data-testid": "forbid", onclick: async () => {
          if (!pairEdits[0] || !pairEdits[1]) return;
          if (await post("configure", { forbidden_pairs: [...asNames, pairEdits.slice()] })) pairEdits = ["", ""];
        } }, "Forbid pair")));
    }
    if (p.status === "registration") {
      // The inputs read and write the viewer's wall-clock time; the server keeps UTC instants.
      const pad = (n) => String(n).padStart(2, "0");
      const local = (iso) => {
        if (!iso) return "";
        const d = new Date(iso);
        return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
      };
      windowEdits = windowEdits || [local(data.options.check_in_opens), local(data.options.check_in_closes)];
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "your local time";
      const field = (i, testid) => el("input", { type: "datetime-local", "aria-label": `${i ? "Check-in closes" : "Check-in opens"} (${zone})`, "data-testid": testid, value: windowEdits[i],
        oninput: (ev) => { windowEdits[i] = ev.target.value; } });
      // "2027-03-05T18:30" without a zone is read by Date as local time.
      const asIso = (v) => (v ? new Date(v).toISOString() : null);
      const opens = field(0, "check-in-opens"), closes = field(1, "check-in-closes");
      rows.push(el("div", { class: "row", "data-testid": "check-in-window" }, el("span", {}, "Check-in window, ", el("span", { "data-testid": "check-in-zone" }, zone), " time:"),
        opens, el("span", {}, "to"), closes,
        el("button", { "data-testid": "save-check-in", onclick: async () => {
          // What is sent is what the two inputs show as the button is pressed, whatever redraws
          // came between the typing and the press.
          if (await post("configure", { check_in_opens: asIso(opens.value), check_in_closes: asIso(closes.value) })) windowEdits = null;
        } }, "Save window")));
    }
    return rows.length ? el("div", { class: "card", "data-testid": "settings" }, el("strong", {}, "Settings"), rows) : null;
  }

  function draftPanel() {
    if (!data.draft) return null;
    const d = data.draft;
    return el("div", { class: "card row", "data-testid": "draft" }, el("strong", {}, "Tournament draft"),
      el("span", {}, `${d.coaches.join(", ")} draft six wizards each; every pairing plays the two drafted teams.`),
      el("span", { class: "badge" }, d.finished ? "finished" : "in progress"),
      el("a", { href: d.url, "data-testid": "draft-link" }, "draft room →"));
  }

  function mePanel() {
    if (!me) return null;
    const mine = data.me;
    const p = data.progress;
    const bits = [el("strong", {}, "You")];
    if (!mine || ["withdrawn"].includes(mine.status)) {
      if (p.status === "registration") bits.push(el("button", { class: "primary", "data-testid": "register", onclick: () => post("register", {}) }, "Register"));
      else if (data.format_info.late_entry && !data.stage && p.status === "running") bits.push(el("button", { "data-testid": "join-late", onclick: () => post("join-late", {}) }, "Join late"));
      else bits.push(el("span", { class: "muted" }, "You are not playing."));
    } else {
      bits.push(el("span", { class: "badge", "data-testid": "my-status" }, mine.status + (mine.checked_in ? " · checked in" : "")));
      const myName = nameOf(me);
      bits.push(el("a", { href: playerUrl(myName), "data-testid": "my-page" }, "your page →"));
      // Entered by the organiser: no emails from this tournament until the player says it is theirs.
      if (mine.asked_to_play === false) {
        bits.push(el("span", { class: "muted", "data-testid": "entered-by-organiser" }, "The organiser entered you: you get no emails from this tournament until you confirm."),
          el("button", { class: "primary", "data-testid": "confirm-entry", onclick: () => post("confirm-entry", {}) }, "Confirm my entry"));
      }
      if (p.status === "registration") {
        if (data.options.check_in_required && mine.status === "registered" && !mine.checked_in) bits.push(el("button", { "data-testid": "check-in", onclick: () => post("check-in", {}) }, "Check in"));
        bits.push(el("button", { "data-testid": "withdraw", onclick: () => post("withdraw", {}) }, "Withdraw"));
      }
      if (p.status === "running" && mine.status === "active") bits.push(el("button", { "data-testid": "drop-me", onclick: () => post("drop", {}) }, "Drop out"));
      if (byRound(data) && p.status !== "finished" && ["active", "registered"].includes(mine.status)) {
        const asked = Object.entries(data.requested_byes || {}).filter(([, who]) => who.includes(me)).map(([n]) => Number(n));
        const rounds = futureRounds().filter((n) => !asked.includes(n));
        if (asked.length) bits.push(el("span", { class: "muted", "data-testid": "my-byes" }, `Bye requested for round ${asked.sort((x, y) => x - y).join(", ")}`));
        if (rounds.length) {
          if (!rounds.map(String).includes(dayEdits.myRound)) dayEdits.myRound = "";
          bits.push(choose("Round to sit out", "request-bye-round", dayEdits.myRound, rounds, (v) => { dayEdits.myRound = v; }, "round…"),
            el("button", { "data-testid": "request-bye", onclick: async () => {
              if (!dayEdits.myRound) return say("Choose the round you want to sit out first.");
              if (!window.confirm(`Ask for a bye in round ${dayEdits.myRound}? It is worth ${data.options.requested_bye_points ?? "0"} point(s).`)) return null;
              if (await post("request-bye", { round: Number(dayEdits.myRound) })) dayEdits.myRound = "";
              return null;
            } }, "Request a bye"));
        }
      }
      if (mine.next) {
        const n = mine.next;
        const opp = n.players.filter((x) => x !== me).map(nameOf).join(", ");
        bits.push(el("span", { "data-testid": "my-next" }, `Next: round ${n.round}, ${n.bracket_match ? matchLabel(n.bracket_match) : `board ${n.board}`}${n.table ? ` at table ${n.table}` : ""} against ${opp} (${n.status})`, pairingNote(n)), ...actions(n));
      } else if (p.status === "running") bits.push(el("span", { class: "muted", "data-testid": "my-next" }, "No match waiting for you."));
    }
    return el("div", { class: "card row", "data-testid": "me" }, bits);
  }

  function playersPanel() {
    if (data.progress.status !== "registration") return null;
    const listed = data.players.filter((p) => p.status !== "withdrawn");
    const registered = listed.filter((p) => p.status === "registered");
    const seedOf = (p) => seedEdits[p.name] ?? (p.seed || registered.indexOf(p) + 1);
    const seedInput = (p) => (data.is_organiser && p.status === "registered"
      ? el("input", { type: "number", min: 1, class: "seed", "aria-label": `Seed of ${p.name}`, "data-testid": `seed-${p.name}`, value: seedOf(p),
          oninput: (ev) => { seedEdits[p.name] = Number(ev.target.value); } }) : null);
    const save = data.is_organiser && registered.length > 1 ? el("button", { "data-testid": "save-seeds", onclick: async () => {
      // Seeds by number; equal numbers keep the listed order.
      const order = registered.map((p, i) => [seedOf(p), i, p.name]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
      if (await post("seed", { method: "manual", order })) seedEdits = {};
    } }, "Save seeds") : null;
    // The organiser's desk: check a player in who reached the venue, or take back a
    // check-in ticked by mistake (before the start only; the server says why if not).
    const desk = (p) => {
      if (!data.is_organiser || !data.options.check_in_required || p.status !== "registered") return null;
      return p.checked_in
        ? el("button", { class: "small", "data-testid": `desk-undo-check-in-${p.name}`, onclick: () => post("check-in-undo", { user: p.name }) }, "Undo check-in")
        : el("button", { class: "small", "data-testid": `desk-check-in-${p.name}`, onclick: () => post("check-in", { user: p.name }) }, "Check in");
    };
    const checkedIn = (p) => (p.checked_in ? (p.checked_in_at_desk ? " · checked in at the desk" : " · checked in") : "");
    // The organiser's entries the player has not confirmed: the platform writes them no email.
    const unconfirmed = (p) => (data.is_organiser && p.asked_to_play === false
      ? el("span", { class: "muted small", "data-testid": `unconfirmed-${p.name}` }, "not confirmed: no emails") : null);
    return el("section", { class: "card" }, el("h3", {}, "Players", data.seeding ? el("span", { class: "muted small", "data-testid": "seeding" }, ` · seeded by ${data.seeding}`) : null),
      el("ol", { "data-testid": "players" }, listed.map((p) =>
        el("li", { "data-player": p.name }, seedInput(p), " ", el("a", { href: playerUrl(p.name) }, p.name), " ",
          el("span", { class: "muted small", "data-testid": `player-state-${p.name}` }, p.status + checkedIn(p) + (p.rating ? ` · ${p.rating}` : "")),
          " ", unconfirmed(p), " ", desk(p)))),
      save);
  }

  // The round timer (round-timer.js): the time left on every page, the organiser's controls.
  const timerPanel = () => (window.RoundTimer ? window.RoundTimer.panel(data, { el, post }) : null);

  // -- a player's own page ------------------------------------------------------------
  function playerPage() {
    const v = data.player;
    if (!v) return [el("p", { class: "muted" }, "No such player.")];
    const st = v.standing;
    const head = el("div", { class: "card row", "data-testid": "player-head" },
      el("strong", { "data-testid": "player-name" }, v.name),
      el("span", { class: "badge", "data-testid": "player-status" }, v.status + (v.checked_in ? " · checked in" : "")),
      st ? el("span", { "data-testid": "player-standing" }, `${st.table}: #${st.rank} of ${st.of} · ${data.elimination ? "wins" : "score"} ${st.score} · played ${st.played}`) : null,
      el("a", { href: `/tournaments/${id}/`, "data-testid": "back" }, "← the tournament"),
      el("a", { href: `/players/${encodeURIComponent(v.name)}/`, "data-testid": "profile" }, `all of ${v.name}'s games →`));
    let next;
    if (v.next) {
      const n = v.next;
      const opp = n.players.filter((x) => x !== v.id).map(nameOf).join(", ") || "nobody";
      next = el("section", { class: "card", "data-testid": "player-next" }, el("h3", {}, "Next match"),
        el("p", { "data-testid": "next-details" }, `Round ${n.round} · ${n.bracket_match ? `match ${matchLabel(n.bracket_match)}` : `board ${n.board}`}${n.table ? ` at table ${n.table}` : ""} · against `,
          el("strong", { "data-testid": "next-opponent" }, opp), ` · ${resultText(n)}`),
        el("div", { class: "row" }, actions(n)));
    } else {
      next = el("section", { class: "card", "data-testid": "player-next" }, el("h3", {}, "Next match"),
        el("p", { class: "muted", "data-testid": "next-details" }, data.progress.finished ? "The tournament is over." : "No match waiting."));
    }
    const results = el("section", { class: "card" }, el("h3", {}, "Results"),
      el("table", { class: "list", "data-testid": "player-results" },
        el("thead", {}, el("tr", {}, el("th", {}, "Round"), el("th", {}, "Against"), el("th", {}, "Result"), el("th", {}, "Points"), el("th", {}, ""))),
        el("tbody", {}, v.results.map((r) => el("tr", { "data-pairing": r.pairing },
          el("td", {}, r.bracket_match ? matchLabel(r.bracket_match) : r.round), el("td", {}, r.opponents.join(", ") || "—"), el("td", {}, r.outcome),
          el("td", {}, r.points ?? ""), el("td", {}, r.match_id ? el("a", { href: `/matches/${r.match_id}/` }, "match →") : null))))));
    return [statusPanel(), timerPanel(), head, next, results];
  }

  // -- bracket --------------------------------------------------------------------------
  // One name per final, the same on the drawing, the match list and a player's next match.
  function finalName(b, m) {
    const last = (br) => Math.max(...b.matches.filter((x) => x.bracket === br).map((x) => x.round));
    if (m.bracket === "third_place") return "3rd place";
    if (m.bracket === "grand_final") return "Grand final";
    if (m.bracket === "reset") {
      // Played only if the losers' bracket champion wins the grand final.
      if (m.status === "not_needed") return "Grand final 2 (not needed)";
      return m.status === "waiting" ? "Grand final 2 (if needed)" : "Grand final 2";
    }
    if (m.bracket === "main" && m.round === last("main")) return "Final";
    if (m.bracket === "winners" && m.round === last("winners")) return "Winners' final";
    if (m.bracket === "losers" && m.round === last("losers")) return "Losers' final";
    return null;
  }
  const matchLabel = (matchId) => {
    const b = data.bracket;
    const m = b && b.matches.find((x) => x.id === matchId);
    const name = m && finalName(b, m);
    return name ? `${matchId} · ${name}` : matchId;
  };

  function bracketSvg(b) {
    const W = 170, H = 46, GAP = 40, PAD = 10, TITLE = 16;
    // A winners' bracket: a double elimination (the event's own, or the one a cut fed).
    const double = b.matches.some((m) => m.bracket === "winners");
    // Double elimination: the winners' bracket above the losers' bracket, and the grand final
    // with its second match to the right of both, level between the two finals that feed it.
    const sections = double
      ? [["winners", "Winners' bracket"], ["losers", "Losers' bracket"]].map(([n, t]) => [[n], t])
      : [[["main", "third_place"], null]];
    const boxes = {};
    const parts = [];
    let yOffset = PAD, maxX = 0;
    for (const [names, title] of sections) {
      const ms = b.matches.filter((m) => names.includes(m.bracket));
      if (!ms.length) continue;
      if (title) {
        parts.push(sv("text", { x: PAD, y: yOffset + 10, class: "br-label", "data-testid": `section-${names[0]}` }, title));
        yOffset += TITLE;
      }
      const cols = [...new Set(ms.map((m) => `${m.bracket}:${m.round}`))];
      cols.sort((a, c) => { const [ba, ra] = a.split(":"); const [bc, rc] = c.split(":"); return names.indexOf(ba) - names.indexOf(bc) || ra - rc; });
      const colOf = {};
      cols.forEach((c, i) => (colOf[c] = i));
      const fullOf = (m) => ((m.bracket === "main" || m.bracket === "winners")
        ? Math.max(1, b.size >> m.round)
        : Math.max(...ms.filter((x) => x.bracket === m.bracket && x.round === m.round).map((x) => x.slot)));
      const height = Math.max(...ms.map((m) => fullOf(m) * (H + 14)));
      for (const m of ms) {
        let yc = yOffset + 10 + (m.slot - 0.5) * (height / fullOf(m));
        if (m.bracket === "third_place") yc = yOffset + 10 + height - H / 2;
        const x = PAD + colOf[`${m.bracket}:${m.round}`] * (W + GAP);
        boxes[m.id] = { x, y: yc - H / 2 };
        maxX = Math.max(maxX, x + W);
      }
      yOffset += height + 24;
    }
    if (double) {
      const finals = ["grand_final", "reset"].map((n) => b.matches.find((m) => m.bracket === n)).filter(Boolean);
      const feeders = b.matches.filter((m) => m.winner_to && finals.length && m.winner_to[0] === finals[0].id && boxes[m.id]);
      const centres = feeders.map((m) => boxes[m.id].y + H / 2);
      const yc = centres.length ? centres.reduce((a, c) => a + c, 0) / centres.length : PAD + TITLE + H;
      const x0 = maxX + GAP;
      finals.forEach((m, i) => { boxes[m.id] = { x: x0 + i * (W + GAP), y: yc - H / 2 }; });
      if (finals.length) parts.push(sv("text", { x: x0, y: yc - H / 2 - 18, class: "br-label", "data-testid": "section-finals" }, "Finals"));
      maxX = x0 + finals.length * (W + GAP) - GAP;
    }
    for (const m of b.matches) {
      if (!m.winner_to || !boxes[m.id] || !boxes[m.winner_to[0]]) continue;
      // From the right edge of a match to the slot its winner fills in the next one.
      const a = boxes[m.id], t = boxes[m.winner_to[0]];
      const ty = t.y + (m.winner_to[1] ? 3 : 1) * H / 4;
      parts.push(sv("path", { d: `M${a.x + W} ${a.y + H / 2} H${t.x - GAP / 2} V${ty} H${t.x}`, class: "br-link", "data-from": m.id, "data-to": m.winner_to[0] }));
    }
    for (const m of b.matches) {
      const box = boxes[m.id];
      if (!box) continue;
      const rows = [0, 1].map((side) => {
        const pid = m.players[side];
        const name = m.names[side] || (m.status === "not_needed" ? "—" : m.sources[side]);
        const won = m.status === "done" && pid && m.winner === pid;
        return sv("g", {}, sv("rect", { x: box.x, y: box.y + side * H / 2, width: W, height: H / 2, class: `br-slot ${won ? "won" : ""} ${pid ? "" : "tbd"}` }),
          sv("text", { x: box.x + 6, y: box.y + side * H / 2 + 16, class: `br-name ${won ? "won" : ""}`, "data-testid": `slot-${m.id}-${side}` }, name));
      });
      const name = finalName(b, m);
      parts.push(sv("g", { class: `br-match ${m.status} ${m.voided ? "voided" : ""}`, "data-match": m.id, "data-status": m.status, "data-winner": m.winner ? nameOf(m.winner) : "", "data-bracket": m.bracket },
        sv("title", {}, `${m.id}${m.conditional ? " (only if needed)" : ""}: ${m.status}`), ...rows,
        sv("text", { x: box.x + W - 4, y: box.y - 3, class: "br-id", "text-anchor": "end", "data-testid": `label-${m.id}` }, name ? `${m.id} · ${name}` : m.id)));
    }
    const height = Math.max(yOffset, ...Object.values(boxes).map((x) => x.y + H + PAD));
    return sv("svg", { class: "bracket-svg", "data-testid": "bracket", width: maxX + PAD, height, viewBox: `0 0 ${maxX + PAD} ${height}` }, ...parts);
  }

  function bracketPanel() {
    if (!data.bracket) return null;
    const recs = data.rounds.filter((r) => r.kind === "bracket").flatMap((r) => r.pairings).filter((p) => ["pending", "reported", "disputed"].includes(p.status) || (data.is_organiser && p.status === "final"));
    return el("section", { class: "card" }, el("h3", {}, data.format_info.bracket_title),
      el("div", { class: "bracket-wrap" }, bracketSvg(data.bracket)),
      recs.length ? el("table", { class: "list pairings", "data-testid": "bracket-matches" },
        el("tbody", {}, recs.map((rec) => el("tr", { "data-pairing": rec.id },
          el("td", {}, rec.table ? `table ${rec.table}` : ""), el("td", { "data-testid": `match-label-${rec.id}` }, matchLabel(rec.id)), el("td", {}, rec.names.join(" v ")), el("td", { "data-testid": `result-${rec.id}` }, resultText(rec)), el("td", {}, actions(rec)))))) : null);
  }

  // -- rounds ---------------------------------------------------------------------------
  function roundsPanel() {
    const rounds = data.rounds.filter((r) => r.kind === "round");
    if (!rounds.length) return null;
    const sections = rounds.slice().reverse().map((r) => el("section", { class: "card round", "data-testid": `round-${r.number}` },
      el("h3", {}, `Round ${r.number}`),
      editLines(r.number),
      el("table", { class: "list pairings" },
        el("thead", {}, el("tr", {}, el("th", {}, data.format_info.multiplayer ? "Pod" : "Table"), el("th", {}, "Players"), el("th", {}, "Result"), el("th", {}, ""))),
        el("tbody", {}, r.pairings.map((rec) => el("tr", { "data-pairing": rec.id, class: rec.status },
          el("td", { "data-testid": `table-${rec.id}` }, rec.table ? `${rec.group !== null && rec.group !== undefined ? String.fromCharCode(65 + rec.group) + " · " : ""}${rec.table}` : "—"),
          el("td", {}, rec.players.length === 1 ? `${rec.names[0]} (${rec.source === "requested_bye" ? "requested bye" : "bye"})` : rec.names.join(data.format_info.multiplayer ? ", " : " v ")),
          el("td", { "data-testid": `result-${rec.id}` }, resultText(rec)),
          el("td", {}, actions(rec))))))));
    return el("div", {}, data.format_info.cross_table ? grid() : null, sections);
  }

  function grid() {
    const ids = data.players.filter((p) => ["active", "dropped"].includes(p.status)).map((p) => p.id);
    // Every meeting of a pair, in round order (a double round robin has two): one cell holds
    // them all, the row player's points from each, "·" for one with no result yet.
    const legs = data.options.double ? 2 : 1;
    const met = {};
    const rounds = data.rounds.filter((r) => r.kind === "round").slice().sort((x, y) => x.number - y.number);
    for (const r of rounds) for (const p of r.pairings) {
      if (p.players.length !== 2) continue;
      const [a, b] = p.players;
      for (const [x, y] of [[a, b], [b, a]]) {
        (met[`${x}|${y}`] ||= []).push({ round: r.number, points: p.status === "final" ? p.points[x] : null });
      }
    }
    const meetings = (a, b) => {
      const list = (met[`${a}|${b}`] || []).slice();
      while (list.length < legs) list.push({ round: null, points: null });
      return list;
    };
    const shown = (m) => (m.points === null || m.points === undefined ? "·" : String(m.points));
    const said = (a, b) => `${nameOf(a)} against ${nameOf(b)}: ` + meetings(a, b).map((m, i) =>
      `${legs > 1 ? `${i ? "second" : "first"} meeting` : "meeting"}${m.round ? ` (round ${m.round})` : ""} ${m.points === null || m.points === undefined ? "no result yet" : `${m.points} point(s)`}`).join("; ");
    const td = (a, b) => a === b ? el("td", { class: "self" }, "")
      : el("td", { title: said(a, b), "aria-label": said(a, b), "data-testid": `rr-${nameOf(a)}-${nameOf(b)}` },
        meetings(a, b).map(shown).join(" "));
    return el("section", { class: "card" }, el("h3", {}, "Cross table"),
      el("table", { class: "list rr-grid", "data-testid": "rr-grid" },
        el("thead", {}, el("tr", {}, el("th", {}), ids.map((x) => el("th", {}, nameOf(x))))),
        el("tbody", {}, ids.map((a) => el("tr", {}, el("th", {}, nameOf(a)), ids.map((b) => td(a, b)))))),
      legs > 1 ? el("p", { class: "muted small", "data-testid": "rr-grid-key" },
        "Each cell gives the row player's points from each meeting with the column player, first meeting then second; · is a meeting with no result yet.") : null);
  }

  function standingsPanel() {
    const s = data.standings;
    if (!s.tables.length) return null;
    // The final places of a multi-stage event: the playoff's, then the first stage's order.
    const placesTable = (t) => el("table", { class: "list standings", "data-testid": "final-places" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "Player"), el("th", {}, "Placed by"))),
      el("tbody", {}, t.rows.map((r) => el("tr", { class: r.status }, el("td", {}, r.rank),
        el("td", {}, el("a", { href: playerUrl(r.name) }, r.name)), el("td", {}, r.decided_in)))));
    return el("section", { class: "card" }, el("h3", {}, "Standings"), s.tables.map((t) => el("div", {},
      s.tables.length > 1 ? el("h4", {}, t.title) : null,
      t.places ? placesTable(t) : el("table", { class: "list standings", "data-testid": "standings" },
        el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "Player"), el("th", {}, data.elimination || t.playoff ? "Wins" : "Score"), el("th", {}, "Played"),
          (t.playoff ? ["seed"] : s.columns).map((c) => el("th", {}, c.replace(/_/g, " "))))),
        el("tbody", {}, t.rows.map((r) => el("tr", { class: r.status },
          // The tie-break in force against a neighbour on the same score, in words under the rank.
          el("td", { class: "rank" }, r.rank, r.decided_by ? el("div", { class: "muted small tiebreak-words", "data-testid": `decided-by-${r.name}` }, r.decided_by) : null),
          el("td", {}, el("a", { href: playerUrl(r.name) }, r.name), r.status === "dropped" ? el("span", { class: "muted small" }, " (dropped)") : null),
          el("td", {}, r.score), el("td", {}, r.played), (t.playoff ? ["seed"] : s.columns).map((c) => el("td", {}, r.tiebreaks[c] ?? "")))))))));
  }

  // An embedded widget (templates/tournaments/embed.html): the standings or the bracket alone.
  function embedPanels() {
    const empty = (text) => el("p", { class: "muted", "data-testid": "embed-empty" }, text);
    if (embed === "bracket") return [data.bracket ? el("div", { class: "bracket-wrap" }, bracketSvg(data.bracket)) : empty("No bracket yet.")];
    return [standingsPanel() || empty("No standings yet.")];
  }

  // Drawn through render (start: js/redraw-after-press.js), which waits for a press to end.
  function draw() {
    // A live update redraws the page: whoever was typing keeps the field, its caret and their
    // keystrokes (the new field of the same name takes the focus back), instead of typing into nothing.
    const focused = document.activeElement;
    const keep = focused && body.contains(focused) && focused.dataset.testid
      ? { testid: focused.dataset.testid, start: focused.selectionStart, end: focused.selectionEnd } : null;
    if (embed) body.replaceChildren(...embedPanels());
    else if (playerName) body.replaceChildren(...playerPage().filter(Boolean));
    else body.replaceChildren(...[statusPanel(), timerPanel(), organiserPanel(), mePanel(), draftPanel(), playersPanel(), bracketPanel(), roundsPanel(), standingsPanel()].filter(Boolean));
    if (!keep) return;
    const again = body.querySelector(`[data-testid="${CSS.escape(keep.testid)}"]`);
    if (!again) return;
    again.focus({ preventScroll: true });
    // Only text fields have a caret (a select or a date field throws).
    try { if (keep.start !== null && keep.start !== undefined) again.setSelectionRange(keep.start, keep.end); } catch (e) { /* no caret here */ }
  }

  let retry = 1500;
  function connect(status) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/streams/tournament:${id}/`);
    socket.onopen = () => { retry = 1500; status.textContent = "live"; load(); };
    // Only an update past what the page shows is news: one at or before it (a command's update
    // arriving after its own answer) would only reload what is already here.
    socket.onmessage = (ev) => { const msg = JSON.parse(ev.data); if (!data || msg.head_seq > data.head_seq) load(); };
    // On every (re)open the page reloads the tournament: whatever happened while the socket was down shows.
    // Backing off, with jitter: after a restart every open page would otherwise come back at once,
    // and again every 1.5 s while the server is still down.
    socket.onclose = () => {
      status.textContent = "reconnecting…";
      setTimeout(() => connect(status), retry * (0.75 + Math.random() / 2));
      retry = Math.min(retry * 2, 15000);
    };
    window.__tournamentSocket = socket;
  }

  function start(node) {
    root = node; id = node.dataset.id; me = node.dataset.user || null; playerName = node.dataset.player || null; embed = node.dataset.embed || null;
    body = document.getElementById("tournament-body");
    errorBox = document.getElementById("error");
    render = window.redrawAfterPress(body, draw);
    load();
    connect(node.querySelector("[data-testid=connection]"));
  }

  window.TournamentPage = { start };
})();
