// One seat's table: renders the seat's view (GET /api/t/TOKEN/state, long-polled), sends its
// moves, asks for hints, shows the tutor's warnings, the review and the replay.
"use strict";

const TOKEN = location.pathname.split("/").pop();
const API = `/api/t/${TOKEN}`;
let view = null;
let selected = new Set(); // indices into the flat list of the hand's cards
let hintTimer = null;
let reviewTimer = null;
let replay = null; // {hand, frames, at}
let busy = false;

const $ = (id) => document.getElementById(id);

function showError(msg) {
  $("error").replaceChildren(msg ? h("div", { class: "error", role: "alert" }, msg) : "");
}

function seatName(s) {
  const seat = view.seats[s];
  if (!seat) return `seat ${s}`;
  return seat.player === "you" ? "You" : seat.name;
}

// ---------------------------------------------------------------- rendering
function render(v) {
  if (view && v.version < view.version) return;
  const changed = !view || v.version !== view.version;
  view = v;
  if (changed) selected.clear();
  const t0 = performance.now();
  renderHeader();
  renderFelt();
  renderHand();
  renderTeams();
  renderLog();
  renderHands();
  renderEnd();
  renderHint(v.hint);
  document.body.dataset.version = v.version;
  document.body.dataset.phase = v.hand.phase;
  document.body.dataset.toAct = v.hand.to_act === null ? "" : v.hand.to_act;
  window.lastRenderMs = performance.now() - t0;
}

function renderHeader() {
  const s = view.settings;
  $("rules").textContent =
    `${s.rules} · hand ${view.hand.index + 1} · ${s.mode === "game" ? `game to ${s.target}` : "one hand"}` +
    ` · ${s.practice ? "practice" : "rated"}${s.tutor ? ` · tutor ≥ ${s.tutor_threshold}` : ""}`;
  const g = view.games;
  const pw = g.p_win;
  $("scores").replaceChildren(
    ...view.teams.map((t) =>
      h("span", {},
        `Team ${t.team}${t.seats.includes(view.you) ? " (you)" : ""}: `,
        h("span", { class: "sc" }, g.totals[t.team]),
        s.mode === "game"
          ? h("span", { class: "muted-light", title: "P(win the game), 95% interval" },
              pw ? ` · P(win) ${pct(pw[t.team].p, pw[t.team].low, pw[t.team].high)}`
                 : " · P(win) …")
          : null)
    )
  );
  $("home").hidden = !localStorage.getItem("canasta-key");
}

function renderFelt() {
  const felt = $("felt");
  const n = view.seats.length;
  const order = [];
  for (let k = 1; k <= n; k++) order.push((view.you + k) % n);
  const boxes = order.map((s) => {
    const seat = view.seats[s];
    const tags = [];
    if (seat.dealer) tags.push("dealer");
    if (seat.team !== null) tags.push(`team ${seat.team}`);
    if (seat.player !== "you" && seat.player !== "human" && !seat.name.includes(seat.player))
      tags.push(seat.player);
    const place = n === 4 ? ["left", "top", "right", "bottom"][order.indexOf(s)] : "any";
    return h("div", { class: `seat ${place}` + (seat.to_act ? " to-act" : ""), "data-seat": s },
      h("div", {}, h("span", { class: "name" }, seatName(s)),
        h("span", { class: "tag" }, tags.join(" · "))),
      seat.cards === null
        ? h("div", { class: "muted-light" }, "sits this hand out")
        : h("div", {}, `${seat.cards} cards`,
            seat.known.length
              ? h("span", { title: "cards everybody knows it holds (taken with the pile)" },
                  " · known: ", seat.known.flatMap((g) => g.cards.map((c) => card(c, { small: true }))))
              : null)
    );
  });
  const pile = view.hand.pile;
  const center = h("div", { class: "center" },
    h("div", { class: "stock" }, h("div", { class: "label" }, "stock"),
      h("div", { class: "card" }, view.hand.stock)),
    h("div", { class: "pile", id: "pile" }, h("div", { class: "label" }, `pile · ${pile.size} cards`),
      pile.top ? card(pile.top) : h("span", { class: "card" }, "–"),
      pile.frozen ? h("div", { class: "frozen" }, "frozen") : null),
    h("div", {}, view.hand.phase === "over"
      ? h("strong", {}, "The hand is over")
      : view.hand.to_act === view.you
        ? h("strong", { id: "your-turn" }, `Your turn: ${view.hand.phase === "draw" ? "draw or take the pile" : "meld, then discard"}`)
        : h("span", {}, `${seatName(view.hand.to_act)} is playing…`))
  );
  felt.className = n === 4 ? "felt four" : "felt";
  felt.replaceChildren(center, ...boxes);
}

function flatHand() {
  if (!view.mine) return [];
  return view.mine.cards.flatMap((g) => g.cards);
}

function freshCards() {
  // the cards the seat's last draw brought, while it is still that turn
  const log = view.log;
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].seat !== view.you) return [];
    if (log[i].drew) return log[i].drew.slice();
  }
  return [];
}

function renderHand() {
  const box = $("hand");
  const myTurn = view.hand.to_act === view.you;
  $("me-title").textContent = view.mine
    ? `Your hand · ${view.mine.count} cards` + (view.mine.aside.length ? " (and cards held aside)" : "")
    : "You sit this hand out";
  if (!view.mine) {
    box.replaceChildren();
    $("actions").replaceChildren();
    renderTools();
    return;
  }
  const fresh = freshCards();
  let i = 0;
  const groups = view.mine.cards.map((g) =>
    h("span", { class: "group" }, g.cards.map((c) => {
      const k = i++;
      const f = fresh.indexOf(c);
      if (f >= 0) fresh.splice(f, 1);
      return card(c, {
        button: myTurn && view.hand.phase === "meld",
        selected: selected.has(k),
        fresh: f >= 0,
        title: f >= 0 ? "just drawn" : null,
        onclick: myTurn && view.hand.phase === "meld" ? () => toggle(k) : null,
      });
    }))
  );
  const aside = view.mine.aside.length
    ? h("div", { class: "muted" }, "held aside until the minimum is met: ",
        view.mine.aside.flatMap((g) => g.cards.map((c) => card(c, { small: true }))))
    : null;
  box.replaceChildren(...groups, aside || "");
  renderActions();
  renderTools();
}

function toggle(k) {
  if (selected.has(k)) selected.delete(k); else selected.add(k);
  renderHand();
  renderTeams();
}

function selectedCards() {
  const flat = flatHand();
  return [...selected].sort((a, b) => a - b).map((k) => flat[k]);
}

function rankOf(label) {
  const m = /^(10|[2-9JQKA])[CDHS]$/.exec(label);
  return m ? m[1] : label;
}

function renderActions() {
  const box = $("actions");
  if (view.hand.to_act !== view.you || !view.legal.length) {
    box.replaceChildren(view.hand.phase === "over" ? "" :
      h("span", { class: "muted" }, "Waiting for the other players…"));
    return;
  }
  const groups = {};
  for (const a of view.legal) {
    const verb = a.text.split(" ")[0];
    (groups[verb] = groups[verb] || []).push(a);
  }
  const kids = [];
  const sel = selectedCards();
  if (view.hand.phase === "meld") {
    kids.push(h("div", { class: "verb" },
      h("button", { class: "primary", id: "meld-selected", disabled: sel.length === 0,
        onclick: () => send({ cards: sel }) },
        sel.length ? `Meld ${sel.map(rankOf).join(" ")}` : "Select cards to meld"),
      h("button", { id: "discard-selected", disabled: sel.length !== 1,
        onclick: () => send({ action: `discard ${rankOf(sel[0])}` }) },
        sel.length === 1 ? `Discard ${rankOf(sel[0])}` : "Discard (select one card)")));
  }
  for (const [verb, acts] of Object.entries(groups)) {
    kids.push(h("div", { class: "verb" }, h("span", { class: "muted" }, verb + ":"),
      acts.map((a) => h("button", { class: "act", "data-action": a.id,
        onclick: () => send({ action: a.id }) }, a.text))));
  }
  box.replaceChildren(...kids);
}

function renderTools() {
  const s = view.settings;
  const myTurn = view.hand.to_act === view.you && view.legal.length > 0;
  const tools = [];
  if (s.practice && myTurn)
    tools.push(h("button", { id: "hint-button", onclick: askHint,
      title: view.legal.length < 2 ? "only one legal move" : "rank your moves by rollouts" }, "Hint"));
  if (s.practice && s.humans.length === 1 && view.hand.phase !== "over" &&
      view.log.some((x) => x.seat === view.you))
    tools.push(h("button", { id: "undo-button", onclick: undo }, "Undo my last move"));
  if (view.games.hand_over && !view.games.over)
    tools.push(h("button", { class: "primary", id: "next-hand", onclick: nextHand }, "Next hand"));
  $("tools").replaceChildren(...tools);
}

function meldBox(m, team) {
  const cls = ["meld"];
  if (m.canasta) cls.push(`canasta-${m.canasta}`);
  const mine = view.mine && team.team === view.mine.team;
  const sel = selectedCards();
  const canAdd = mine && sel.length && view.hand.to_act === view.you && view.hand.phase === "meld";
  if (canAdd) cls.push("target");
  const cards = [];
  for (let i = 0; i < m.naturals; i++) cards.push(card(m.rank, { small: true }));
  for (let i = 0; i < m.twos; i++) cards.push(card("2", { small: true }));
  for (let i = 0; i < m.jokers; i++) cards.push(card("JK", { small: true }));
  return h("div", {
    class: cls.join(" "),
    "data-meld": m.rank,
    title: canAdd ? `add the selected cards to the ${m.rank}s` : null,
    onclick: canAdd ? () => send({ cards: sel.concat([]) }) : null,
  }, cards, h("span", { class: "mtag" },
    m.canasta ? `${m.canasta} canasta (${m.size})` : `${m.size} cards`));
}

function renderTeams() {
  $("teams").replaceChildren(...view.teams.map((t) => {
    const mine = view.mine && t.team === view.mine.team;
    const names = t.seats.map(seatName).join(", ");
    return h("div", { class: "team" + (mine ? " mine" : ""), "data-team": t.team },
      h("h3", {}, `Team ${t.team} · ${names}`),
      h("div", { class: "muted" },
        t.opened ? "opened" : `needs ${t.minimum} to open`,
        ` · red threes: ${t.red3}`,
        ` · score ${t.score}`),
      t.melds.length || t.sequences.length || t.closed.length
        ? h("div", {},
            t.melds.map((m) => meldBox(m, t)),
            t.closed.map((c) => h("div", { class: "meld canasta-mixed" },
              card(c.rank, { small: true }), h("span", { class: "mtag" }, `${c.count} closed canasta(s)`))),
            t.sequences.map((q) => h("div", { class: "meld" + (q.samba ? " canasta-natural" : "") },
              h("span", {}, q.text), h("span", { class: "mtag" }, q.samba ? `samba (${q.size})` : `sequence (${q.size})`))))
        : h("div", { class: "muted" }, "no melds yet"));
  }));
}

function renderLog() {
  const box = $("log");
  const items = view.log.slice(-40);
  box.replaceChildren(...items.map((x, j) =>
    h("div", { class: j === items.length - 1 ? "last" : "" },
      `${seatName(x.seat)}: ${x.text}`,
      x.drew ? h("span", { class: "muted" }, ` (drew ${x.drew.join(" ")})`) : null)));
  box.scrollTop = box.scrollHeight;
}

function renderHands() {
  const rows = view.games.hands.map((hd) => {
    const over = hd.score !== null;
    return h("div", {},
      `Hand ${hd.index + 1}: `,
      over ? hd.score.join(" : ") : "playing",
      over ? h("span", {}, " ",
        h("button", { onclick: () => openReview(hd.index) }, "review"),
        h("button", { class: "replay-button", onclick: () => openReplay(hd.index) }, "replay"),
        h("a", { href: `${API}/export/${hd.index + 1}?format=record` }, "record"), " ",
        h("a", { href: `${API}/export/${hd.index + 1}?format=json` }, "json")) : null);
  });
  $("hands").replaceChildren(...rows,
    h("div", { class: "muted" }, `Totals: ${view.games.totals.join(" : ")}` +
      (view.games.over ? " · the game is over" : "")));
}

function scoreTable(score, nTeams) {
  const names = { score: "hand score", meld_points: "melded cards", canasta_bonus: "canastas",
    red3_points: "red threes", go_out_bonus: "going out", hand_penalty: "cards left in hands" };
  return h("table", { class: "data" },
    h("tr", {}, h("th", { class: "l" }, ""), [...Array(nTeams).keys()].map((t) => h("th", {}, `team ${t}`))),
    Object.entries(names).map(([k, label]) =>
      h("tr", {}, h("td", { class: "l" }, label), score[k].map((x) => h("td", {}, k === "hand_penalty" ? -x : x)))));
}

function renderEnd() {
  const over = view.hand.phase === "over";
  $("end-panel").hidden = !over;
  if (!over) { $("review-panel").hidden = true; return; }
  const e = view.end;
  $("end-title").textContent = `The hand is over: ${e.reason}` +
    (e.went_out !== null ? ` (${seatName(e.went_out)} went out${e.concealed ? ", concealed" : ""})` : "");
  $("end").replaceChildren(
    scoreTable(e.score, view.teams.length),
    h("h3", {}, "Every hand"),
    ...e.hands.map((x) => h("div", {}, h("strong", {}, `${seatName(x.seat)}: `),
      x.cards.length ? x.cards.flatMap((g) => g.cards.map((c) => card(c, { small: true }))) : "no cards")),
    h("div", {}, h("button", { class: "primary", id: "open-replay", onclick: () => openReplay(view.hand.index) }, "Replay the hand"),
      h("button", { id: "open-review", onclick: () => openReview(view.hand.index) }, "Review")));
  if (view.review && $("review-panel").hidden && view.review.status !== "none") renderReview(view.review, view.hand.index);
}

// ---------------------------------------------------------------- moves
async function send(body) {
  if (busy) return;
  busy = true;
  showError("");
  try {
    const res = await call("POST", `${API}/act`, Object.assign({ version: view.version }, body));
    if (res.tutor) {
      render(res.view);
      tutorDialog(res.tutor, body);
    } else {
      render(res.view);
    }
  } catch (e) {
    showError(e.message);
    if (e.status === 409) refresh();
  } finally {
    busy = false;
  }
}

function tutorDialog(w, body) {
  const d = $("tutor");
  $("tutor-text").textContent =
    `“${w.played}” loses about ${w.loss.toFixed(0)} points [${w.loss_ci[0].toFixed(0)}, ` +
    `${w.loss_ci[1].toFixed(0)}] (95%) against “${w.best}”.`;
  $("tutor-best").textContent = `Play ${w.best}`;
  $("tutor-anyway").textContent = `Play ${w.played} anyway`;
  $("tutor-back").onclick = () => d.close();
  $("tutor-best").onclick = () => { d.close(); send({ action: w.best_id, confirm: true }); };
  $("tutor-anyway").onclick = () => { d.close(); send(Object.assign({}, body, { confirm: true })); };
  d.showModal();
}

async function undo() {
  try {
    render((await call("POST", `${API}/undo`, {})).view);
  } catch (e) { showError(e.message); }
}

async function nextHand() {
  try {
    replay = null;
    $("replay-panel").hidden = true;
    $("review-panel").hidden = true;
    render(await call("POST", `${API}/next`, {}));
  } catch (e) { showError(e.message); }
}

// ---------------------------------------------------------------- hints
async function askHint() {
  try {
    renderHint(await call("POST", `${API}/hint`, {}));
    pollHint();
  } catch (e) { showError(e.message); }
}

function pollHint() {
  clearTimeout(hintTimer);
  hintTimer = setTimeout(async () => {
    try {
      const h2 = await call("GET", `${API}/hint`);
      renderHint(h2);
      if (h2.status === "running" || h2.status === "waiting") pollHint();
    } catch (e) { /* the decision passed: nothing to show */ }
  }, 300);
}

function renderHint(hint) {
  const panel = $("hint-panel");
  if (!hint) { panel.hidden = true; return; }
  panel.hidden = false;
  const box = $("hint");
  const pctDone = Math.round(100 * hint.progress);
  const head = hint.status === "done"
    ? h("div", { class: "muted" }, `${hint.rollouts} rollouts per action in ${hint.seconds} s; ` +
        "value = your team's hand result minus the best opponent's (points), 95% intervals; " +
        "loss = against the best, paired (same worlds)")
    : hint.status === "failed" ? h("div", { class: "error" }, hint.error)
    : h("div", {}, h("div", { class: "muted", id: "hint-progress" },
        hint.status === "waiting" ? "waiting for another analysis…" :
        `thinking… ${hint.rollouts} rollouts per action` + (hint.widest ? `, widest ±${hint.widest}` : "")),
        h("div", { class: "progress" }, h("div", { style: `width:${pctDone}%` })));
  const withWin = hint.actions.some((r) => r.p_win);
  const rows = hint.actions.slice(0, 12).map((r, j) =>
    h("tr", { class: j === 0 ? "best" : "" },
      h("td", { class: "l" }, r.action),
      h("td", {}, pm(r.mean, r.ci[0], r.ci[1])),
      h("td", {}, j === 0 ? "best" : pm(r.loss, r.loss_ci[0], r.loss_ci[1])),
      h("td", {}, `${Math.round(100 * r.p_out)}%`),
      withWin ? h("td", {}, r.p_win ? pct(r.p_win[0], r.p_win[1], r.p_win[2]) : "–") : null,
      h("td", {}, r.rollouts),
      h("td", {}, view.hand.to_act === view.you
        ? h("button", { onclick: () => send({ action: r.id, confirm: true }) }, "play") : "")));
  box.replaceChildren(head, rows.length ? h("div", { class: "scroll" }, h("table", { class: "data", id: "hint-table" },
    h("tr", {}, h("th", { class: "l" }, "action"), h("th", {}, "value [95%]"), h("th", {}, "loss [95%]"),
      h("th", {}, "P(out)"), withWin ? h("th", {}, "P(win game)") : null, h("th", {}, "n"),
      h("th", {}, "")), rows)) : "");
}

// ---------------------------------------------------------------- review and replay
async function openReview(idx) {
  $("review-panel").hidden = false;
  $("review").replaceChildren(h("div", { class: "muted" }, "loading the review…"));
  try {
    const r = await call("POST", `${API}/review/${idx + 1}`, {});
    renderReview(r, idx);
  } catch (e) { $("review").replaceChildren(h("div", { class: "error" }, e.message)); }
}

function renderReview(r, idx) {
  $("review-panel").hidden = false;
  const box = $("review");
  clearTimeout(reviewTimer);
  if (r.status === "none") {
    box.replaceChildren(h("div", { class: "muted" }, "You made no decision in this hand."));
    return;
  }
  if (r.status !== "done") {
    box.replaceChildren(r.status === "failed" ? h("div", { class: "error" }, r.error) :
      h("div", {}, h("div", { class: "muted", id: "review-progress" },
        `reviewing your decisions… ${r.decisions_done || 0} of ${r.decisions || "?"}`),
        h("div", { class: "progress" }, h("div", { style: `width:${Math.round(100 * r.progress)}%` }))));
    if (r.status !== "failed")
      reviewTimer = setTimeout(async () => {
        try { renderReview(await call("GET", `${API}/review/${idx + 1}`), idx); } catch (e) { /* gone */ }
      }, 700);
    return;
  }
  const rv = r.review;
  const withWin = rv.summary.some((s) => s.p_win_lost !== undefined && s.p_win_lost !== null);
  const heads = ["team", "decisions", "?!", "?", "??", "skill lost ± 95%", "luck ± 95%", "result"];
  if (withWin) heads.push("P(win) lost, % ± 95%");
  const summary = h("table", { class: "data", id: "review-summary" },
    h("tr", {}, heads.map((x, i) => h("th", { class: i === 0 ? "l" : "" }, x))),
    rv.summary.map((s) => h("tr", {},
      h("td", { class: "l" }, `team ${s.team} (seats ${s.seats})`),
      h("td", {}, s.decisions), h("td", {}, s.doubtful), h("td", {}, s.mistakes), h("td", {}, s.blunders),
      h("td", {}, `${Math.round(s.skill_lost)} ± ${Math.round(s.skill_half)}`),
      h("td", {}, `${Math.round(s.luck)} ± ${Math.round(s.luck_half)}`),
      h("td", {}, s.result),
      withWin ? h("td", {}, s.p_win_lost === undefined ? "–" :
        `${s.p_win_lost.toFixed(1)} ± ${s.p_win_lost_half.toFixed(1)}`) : null)));
  const decisions = rv.decisions.filter((d) => d.legal > 1);
  const table = h("table", { class: "data", id: "review-decisions" },
    h("tr", {}, ["turn", "played", "best", "lost [95%]", "mark"].map((x, i) =>
      h("th", { class: i === 1 || i === 2 ? "l" : "" }, x))),
    decisions.map((d) => h("tr", { class: d.mark ? "played" : "" },
      h("td", {}, d.turn), h("td", { class: "l" }, d.played), h("td", { class: "l" }, d.best),
      h("td", {}, d.best === d.played ? "0" : pm(d.lost, d.lost_low, d.lost_high)),
      h("td", { class: "mark" }, d.mark || ""))));
  box.replaceChildren(
    h("div", { class: "muted" }, `Each decision with a choice was played out ${rv.rollouts} times per ` +
      `action from what you knew; skill lost counts the losses whose 95% interval excludes 0; ` +
      `luck is what the deal and the draws brought. Marks: ?! ≥ 50, ? ≥ 100, ?? ≥ 200 points.`),
    h("div", { class: "scroll" }, summary),
    h("h3", {}, "Your decisions"),
    h("div", { class: "scroll" }, table),
    r.html ? h("p", {}, h("a", { href: `${API}/review/${idx + 1}/page`, target: "_blank" }, "the full review page")) : "");
}

async function openReplay(idx) {
  try {
    const data = await call("GET", `${API}/replay/${idx + 1}`);
    replay = { hand: idx, frames: data.frames, at: 0 };
    $("replay-panel").hidden = false;
    renderReplay();
    $("replay-panel").scrollIntoView({ block: "nearest" });
  } catch (e) { showError(e.message); }
}

function step(d) {
  if (!replay) return;
  replay.at = Math.max(0, Math.min(replay.frames.length - 1, replay.at + d));
  renderReplay();
}

function renderReplay() {
  const f = replay.frames[replay.at];
  const last = replay.frames.length - 1;
  const controls = h("div", { class: "controls" },
    h("button", { id: "replay-first", onclick: () => step(-1e9) }, "« start"),
    h("button", { id: "replay-prev", onclick: () => step(-1) }, "◀ back"),
    h("input", { type: "range", min: 0, max: last, value: replay.at, id: "replay-slider",
      "aria-label": "step", oninput: (e) => { replay.at = Number(e.target.value); renderReplay(); } }),
    h("button", { id: "replay-next", onclick: () => step(1) }, "forward ▶"),
    h("button", { id: "replay-last", onclick: () => step(1e9) }, "end »"),
    h("span", { id: "replay-step" }, `step ${replay.at} of ${last}`));
  const what = h("div", { class: "notice", id: "replay-action" },
    f.seat === null ? "The deal" : `${seatName(f.seat)}: ${f.text}`);
  const hands = f.hands.map((x) => h("div", {}, h("strong", {}, `${seatName(x.seat)} (${x.count}): `),
    x.cards.flatMap((g) => g.cards.map((c) => card(c, { small: true })))));
  const teams = f.teams.map((t) => h("div", {}, h("strong", {}, `Team ${t.team}: `),
    t.melds.length ? t.melds.map((m) => h("span", { class: "meld" + (m.canasta ? ` canasta-${m.canasta}` : "") },
      `${m.rank}×${m.naturals}${m.twos ? ` +${m.twos}×2` : ""}${m.jokers ? ` +${m.jokers}×JK` : ""}`)) : "no melds",
    t.sequences.map((q) => h("span", { class: "meld" }, q.text)),
    ` · red threes ${t.red3}`));
  const table = h("div", { class: "muted" },
    `stock ${f.stock} · pile ${f.pile.size}` + (f.pile.top ? ` (top ${f.pile.top})` : "") + (f.pile.frozen ? " · frozen" : ""));
  $("replay").replaceChildren(h("div", { class: "muted" }, `Hand ${replay.hand + 1}, every card shown. Keys: ← →`),
    controls, what, table, ...hands, ...teams);
}

document.addEventListener("keydown", (e) => {
  if (!replay || $("replay-panel").hidden || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") step(1);
  if (e.key === "ArrowLeft") step(-1);
});

// ---------------------------------------------------------------- staying up to date
async function refresh() {
  try { render(await call("GET", `${API}/state`)); } catch (e) { showError(e.message); }
}

async function poll() {
  for (;;) {
    try {
      const v = await call("GET", `${API}/state?since=${view ? view.version : -1}&wait=25`);
      render(v);
    } catch (e) {
      if (e.status === 404) { $("conn").replaceChildren(h("div", { class: "error" }, "No such seat link: ask the host for yours.")); return; }
      $("conn").replaceChildren(h("div", { class: "error" }, e.message));
      await new Promise((r) => setTimeout(r, 2000));
      continue;
    }
    $("conn").replaceChildren();
  }
}

async function status() {
  try {
    const s = await call("GET", "/api/status");
    if (s.compiling && s.compiling.running) {
      $("notice").replaceChildren(h("div", { class: "notice" },
        `The game core is being compiled for this machine (first run only, about a minute): ${s.compiling.step}…`));
      setTimeout(status, 2000);
    }
  } catch (e) { /* the poll shows the server's state */ }
}

hostKey();
status();
poll();
