// The host's page: a new game, the list of games with their seats' links, statistics, import.
"use strict";

const $ = (id) => document.getElementById(id);
let catalogue = null;

function seatRows() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat-row")].map((r) => ({
    who: r.querySelector("select").value, knobs: r.querySelector("input.knobs").value,
    name: r.querySelector("input.name").value,
  }));
  const rows = [];
  for (let s = 0; s < n; s++) {
    const prev = old[s] || { who: s === 0 ? "you" : catalogue.default, knobs: "", name: "" };
    const sel = h("select", { "aria-label": `seat ${s}`, "data-seat": s },
      h("option", { value: "you" }, "you"),
      h("option", { value: "human" }, "another person (gets a link)"),
      catalogue.players.map((p) => h("option", { value: p }, `${p} (bot)`)));
    sel.value = prev.who;
    rows.push(h("div", { class: "seat-row" }, `seat ${s} (team ${teamOf(s, n)})`, sel,
      h("input", { class: "knobs", placeholder: "knobs, e.g. worlds=16", size: 16, value: prev.knobs,
        "aria-label": `knobs of seat ${s}` }),
      h("input", { class: "name", placeholder: "name", size: 10, value: prev.name,
        "aria-label": `name of seat ${s}` })));
  }
  box.replaceChildren(...rows);
  $("layout").hidden = n !== 6;
}

function teamOf(s, n) {
  if (n === 6 && $("layout").value === "3x2") return s % 3;
  if (n === 3) return s;
  return s % 2;
}

async function newGame(ev) {
  ev.preventDefault();
  $("new-error").replaceChildren();
  const n = Number($("players").value);
  const rows = [...$("seats").querySelectorAll(".seat-row")];
  const seats = [], names = [];
  let you = -1;
  rows.forEach((r, s) => {
    const who = r.querySelector("select").value;
    const knobs = r.querySelector("input.knobs").value.trim();
    if (who === "you") { seats.push("human"); if (you < 0) you = s; }
    else if (who === "human") seats.push("human");
    else seats.push(knobs ? `${who}:${knobs}` : who);
    names.push(r.querySelector("input.name").value.trim());
  });
  const seed = $("seed").value.trim();
  const body = {
    rules: $("preset").value, players: n, team_layout: n === 6 ? $("layout").value : null,
    set: $("sets").value, seats, names, mode: $("mode").value,
    seed: seed === "" ? null : (/^\d+$/.test(seed) ? Number(seed) : seed),
    practice: document.querySelector("input[name=kind]:checked").value === "practice",
    tutor: $("tutor").checked, tutor_threshold: Number($("threshold").value),
  };
  try {
    const res = await call("POST", "/api/games", body);
    const others = Object.entries(res.links).filter(([s]) => Number(s) !== you);
    if (others.length) {
      $("new-links").replaceChildren(h("p", {}, "Send each person the link of their seat:"),
        ...others.map(([s, url]) => h("div", {}, `seat ${s}: `, h("input", { value: url, readonly: true }))),
        you >= 0 ? h("p", {}, h("a", { href: res.links[String(you)], class: "primary" }, "Go to your seat")) : "");
      loadGames();
    } else {
      location.href = res.links[String(you)];
    }
  } catch (e) {
    $("new-error").replaceChildren(h("div", { class: "error", role: "alert" }, e.message));
  }
}

function when(t) {
  return new Date(t * 1000).toLocaleString();
}

async function loadGames() {
  try {
    const { games } = await call("GET", "/api/games");
    if (!games.length) { $("games").replaceChildren(h("p", { class: "muted" }, "No games yet.")); return; }
    $("games").replaceChildren(h("table", { class: "data", id: "games-table" },
      h("tr", {}, ["started", "rules", "seats", "hands", "status", "open"].map((x) =>
        h("th", { class: "l" }, x))),
      games.map((g) => {
        const s = g.settings || {};
        const done = g.hands.filter((x) => x.result);
        return h("tr", {},
          h("td", { class: "l" }, when(g.created)),
          h("td", { class: "l" }, `${s.rules || "?"} ${s.players || "?"}p${g.imported ? " (imported)" : ""}`),
          h("td", { class: "l" }, (s.seats || []).join(", ")),
          h("td", { class: "l" }, done.map((x) => x.result.join(":")).join(" · ") || "–"),
          h("td", { class: "l" }, g.status),
          h("td", { class: "l" }, Object.entries(g.links).map(([seat, url]) =>
            h("a", { href: url, style: "margin-right:8px" }, `seat ${seat}`))));
      })));
  } catch (e) {
    $("games").replaceChildren(h("div", { class: "error" }, e.message));
  }
}

async function loadStats() {
  try {
    const s = await call("GET", "/api/stats");
    const row = (label, x, unit, digits) => h("tr", {}, h("td", { class: "l" }, label),
      h("td", {}, x.n), h("td", {}, x.mean === null ? "–" : pm(x.mean, x.low, x.high, digits)),
      h("td", { class: "l muted" }, unit));
    $("stats").replaceChildren(
      s.hands === 0 ? h("p", { class: "muted" }, "Play a hand to see your figures here.") : "",
      h("table", { class: "data", id: "stats-table" },
        h("tr", {}, h("th", { class: "l" }, ""), h("th", {}, "n"), h("th", {}, "mean [95% CI]"), h("th", {}, "")),
        row("your team's hand result", s.result_per_hand, "points per hand"),
        row("games won", s.games_won, "share of whole games", 2),
        row("equity lost per decision", s.lost_per_decision, "points (reviewed hands)", 1),
        row("equity lost per hand", s.lost_per_hand, "points (reviewed hands)"),
        row("mistakes and blunders per hand", s.mistakes_per_hand, "reviewed hands", 2),
        row("luck per hand", s.luck_per_hand, "points (reviewed hands)"),
        row(`last ${s.recent.result_per_hand.n} hands: result`, s.recent.result_per_hand, "points per hand"),
        row("last hands: equity lost per decision", s.recent.lost_per_decision, "points", 1)));
  } catch (e) {
    $("stats").replaceChildren(h("div", { class: "error" }, e.message));
  }
}

async function importHand() {
  $("import-out").replaceChildren();
  try {
    const res = await call("POST", "/api/import", { text: $("record").value, seat: Number($("import-seat").value) });
    const url = Object.values(res.links)[0];
    $("import-out").replaceChildren(h("p", {}, "Imported: ", h("a", { href: url }, "open it (replay and review)")));
    loadGames();
  } catch (e) {
    $("import-out").replaceChildren(h("div", { class: "error", role: "alert" }, e.message));
  }
}

async function main() {
  const key = hostKey();
  try {
    catalogue = await call("GET", "/api/catalogue");
  } catch (e) {
    $("notice").replaceChildren(h("div", { class: "error" }, e.message));
    return;
  }
  if (!key) { $("nokey").hidden = false; return; }
  $("hostpage").hidden = false;
  $("preset").replaceChildren(...Object.keys(catalogue.presets).map((p) => h("option", { value: p }, p)));
  const desc = () => { $("preset-desc").textContent = catalogue.presets[$("preset").value]; };
  $("preset").addEventListener("change", desc);
  desc();
  $("players").addEventListener("change", seatRows);
  $("layout").addEventListener("change", seatRows);
  seatRows();
  $("new-game").addEventListener("submit", newGame);
  $("import").addEventListener("click", importHand);
  loadGames().catch(() => {});
  loadStats();
}

main();
