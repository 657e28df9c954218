/* global document, window, fetch, EventSource, URLSearchParams */
// The Palisade status page in the browser. Everything shown comes from this node's
// /ui/api/* views and its live feed. Lock names, client names and holder data are user
// input: they reach the document only as text nodes (textContent), never as markup, and
// the Content-Security-Policy allows no inline script, so a name like <script> is shown,
// not run.
"use strict";

const POLL_CLUSTER_MS = 1000;
const POLL_LOCKS_MS = 2000;
const POLL_SESSIONS_MS = 3000;
const FEED_MAX = 100;

const state = { prefix: "", historyLock: null, live: false, source: null, refreshTimer: null };

/** An element with static attributes and children; strings become text nodes. */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null) continue;
    if (key === "class") node.className = value;
    else if (key === "title") node.title = String(value);
    else node.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(
      typeof child === "string" || typeof child === "number"
        ? document.createTextNode(String(child))
        : child,
    );
  }
  return node;
}

function $(id) {
  return document.getElementById(id);
}

function setText(id, text) {
  $(id).textContent = text;
}

function replaceRows(tbody, rows) {
  tbody.replaceChildren(...rows);
}

function clock(ms) {
  if (!ms) return "";
  const d = new Date(ms);
  const two = (n) => String(n).padStart(2, "0");
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

function duration(ms) {
  if (ms % 3600000 === 0) return `${ms / 3600000} h`;
  if (ms % 60000 === 0) return `${ms / 60000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/** Only http(s) links from the cluster file become hrefs. */
function safeHref(url) {
  try {
    const parsed = new URL(url, window.location.href);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

async function getJson(path) {
  const res = await fetch(path, { cache: "no-store", headers: { accept: "application/json" } });
  const body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
  return body;
}

const problems = new Map();

function problem(key, message) {
  if (message) problems.set(key, message);
  else problems.delete(key);
  const box = $("problem");
  box.hidden = problems.size === 0;
  box.textContent = [...problems.values()].join(" · ");
}

// ---------------------------------------------------------------- cluster

async function refreshCluster() {
  let view;
  try {
    view = await getJson("/ui/api/cluster");
  } catch (error) {
    problem("cluster", `this node does not answer: ${error.message}`);
    return;
  }
  problem("cluster", null);
  const n = view.node;
  setText("cluster-id", n.clusterId);
  setText("self", `node ${n.id} (${n.role})`);
  setText("term", String(n.term));
  setText(
    "leader",
    n.leader === 0
      ? "none known"
      : n.leader === n.id
        ? `node ${n.leader} (this node)`
        : `node ${n.leader}`,
  );
  const leaderLink = $("leader-page");
  const leader = view.members.find((m) => m.id === n.leader);
  const href = leader && leader.id !== n.id && leader.page ? safeHref(leader.page) : null;
  leaderLink.hidden = href === null;
  if (href !== null) leaderLink.href = href;
  setText(
    "indexes",
    `commit ${n.commitIndex} · applied ${n.appliedIndex} · last ${n.lastIndex} · snapshot ${n.snapshotIndex} · token epoch ${n.epoch}`,
  );
  setText("fresh", `updated ${clock(view.at)}`);
  const leading = n.role === "leader";
  replaceRows(
    $("cluster").querySelector("tbody"),
    view.members.map((m) => {
      const role =
        m.id === n.leader
          ? "leader"
          : m.id === n.id
            ? n.role
            : m.kind === "learner"
              ? "learner"
              : "follower";
      const pageHref = m.page ? safeHref(m.page) : null;
      const name =
        pageHref && m.id !== n.id
          ? el("a", { href: pageHref }, `node ${m.id}`)
          : `node ${m.id}${m.id === n.id ? " (this)" : ""}`;
      return el(
        "tr",
        {},
        el("td", {}, name),
        el("td", {}, m.kind),
        el("td", { class: role === "leader" ? "role-leader" : "" }, role),
        el("td", { class: "mono" }, m.clientAddress),
        el("td", {}, m.matchIndex === null ? "—" : String(m.matchIndex)),
        el("td", {}, m.lag === null ? "—" : String(m.lag)),
        el(
          "td",
          { class: m.reachable === null ? "" : m.reachable ? "yes" : "no" },
          m.reachable === null ? "—" : m.reachable ? "yes" : "no",
        ),
      );
    }),
  );
  setText(
    "cluster-note",
    leading
      ? "Match index, lag and reachability as this leader sees them."
      : "Match index, lag and reachability are known on the leader: open its page.",
  );
}

// ---------------------------------------------------------------- locks

// A holder's optional `mode` and `data` (shared, upgradeable and semaphore locks carry
// them) and a pending upgrade are shown when present, as text like every other user value.
function holderCell(lock) {
  if (lock.holders.length === 0) return el("td", { class: "muted" }, "free");
  return el(
    "td",
    {},
    ...lock.holders.map((h) =>
      el(
        "div",
        {},
        h.clientName || "(no name)",
        el("span", { class: "muted" }, ` · session ${h.sessionId}`),
        h.mode ? el("span", { class: "muted" }, ` · ${h.mode}`) : null,
        h.upgradingSince
          ? el("span", { class: "upgrading" }, ` · upgrading since #${h.upgradingSince}`)
          : null,
        h.data ? el("div", { class: "mono holder-data" }, h.data) : null,
      ),
    ),
    moreNote(lock.holderCount, lock.holders.length),
  );
}

// A lock lists its first holders and waiters; the note says how many it has beyond them.
function moreNote(total, shown) {
  return total > shown
    ? el("div", { class: "muted" }, `and ${(total - shown).toLocaleString("en-US")} more`)
    : null;
}

async function refreshLocks() {
  const q = new URLSearchParams({ prefix: state.prefix });
  let view;
  try {
    view = await getJson(`/ui/api/locks?${q}`);
  } catch (error) {
    problem("locks", `locks cannot be read now: ${error.message}`);
    return;
  }
  problem("locks", null);
  replaceRows(
    $("locks").querySelector("tbody"),
    view.locks.map((lock) =>
      el(
        "tr",
        {},
        el("td", { class: "name" }, lockButton(lock.name)),
        el("td", {}, lock.kind),
        holderCell(lock),
        el("td", { class: "mono token" }, lock.holders.map((h) => h.token).join(", ")),
        el("td", {}, lock.holders.map((h) => `index ${h.grantedAt}`).join(", ")),
        el(
          "td",
          {},
          ...lock.waiters.map((w, i) =>
            el(
              "span",
              { class: "waiter" },
              `${i + 1}. ${w.clientName || "(no name)"}`,
              el("span", { class: "muted" }, ` #${w.sessionId}`),
            ),
          ),
          moreNote(lock.waiterCount, lock.waiters.length),
        ),
      ),
    ),
  );
  setText(
    "locks-note",
    view.locks.length === 0
      ? state.prefix
        ? "No held or awaited lock has this prefix."
        : "No lock is held or awaited."
      : view.nextAfter
        ? `Showing the first ${view.locks.length}; narrow the prefix to see others.`
        : "",
  );
}

function lockButton(name) {
  const button = el(
    "button",
    { type: "button", class: "lockname", title: "show its history" },
    name,
  );
  button.addEventListener("click", () => {
    state.historyLock = name;
    void refreshHistory();
  });
  return button;
}

// ---------------------------------------------------------------- history

const END_WORDS = {
  released: "released",
  sessionClosed: "session closed",
  sessionExpired: "session expired",
  revoked: "revoked",
  holdLimit: "hold limit",
  handedOff: "handed off",
  upgraded: "upgraded",
  downgraded: "downgraded",
};
/** Ends the holder did not choose. */
const ENDED_BADLY = new Set(["sessionExpired", "revoked", "holdLimit"]);

/** Reads of the open history asked so far: only the latest one's answer is shown. */
let historyReads = 0;

async function refreshHistory() {
  const section = $("history");
  const lock = state.historyLock;
  if (lock === null) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  setText("history-lock", lock);
  const read = ++historyReads;
  let view;
  try {
    view = await getJson(`/ui/api/history?${new URLSearchParams({ lock })}`);
  } catch (error) {
    if (read === historyReads) problem("history", `history cannot be read now: ${error.message}`);
    return;
  }
  // A later read (another lock opened, or a newer event) answers instead of this one.
  if (read !== historyReads) return;
  problem("history", null);
  replaceRows(
    section.querySelector("tbody"),
    [...view.history]
      .reverse()
      .map((h) =>
        el(
          "tr",
          {},
          el("td", { class: "mono" }, h.token),
          el(
            "td",
            {},
            h.clientName || "(no name)",
            el("span", { class: "muted" }, ` · session ${h.sessionId}`),
            h.mode ? el("span", { class: "muted" }, ` · ${h.mode}`) : null,
          ),
          el("td", {}, h.waitedFrom === h.grantedAt ? "—" : `index ${h.waitedFrom}`),
          el(
            "td",
            {},
            `index ${h.grantedAt}`,
            el("span", { class: "muted" }, ` ${clock(h.grantedWallMs)}`),
          ),
          el(
            "td",
            {},
            h.endedAt === null ? "held" : `index ${h.endedAt}`,
            el("span", { class: "muted" }, h.endedWallMs ? ` ${clock(h.endedWallMs)}` : ""),
          ),
          el(
            "td",
            { class: ENDED_BADLY.has(h.reason) ? "no" : "" },
            h.reason === null ? "—" : (END_WORDS[h.reason] ?? h.reason),
          ),
        ),
      ),
  );
}

// ---------------------------------------------------------------- sessions

async function refreshSessions() {
  let view;
  try {
    view = await getJson("/ui/api/sessions");
  } catch (error) {
    problem("sessions", `sessions cannot be read now: ${error.message}`);
    return;
  }
  problem("sessions", null);
  replaceRows(
    $("sessions").querySelector("tbody"),
    view.sessions.map((s) =>
      el(
        "tr",
        {},
        el("td", { class: "mono" }, s.id),
        el("td", {}, s.clientName || "(no name)"),
        el("td", {}, duration(s.ttlMs)),
        el(
          "td",
          {},
          `index ${s.openedAt}`,
          el("span", { class: "muted" }, ` ${clock(s.openedWallMs)}`),
        ),
        el(
          "td",
          {},
          ...s.held.map((h) =>
            el(
              "div",
              {},
              el("span", { class: "mono" }, h.lock),
              el("span", { class: "muted" }, ` token ${h.token}`),
            ),
          ),
        ),
        el("td", {}, ...s.waiting.map((lock) => el("div", { class: "mono" }, lock))),
      ),
    ),
  );
  setText(
    "sessions-note",
    view.nextAfter
      ? `Showing the first ${view.sessions.length} sessions.`
      : view.sessions.length === 0
        ? "No live session."
        : "",
  );
}

// ---------------------------------------------------------------- live feed

const EVENT_WORDS = {
  acquired: "granted",
  released: "released",
  sessionClosed: "session closed",
  sessionExpired: "session expired",
  revoked: "revoked",
  proclaimed: "new value",
};

function addFeedItem(e) {
  const list = $("feed").querySelector("ol");
  const item = el(
    "li",
    { class: "new" },
    el("span", { class: "muted" }, `${clock(e.wallMs)} index ${e.index} `),
    // A release that a grant of the same entry completes says how: handed off, upgraded, downgraded.
    el(
      "b",
      { class: `kind-${e.type}` },
      e.ended ? (END_WORDS[e.ended] ?? e.ended) : (EVENT_WORDS[e.type] ?? e.type),
    ),
    " ",
    el("span", { class: "mono" }, e.lock),
    e.type === "acquired" ? " to " : ", held by ",
    e.clientName || `session ${e.sessionId}`,
    el("span", { class: "muted" }, ` token ${e.token}`),
  );
  list.prepend(item);
  while (list.children.length > FEED_MAX) list.lastElementChild.remove();
}

/** Locks, sessions and the open history follow an event soon after, once per burst. */
function refreshSoon() {
  if (state.refreshTimer !== null) return;
  state.refreshTimer = window.setTimeout(() => {
    state.refreshTimer = null;
    void refreshLocks();
    void refreshSessions();
    if (state.historyLock !== null) void refreshHistory();
  }, 100);
}

function setLive(on, why) {
  state.live = on;
  const badge = $("live");
  badge.className = `badge ${on ? "on" : "off"}`;
  badge.textContent = on ? "live" : why;
}

function connectFeed() {
  state.source?.close();
  const source = new EventSource(`/ui/api/events?${new URLSearchParams({ prefix: state.prefix })}`);
  state.source = source;
  source.addEventListener("open", () => setLive(true, ""));
  source.addEventListener("lock", (message) => {
    addFeedItem(JSON.parse(message.data));
    refreshSoon();
  });
  source.addEventListener("reset", () => refreshSoon());
  source.addEventListener("error", () => {
    // The browser reconnects by itself unless the node refused the feed (over its cap).
    setLive(
      false,
      source.readyState === EventSource.CLOSED ? "polling (live feed refused)" : "reconnecting",
    );
    if (source.readyState === EventSource.CLOSED)
      window.setTimeout(() => state.source === source && connectFeed(), 10000);
  });
}

// ---------------------------------------------------------------- start

function every(ms, fn) {
  void fn();
  window.setInterval(() => void fn(), ms);
}

function start() {
  const params = new URLSearchParams(window.location.search);
  state.prefix = params.get("prefix") ?? "";
  const input = $("prefix");
  input.value = state.prefix;
  let typing = null;
  input.addEventListener("input", () => {
    window.clearTimeout(typing);
    typing = window.setTimeout(() => {
      state.prefix = input.value;
      const url = new URL(window.location.href);
      if (state.prefix) url.searchParams.set("prefix", state.prefix);
      else url.searchParams.delete("prefix");
      window.history.replaceState(null, "", url);
      $("feed").querySelector("ol").replaceChildren();
      connectFeed();
      void refreshLocks();
    }, 250);
  });
  $("history-close").addEventListener("click", () => {
    state.historyLock = null;
    void refreshHistory();
  });
  every(POLL_CLUSTER_MS, refreshCluster);
  every(POLL_LOCKS_MS, refreshLocks);
  // The open history is read again with the locks: a failed read or a missed event heals.
  every(POLL_LOCKS_MS, () => state.historyLock !== null && refreshHistory());
  every(POLL_SESSIONS_MS, refreshSessions);
  connectFeed();
}

start();
