// Shared helpers of the table's pages: element building (text only, never HTML from data),
// JSON requests with one-line errors, card chips.
"use strict";

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

function hostKey() {
  const q = new URLSearchParams(location.search).get("key");
  if (q) localStorage.setItem("canasta-key", q);
  return q || localStorage.getItem("canasta-key") || "";
}

async function call(method, url, body) {
  const opts = { method, headers: { "x-canasta-key": hostKey() } };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, opts);
  } catch (e) {
    throw Object.assign(new Error("the server does not answer (is canasta table running?)"), {
      status: 0,
    });
  }
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    const msg = (data && data.error) || `${res.status} ${res.statusText}`;
    throw Object.assign(new Error(msg), { status: res.status });
  }
  return data;
}

const SUIT_SIGN = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

// a card label from the server ("K", "2", "JK", "3", "R3", "7H" in Samba) as a chip
function card(label, opts) {
  opts = opts || {};
  let rank = label, suit = "";
  const m = /^(10|[2-9JQKA])([CDHS])$/.exec(label);
  if (m) { rank = m[1]; suit = m[2]; }
  const cls = ["card"];
  if (rank === "JK" || rank === "2") cls.push("wild");
  if (rank === "R3") cls.push("red3");
  if (rank === "3") cls.push("black3");
  if (suit === "D" || suit === "H") cls.push("red");
  if (opts.selected) cls.push("selected");
  if (opts.fresh) cls.push("fresh");
  if (opts.small) cls.push("small");
  const text = rank === "JK" ? "JK" : rank;
  const el = h(opts.button ? "button" : "span", {
    class: cls.join(" "),
    title: opts.title || null,
    "data-card": label,
    "aria-pressed": opts.button ? String(!!opts.selected) : null,
  }, text, suit ? h("span", { class: "suit" }, SUIT_SIGN[suit]) : null);
  if (opts.onclick) el.addEventListener("click", opts.onclick);
  return el;
}

function pm(mean, lo, hi, digits) {
  if (mean === null || mean === undefined) return "–";
  const d = digits === undefined ? 0 : digits;
  const m = Number(mean).toFixed(d);
  if (lo === null || hi === null || lo === undefined) return m;
  return `${m} [${Number(lo).toFixed(d)}, ${Number(hi).toFixed(d)}]`;
}

function pct(p, lo, hi) {
  if (p === null || p === undefined) return "–";
  const f = (x) => `${Math.round(100 * x)}%`;
  return lo === null || lo === undefined ? f(p) : `${f(p)} [${f(lo)}, ${f(hi)}]`;
}
