// Wizarding Duels: the group builder. A Group (models, Leader, artifacts, Spellbook, quest deck) and a
// potion Stock, with the live budget, item slots, Spellbook size and quest-deck counts; every change is
// sent to the engine's check (POST /api/games/wizarding-duels/groups/check/) and each part's refusal is
// shown in the engine's own sentence. Legal Groups are saved to the account (/api/setups/) and reused
// from the home page's match form and at a match's Group step. Nothing here decides legality itself.
(function () {
  "use strict";
  const WD = window.WizardingDuels;
  const root = document.getElementById("wzd-builder");
  const boot = JSON.parse(document.getElementById("wzd-builder-data").textContent);
  const QUEST_TYPES = [
    ["minor_challenge_control", "Minor Challenge Control"], ["major_challenge_control", "Major Challenge Control"],
    ["challenge_collection", "Challenge Collection"], ["leaders_missions", "Leader's Missions"],
    ["arrival_spaces", "Control of Arrival Spaces"], ["making_impacts", "Making Impacts"],
    ["group_missions", "Missions for the Group"], ["terrain_control", "Control the Terrain"], ["various", "Various"],
  ];

  const packs = Object.keys(WD.PACKS).sort();
  const blank = (packId) => ({
    pack: packId, galleons: (WD.PACKS[packId].params || {}).galleons || 50, name: "",
    models: [], leader: 0, artifacts: [], spellbook: [], quests: {}, potions: ["", "", "", "", "", ""],
  });
  let g = blank(packs.includes("original-v1") ? "original-v1" : packs[0]);
  let report = null; // the engine's last answer
  let pending = 0;
  let message = null;
  let savedList = boot.saved || [];

  // -- DOM helpers ----------------------------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
      else if (v === true) node.setAttribute(k, "");
      else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v);
    }
    for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) node.append(c);
    return node;
  }
  const pack = () => WD.PACKS[g.pack];
  const byId = (kind) => new Map((pack()[kind] || []).map((x) => [x.id, x]));
  const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
  function csrf() { const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/); return m ? decodeURIComponent(m[1]) : ""; }
  async function api(path, options = {}) {
    const res = await fetch(path, { credentials: "same-origin", ...options,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), ...(options.headers || {}) } });
    const body = res.status === 204 ? null : await res.json().catch(() => null);
    return { ok: res.ok, status: res.status, body };
  }

  // -- the Group as the engine takes it ----------------------------------------------------------------
  function groupAction() {
    return { type: "group", models: g.models.slice(), leader: g.leader, artifacts: g.artifacts.map((a) => a.slice()),
      spellbook: g.spellbook.slice(), quests: QUEST_TYPES.map(([t]) => g.quests[t]).filter(Boolean) };
  }
  const stockAction = () => ({ type: "potions", potions: g.potions.slice() });
  const stockChosen = () => g.potions.every(Boolean);
  const config = () => ({ pack: g.pack, galleons: g.galleons });

  let timer = null;
  function changed() {
    message = null;
    report = null; // until the engine answers for this very Group
    draw();
    clearTimeout(timer);
    // One check per burst of clicks; the answer to an older Group is dropped.
    timer = setTimeout(check, 150);
  }
  async function check() {
    const ticket = ++pending;
    const res = await api("/api/games/wizarding-duels/groups/check/", { method: "POST",
      body: JSON.stringify({ config: config(), group: groupAction(), potions: stockChosen() ? stockAction() : null }) });
    if (ticket !== pending) return;
    report = res.ok ? res.body : { legal: false, refusals: { group: res.body || { detail: "The check failed; try again." }, quests: null, stock: null } };
    draw();
  }

  // -- edits ------------------------------------------------------------------------------------------
  function addModel(cid) { g.models.push(cid); g.artifacts.push([]); changed(); }
  function removeModel(i) {
    g.models.splice(i, 1); g.artifacts.splice(i, 1);
    if (g.leader >= g.models.length) g.leader = 0; else if (g.leader > i) g.leader -= 1;
    changed();
  }
  function load(setup) {
    const d = setup.data || {};
    const cfg = d.config || {};
    const [grp, stock] = d.actions || [];
    if (!WD.PACKS[cfg.pack] || !grp) return;
    g = blank(cfg.pack);
    g.galleons = cfg.galleons || g.galleons;
    g.name = setup.name;
    g.models = grp.models.slice(); g.leader = grp.leader; g.artifacts = grp.artifacts.map((a) => a.slice());
    g.spellbook = grp.spellbook.slice();
    const quests = byId("quests");
    for (const q of grp.quests) if (quests.has(q)) g.quests[quests.get(q).type] = q;
    if (stock) g.potions = stock.potions.slice();
    changed();
  }

  // -- drawing -----------------------------------------------------------------------------------------
  function refusal(part) {
    const r = report && report.refusals ? report.refusals[part] : null;
    return el("p", { class: `wzb-refusal${r ? "" : " wzb-ok"}`, "data-testid": `refusal-${part}`, "data-code": r ? r.code || "" : "" },
      r ? r.detail : report ? "✔ The engine accepts this part." : "Checking…");
  }
  const traitText = (t) => WD.traitHelp(t.id, t.x);
  function traitChips(ch) {
    return el("span", { class: "wzb-traits" }, ch.traits.map((t) =>
      el("span", { class: "wzb-trait", title: traitText(t), tabindex: "0", "data-trait": t.id }, `${WD.title(t.id)}${t.x !== undefined ? ` ${t.x}` : ""}`)));
  }

  function summary() {
    const chars = byId("characters");
    const cost = WD.groupCost(g.pack, groupAction());
    const mastery = g.models.reduce((s, c) => s + ((chars.get(c) || {}).mastery || 0), 0);
    const quests = byId("quests");
    const chosenQ = Object.values(g.quests).filter(Boolean);
    const bolts = chosenQ.filter((q) => (quests.get(q) || {}).lightning).length;
    const item = (label, value, over, testid) => el("div", { class: `wzb-stat${over ? " wzb-over" : ""}`, "data-testid": testid }, el("span", { class: "small muted" }, label), el("strong", {}, value));
    return el("section", { class: "wzb-summary card", "data-testid": "summary" },
      item("Galleons", `${cost} / ${g.galleons}`, cost > g.galleons, "stat-galleons"),
      item("Models", `${g.models.length} / 6`, g.models.length > 6, "stat-models"),
      item("Spellbook", `${g.spellbook.length} / ${mastery} (Σ Mastery)`, g.spellbook.length > mastery, "stat-spellbook"),
      item("Quest deck", `${chosenQ.length} / 9 · ⚡ ${bolts} / 4`, bolts > 4, "stat-quests"),
      item("Potions", `${g.potions.filter(Boolean).length} / 6`, false, "stat-potions"));
  }

  function header() {
    return el("section", { class: "wzb-head card" },
      el("label", {}, "Pack ", el("select", { "data-testid": "pack", onchange: (e) => { const name = g.name; g = blank(e.target.value); g.name = name; changed(); } },
        packs.map((p) => el("option", { value: p, selected: p === g.pack }, WD.PACKS[p].name || p)))),
      el("label", {}, "Galleon budget ", el("input", { type: "number", min: "1", max: "999", value: String(g.galleons), "data-testid": "budget",
        onchange: (e) => { const n = parseInt(e.target.value, 10); g.galleons = Number.isFinite(n) && n > 0 ? n : g.galleons; changed(); } })),
      savedList.length ? el("div", { class: "wzb-saved", "data-testid": "saved-list" }, el("span", { class: "small muted" }, "Your saved Groups: "),
        savedList.map((s) => el("span", { class: "wzb-saved-item" },
          el("button", { type: "button", class: "link", "data-testid": `load-${s.name}`, onclick: () => load(s) }, s.name),
          el("button", { type: "button", class: "link wzb-x", title: `Delete ${s.name}`, "aria-label": `Delete ${s.name}`,
            onclick: async () => { const r = await api(`/api/setups/${s.id}/`, { method: "DELETE" }); if (r.ok) { savedList = savedList.filter((x) => x.id !== s.id); draw(); } } }, "✕")))) : null);
  }

  function roster() {
    const by = new Map();
    for (const c of pack().characters) { if (!by.has(c.affiliation)) by.set(c.affiliation, []); by.get(c.affiliation).push(c); }
    return el("section", { class: "wzb-roster card" }, el("h2", {}, "Characters"),
      el("p", { class: "small muted" }, "One affiliation per Group, unique names (Horde excepted), at most six models."),
      [...by].map(([aff, list]) => el("div", {}, el("h3", {}, aff), el("ul", { class: "wzb-list" }, list.map((c) =>
        el("li", { class: "wzb-char" },
          el("div", {}, el("strong", {}, c.name), ` · ${c.galleons} G · Mastery ${c.mastery} · Defense ${c.defense} · ${plural(c.slots, "slot")}`),
          el("div", { class: "small" }, traitChips(c)),
          el("button", { type: "button", class: "wzb-add", "data-testid": `add-${c.id}`, onclick: () => addModel(c.id) }, "Add")))))));
  }

  function groupPanel() {
    const chars = byId("characters");
    const arts = byId("artifacts");
    const used = new Set(g.artifacts.flat());
    return el("section", { class: "wzb-group card", "data-testid": "group" }, el("h2", {}, "Your Group"),
      g.models.length ? null : el("p", { class: "muted" }, "No model yet: add one from the characters."),
      el("ol", { class: "wzb-list" }, g.models.map((cid, i) => {
        const ch = chars.get(cid) || { name: cid, slots: 0, galleons: 0, traits: [] };
        const carried = g.artifacts[i];
        const master = ch.traits.some((t) => t.id === "master_of_death");
        const slotsUsed = carried.filter((a) => !(master && ((arts.get(a) || {}).keywords || []).includes("Deathly Hallow"))).length;
        const free = [...arts.values()].filter((a) => !used.has(a.id));
        return el("li", { class: "wzb-member", "data-testid": `member-${i}` },
          el("div", {}, el("label", { class: "wzb-check" }, el("input", { type: "radio", name: "leader", checked: g.leader === i, "data-testid": `leader-${i}`,
            onchange: () => { g.leader = i; changed(); } }), "Leader"), " ", el("strong", {}, ch.name), ` · ${ch.galleons} G`,
          el("span", { class: `wzb-slots${slotsUsed > ch.slots ? " wzb-over" : ""}`, "data-testid": `slots-${i}` }, ` · slots ${slotsUsed}/${ch.slots}`),
          el("button", { type: "button", class: "link wzb-x", "data-testid": `remove-${i}`, onclick: () => removeModel(i) }, "remove")),
          el("div", { class: "small" }, traitChips(ch)),
          el("div", { class: "small" }, carried.map((a, k) => el("span", { class: "wzb-art" }, `${(arts.get(a) || {}).name || a} (${(arts.get(a) || {}).galleons || 0} G)`,
            el("button", { type: "button", class: "link wzb-x", "data-testid": `drop-artifact-${i}-${k}`,
              onclick: () => { carried.splice(k, 1); changed(); } }, "✕"))),
          el("select", { "data-testid": `artifact-${i}`, "aria-label": `Give ${ch.name} an artifact`,
            onchange: (e) => { if (e.target.value) { carried.push(e.target.value); changed(); } } },
          el("option", { value: "" }, "+ artifact…"),
          free.map((a) => el("option", { value: a.id }, `${a.name} · ${a.galleons} G${a.rarity === "legendary" ? " · Legendary" : ""}${a.keywords.length ? ` · ${a.keywords.join(", ")}` : ""}${a.restricted_to.length ? ` · only ${a.restricted_to.join(", ")}` : ""}`)))));
      })),
      refusal("group"));
  }

  function spellbook() {
    const spells = pack().spells.filter((s) => s.id !== (pack().params.basic_combat_spell || {}).id);
    return el("section", { class: "wzb-spells card" }, el("h2", {}, "Spellbook"),
      el("p", { class: "small muted" }, "At most the Group's total Mastery; no two cards of one name."),
      el("ul", { class: "wzb-list wzb-columns" }, spells.map((s) => el("li", {},
        el("label", { class: "wzb-check", title: `${WD.effectsText(s.effects)}; range ${s.range}, modifier ${s.modifier >= 0 ? "+" : ""}${s.modifier}, cooldown ${s.cooldown}${s.upkeep ? `, upkeep ${s.upkeep}` : ""}${s.empower ? `, empower ${s.empower.cost} ${s.empower.colour}` : ""}` },
          el("input", { type: "checkbox", checked: g.spellbook.includes(s.id), "data-testid": `spell-${s.id}`,
            onchange: (e) => { g.spellbook = e.target.checked ? [...g.spellbook, s.id] : g.spellbook.filter((x) => x !== s.id); changed(); } }),
          ` ${s.name}`, el("span", { class: "small muted" }, ` ${s.combat ? "combat" : s.reaction ? "reaction" : "utility"}${s.unforgivable ? ", Unforgivable" : ""}`))))));
  }

  function questDeck() {
    const quests = pack().quests;
    return el("section", { class: "wzb-quests card" }, el("h2", {}, "Quest deck"),
      el("p", { class: "small muted" }, "Nine quests, one of each type, at most four ⚡ (scored the instant they are met)."),
      el("div", { class: "wzb-grid" }, QUEST_TYPES.map(([t, label]) => el("label", {}, el("span", { class: "small" }, label),
        el("select", { "data-testid": `quest-${t}`, onchange: (e) => { g.quests[t] = e.target.value; changed(); } },
          el("option", { value: "" }, "—"),
          quests.filter((q) => q.type === t).map((q) => el("option", { value: q.id, selected: g.quests[t] === q.id, title: WD.conditionText(q.condition) },
            `${q.name}${q.lightning ? " ⚡" : ""} · ${q.points} QP`)))))),
      refusal("quests"));
  }

  function potions() {
    const pots = [...pack().potions].sort((a, b) => a.level - b.level || (a.name < b.name ? -1 : 1));
    return el("section", { class: "wzb-potions card" }, el("h2", {}, "Potion Stock"),
      el("p", { class: "small muted" }, "Six potions of level 0; each Potioneer X lets one of them be of level up to X."),
      el("div", { class: "wzb-grid" }, g.potions.map((p, i) => el("select", { "data-testid": `potion-${i}`, "aria-label": `Potion ${i + 1}`,
        onchange: (e) => { g.potions[i] = e.target.value; changed(); } },
      el("option", { value: "" }, `Potion ${i + 1}…`),
      pots.map((x) => el("option", { value: x.id, selected: p === x.id, title: `${WD.effectsText(x.effects)}; range ${x.range}` }, `L${x.level} · ${x.name} (range ${x.range})`))))),
      stockChosen() ? refusal("stock") : el("p", { class: "small muted", "data-testid": "refusal-stock" }, "Choose six potions (or leave the Stock to the match)."));
  }

  function saveBar() {
    const legal = !!(report && report.legal);
    return el("section", { class: "wzb-save card" },
      el("label", {}, "Name ", el("input", { type: "text", maxlength: "80", value: g.name, "data-testid": "name",
        oninput: (e) => { g.name = e.target.value; } })),
      el("button", { type: "button", class: "primary", "data-testid": "save", disabled: !legal || !boot.signed_in,
        onclick: save }, "Save to my account"),
      boot.signed_in ? null : el("span", { class: "small muted" }, " Sign in to save."),
      message ? el("p", { class: message.ok ? "wzb-ok" : "error", "data-testid": "save-message" }, message.text) : null);
  }

  async function save() {
    const name = g.name.trim();
    if (!name) { message = { ok: false, text: "Give the Group a name first." }; draw(); return; }
    const actions = [groupAction()];
    if (stockChosen()) actions.push(stockAction());
    const res = await api("/api/setups/", { method: "POST", body: JSON.stringify({ game: "wizarding-duels", name, data: { config: config(), actions } }) });
    if (res.ok) {
      savedList = [...savedList.filter((s) => s.id !== res.body.id), res.body].sort((a, b) => (a.name < b.name ? -1 : 1));
      message = { ok: true, text: `Saved “${name}”. Choose it in the home page's match form, or at a match's Group step.` };
    } else {
      message = { ok: false, text: (res.body && res.body.detail) || "Saving failed." };
    }
    draw();
  }

  function draw() {
    const legal = !!(report && report.legal);
    const focus = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.testid : null;
    root.setAttribute("data-legal", report ? String(legal) : "checking");
    root.replaceChildren(header(), summary(), saveBar(),
      el("div", { class: "wzb-main" }, el("div", { class: "wzb-col" }, groupPanel(), roster()),
        el("div", { class: "wzb-col" }, questDeck(), potions(), spellbook())));
    if (focus) { const again = root.querySelector(`[data-testid="${focus}"]`); if (again && again.focus) again.focus(); }
  }

  draw();
  const edit = boot.edit ? savedList.find((s) => String(s.id) === String(boot.edit)) : null;
  if (edit) load(edit); else check();
})();
