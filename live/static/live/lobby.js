// The lobby: the open seeks, as the server sends them over /ws/live/lobby/ after every change
// (no reload, no polling); make a seek, cancel one's own, or take another's. The server judges
// everything: the page sends requests and shows the list it is sent, and a refusal is said
// under the list. When a game of this player begins (their seek taken, or a seek they took),
// the server says so and the page goes to the game. While the page is open it pings every
// 30 s, which keeps its player's seeks listed (a seek not refreshed for a while is gone).
const page = JSON.parse(document.getElementById("lobby-page").textContent);
const L = page.labels;
const $ = (id) => document.getElementById(id);
const zh = document.documentElement.lang.toLowerCase().startsWith("zh");
const pick = (text) => (text ? (zh ? text.zh : text.en) : "");
const PING_MS = 30_000;

const state = { socket: null, retries: 0, connections: 0, seeks: [], mine: [] };

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${window.location.host}${page.socket}`);
  state.socket = socket;
  document.body.dataset.connected = "0";
  setStatus(state.connections ? L.reconnecting : L.connecting);
  socket.addEventListener("open", () => {
    state.retries = 0;
    state.connections += 1;
    document.body.dataset.connected = "1";
    document.body.dataset.connections = String(state.connections);
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    document.body.dataset.connected = "0";
    if (state.leaving) return;
    setStatus(L.reconnecting);
    const wait = Math.min(5000, 500 * 2 ** state.retries++);
    setTimeout(connect, wait);
  });
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify(message));
  }
}

function receive(message) {
  if (message.type === "seeks") {
    state.seeks = message.seeks;
    state.mine = message.mine;
    render();
  } else if (message.type === "started") {
    state.leaving = true;
    window.location.assign(message.url);
  } else if (message.type === "error") {
    const box = $("lobby-error");
    box.textContent = pick(message.message);
    box.dataset.code = message.code;
    box.hidden = false;
  }
}

function setStatus(text) {
  $("lobby-status").textContent = text;
}

function clearError() {
  $("lobby-error").hidden = true;
  $("lobby-error").textContent = "";
}

// -- the list -------------------------------------------------------------------------------

function cell(text, className) {
  const span = document.createElement("span");
  span.className = className;
  span.textContent = text;
  return span;
}

function gameName(seek) {
  const title = L.variants[seek.variant] || seek.variant;
  const single = seek.variant === "xiangqi";
  return single ? title : `${title} · ${L.setups[seek.setup] || seek.setup}`;
}

function seekItem(seek) {
  const mine = state.mine.includes(seek.slug);
  const li = document.createElement("li");
  li.className = mine ? "seek mine" : "seek";
  li.setAttribute("data-testid", "seek");
  li.dataset.slug = seek.slug;
  li.dataset.mine = mine ? "1" : "0";
  const who = cell(seek.player || L.visitor, "seek-player");
  if (seek.rating) {
    const rating = cell(` ${seek.rating.rating}${seek.rating.provisional ? "?" : ""}`, "seek-rating");
    if (seek.rating.provisional) rating.title = L.provisional;
    rating.setAttribute("data-testid", "seek-rating");
    who.append(rating);
  }
  if (mine) who.append(cell(` (${L.yours})`, "muted"));
  li.append(
    who,
    cell(gameName(seek), "seek-game"),
    cell(seek.time, "seek-time"),
    cell(seek.rated ? L.rated : L.casual, "seek-mode"),
    cell(L.colours[seek.colour] || seek.colour, "seek-colour"),
  );
  const button = document.createElement("button");
  button.type = "button";
  button.className = mine ? "button-small" : "button";
  button.textContent = mine ? L.cancel : L.accept;
  button.setAttribute("data-testid", mine ? "seek-cancel" : "seek-accept");
  button.addEventListener("click", () => {
    clearError();
    send({ type: mine ? "cancel" : "accept", slug: seek.slug });
  });
  li.append(button);
  return li;
}

function render() {
  const list = $("seeks");
  list.replaceChildren(...state.seeks.map(seekItem));
  setStatus(state.seeks.length ? L.count.replace("{n}", state.seeks.length) : L.empty);
  document.body.dataset.seeks = String(state.seeks.length);
}

// -- making a seek --------------------------------------------------------------------------

$("seek-form").addEventListener("submit", (event) => {
  event.preventDefault();
  clearError();
  const data = new FormData(event.target);
  const [variant, setup] = String(data.get("game") || "").split(":");
  const [minutes, increment] = String(data.get("time") || "").split("+");
  send({
    type: "seek",
    variant: variant || "",
    setup: setup || "",
    colour: String(data.get("colour") || ""),
    minutes: Number.parseInt(minutes, 10) || 0,
    increment: Number.parseInt(increment, 10) || 0,
    rated: data.get("mode") === "rated",
  });
});

setInterval(() => send({ type: "ping" }), PING_MS);
connect();
