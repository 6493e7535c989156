// The computer's analysis of a finished game, on the game's page (its own module beside
// game.js): asked for with one button, polled while the workers search, then shown as an
// evaluation graph (inline SVG, Red's chances after each move; the numbers in a table too),
// the marked moves (?! ? ??) with the move the engine prefers, and the marks in the move list.
// A point of the graph or a marked move goes to its ply ("game:goto", read by game.js); the
// page tells which ply it shows ("game:shown").
import { api as call, format } from "../core/api.js";

const page = JSON.parse(document.getElementById("game-page").textContent);
const analysisPage = JSON.parse(document.getElementById("game-analysis-page").textContent);
const L = analysisPage.labels;
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1000;
const W = 600;
const H = 160;
const PAD = 6;

const state = {
  status: page.game.status,
  plies: page.game.moves.length,
  shown: page.game.moves.length,
  analysis: null, // the API's answer, or null when never asked for
  asked: false,
  timer: null,
};

const sideName = (side) => (side === "red" ? L.red : L.black);
const zh = document.documentElement.lang.toLowerCase().startsWith("zh");
const SEP = zh ? "" : " "; // Chinese sentences follow one another with no space

function moveNumber(ply) {
  const blackFirst = page.game.start_fen.split(" ")[1] === "b";
  const slot = ply - 1 + (blackFirst ? 1 : 0);
  return Math.floor(slot / 2) + 1;
}

function evalText(ev) {
  if (ev.winner) return ev.winner === "draw" ? "½-½" : ev.winner === "red" ? "1-0" : "0-1";
  if (ev.mate !== null && ev.mate !== undefined) return `${ev.mate > 0 ? "+" : "-"}M${Math.abs(ev.mate)}`;
  const value = (ev.cp || 0) / 100;
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}`;
}

function goTo(ply) {
  document.dispatchEvent(new CustomEvent("game:goto", { detail: { ply } }));
}

function el(tag, attrs = {}, text = "") {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text) node.textContent = text;
  return node;
}

// -- the graph ------------------------------------------------------------------------------

function points(result) {
  const start = { ply: 0, chance: chanceOf(result.start), eval: result.start };
  return [start, ...result.plies.map((p) => ({ ply: p.ply, chance: p.chance, eval: p.eval, entry: p }))];
}

function chanceOf(ev) {
  if (typeof ev.chance === "number") return ev.chance; // the judge's own scale
  if (ev.winner) return ev.winner === "red" ? 1 : ev.winner === "black" ? 0 : 0.5;
  if (ev.mate !== null && ev.mate !== undefined) return ev.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-(ev.cp || 0) / 250));
}

function renderGraph(result) {
  const box = $("analysis-graph");
  box.textContent = "";
  const all = points(result);
  const last = Math.max(1, all[all.length - 1].ply);
  const x = (ply) => PAD + ((W - 2 * PAD) * ply) / last;
  const y = (chance) => PAD + (H - 2 * PAD) * (1 - chance);
  const svg = el("svg:svg", {
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-labelledby": "analysis-graph-title analysis-graph-desc",
    class: "analysis-svg",
    "data-testid": "analysis-svg",
  });
  svg.append(el("svg:title", { id: "analysis-graph-title" }, L.graph_title));
  svg.append(el("svg:desc", { id: "analysis-graph-desc" }, L.graph_desc));
  svg.append(el("svg:rect", { x: 0, y: 0, width: W, height: H, class: "analysis-bg" }));
  const redArea = `M${x(0)},${y(0.5)} ` + all.map((p) => `L${x(p.ply)},${y(p.chance)}`).join(" ") + ` L${x(last)},${y(0.5)} Z`;
  svg.append(el("svg:path", { d: redArea, class: "analysis-area" }));
  svg.append(el("svg:line", { x1: 0, x2: W, y1: y(0.5), y2: y(0.5), class: "analysis-even" }));
  svg.append(el("svg:polyline", { points: all.map((p) => `${x(p.ply)},${y(p.chance)}`).join(" "), class: "analysis-line" }));
  const cursor = el("svg:line", { y1: 0, y2: H, class: "analysis-cursor", "data-testid": "analysis-cursor" });
  svg.append(cursor);
  for (const p of all) {
    if (!p.entry || !p.entry.verdict) continue;
    const dot = el("svg:circle", {
      cx: x(p.ply),
      cy: y(p.chance),
      r: 5,
      class: `analysis-dot verdict-${p.entry.verdict}`,
      "data-ply": p.ply,
    });
    dot.append(el("svg:title", {}, `${moveNumber(p.ply)}. ${p.entry.chinese}${p.entry.symbol} ${evalText(p.eval)}`));
    svg.append(dot);
  }
  svg.addEventListener("click", (event) => {
    const rect = svg.getBoundingClientRect();
    const at = ((event.clientX - rect.left) / rect.width) * W;
    const ply = Math.round(((at - PAD) / (W - 2 * PAD)) * last);
    goTo(Math.max(0, Math.min(last, ply)));
  });
  box.append(svg);
  state.cursor = { node: cursor, x };
  moveCursor();
}

function moveCursor() {
  if (!state.cursor) return;
  const at = state.cursor.x(Math.min(state.shown, state.analysis.result.plies.length));
  state.cursor.node.setAttribute("x1", at);
  state.cursor.node.setAttribute("x2", at);
}

// -- the marks ------------------------------------------------------------------------------

function renderMarks(result) {
  const list = $("analysis-marks");
  list.textContent = "";
  const marked = result.plies.filter((p) => p.verdict);
  for (const p of marked) {
    const item = el("li", { class: `analysis-mark verdict-${p.verdict}` });
    const button = el("button", { type: "button", class: "move-button", "data-ply": p.ply });
    const where = format(L.ply, { n: moveNumber(p.ply), side: sideName(p.side) });
    button.append(el("span", {}, `${where}${zh ? "：" : ": "}${p.chinese} (${p.iccs})`));
    button.append(el("strong", { class: "analysis-symbol", "aria-hidden": "true" }, ` ${p.symbol}`));
    button.append(el("span", { class: "analysis-verdict" }, ` ${L.verdicts[p.verdict]}`));
    if (p.missed_win) {
      item.dataset.missedWin = "1";
      button.append(el("strong", { class: "analysis-missed-win", "data-testid": "missed-win" }, `${zh ? "" : " "}${L.missed_win}`));
    }
    if (zh) button.append(el("span", {}, "。"));
    button.addEventListener("click", () => goTo(p.ply));
    item.append(button);
    if (p.better) item.append(el("span", { class: "analysis-better" }, `${SEP}${format(L.better, { move: `${p.better.chinese} (${p.better.iccs})` })}`));
    if (p.seen_mate) item.append(el("span", { class: "analysis-mate" }, `${SEP}${format(L.seen_mate, { n: p.seen_mate })}`));
    list.append(item);
  }
  const lines = ["red", "black"].map((side) => {
    const counts = result.summary[side];
    return format(L.summary, {
      side: sideName(side),
      blunders: counts.blunder,
      mistakes: counts.mistake,
      inaccuracies: counts.inaccuracy,
    });
  });
  for (const side of ["red", "black"]) {
    const n = result.summary[side].missed_win || 0;
    if (n) lines.push(format(n === 1 ? L.missed_wins_one : L.missed_wins, { side: sideName(side), n }));
  }
  let text = marked.length ? lines.join(" · ") : L.no_marks;
  if (result.analysed < result.game_plies) text += `${SEP}${format(L.partial, { n: result.analysed })}`;
  $("analysis-summary").textContent = text;
}

function renderTable(result) {
  const details = $("analysis-numbers");
  details.hidden = false;
  details.querySelector("summary").textContent = L.numbers;
  details.querySelector("caption").textContent = L.caption;
  const heads = details.querySelectorAll("th");
  [L.col_move, L.col_eval, L.col_chance].forEach((text, i) => {
    heads[i].textContent = text;
  });
  const body = details.querySelector("tbody");
  body.textContent = "";
  const row = (label, ev, chance) => {
    const tr = el("tr");
    tr.append(el("td", {}, label), el("td", {}, evalText(ev)), el("td", {}, `${Math.round(chance * 100)}%`));
    body.append(tr);
  };
  row(L.start, result.start, chanceOf(result.start));
  for (const p of result.plies) row(`${moveNumber(p.ply)}. ${p.chinese}${p.symbol || ""}`, p.eval, p.chance);
}

// "Learn from your mistakes": a link to the player's own mistakes to replay, when there are some.
function renderLearn(steps) {
  const link = $("analysis-learn");
  const mine = steps.filter((step) => analysisPage.my_sides.includes(step.side));
  link.hidden = mine.length === 0;
  link.href = analysisPage.learn_url;
  link.textContent = format(L.learn, { n: mine.length });
}

// Which engine judged the game, on what budget, and how deep it looked.
function renderJudge(judge) {
  if (!judge) return;
  const nodes = judge.nodes.toLocaleString(zh ? "zh-CN" : "en");
  let said = format(judge.depth ? L.judged : L.judged_no_depth, { engine: judge.engine === "ours" ? L.ours : judge.label, nodes, depth: judge.depth });
  if (judge.settled) {
    said += (zh ? "" : " ") + format(judge.settled === 1 ? L.settled_one : L.settled, { n: judge.settled, nodes: judge.settle_nodes.toLocaleString(zh ? "zh-CN" : "en") });
  }
  $("analysis-judge").textContent = said;
}

// The marks beside the moves of the game's own list (rebuilt by game.js at every render).
function markMoveList() {
  if (!state.analysis || state.analysis.status !== "done") return;
  const byPly = new Map(state.analysis.result.plies.filter((p) => p.verdict).map((p) => [p.ply, p]));
  for (const button of document.querySelectorAll("#moves .move-button")) {
    const entry = byPly.get(Number(button.dataset.ply));
    if (!entry || button.querySelector(".analysis-symbol")) continue;
    const label = `${button.textContent}, ${entry.symbol} ${L.verdicts[entry.verdict]}`;
    const mark = el("span", { class: `analysis-symbol verdict-${entry.verdict}`, title: L.verdicts[entry.verdict] }, entry.symbol);
    button.append(" ", mark);
    button.setAttribute("aria-label", label);
  }
}

// -- asking and polling ---------------------------------------------------------------------

function render() {
  const section = $("game-analysis");
  section.hidden = state.status !== "finished";
  if (section.hidden) return;
  const a = state.analysis;
  const judgeFailed = a !== null && a.status === "failed" && (a.result.error || {}).code === "game_analysis.judge_failed";
  $("analysis-ask").hidden = a !== null && !judgeFailed;
  $("analysis-judge").textContent = "";
  const status = $("analysis-status");
  status.textContent = "";
  if (a === null) return;
  if (a.status === "pending") {
    status.textContent = a.searched > a.plies ? L.weighing : format(L.pending, { done: a.searched, total: a.plies + 1 });
  } else if (a.status === "failed") {
    const error = a.result.error || {};
    const message = error.message ? (zh ? error.message.zh : error.message.en) : "";
    status.textContent = format(L.failed, { reason: message });
  } else {
    renderGraph(a.result);
    renderMarks(a.result);
    renderTable(a.result);
    renderJudge(a.result.judge);
    renderLearn(a.result.learn || []);
    markMoveList();
  }
}

function poll() {
  clearTimeout(state.timer);
  if (!state.analysis || state.analysis.status !== "pending") return;
  state.timer = setTimeout(async () => {
    try {
      state.analysis = await call("GET", page.api.analysis);
    } catch (_error) {
      // a lost poll is tried again by the next one
    }
    render();
    poll();
  }, POLL_MS);
}

async function load() {
  if (state.asked || state.status !== "finished") return;
  state.asked = true;
  // a game never analysed has nothing to fetch (its GET is a 404): the page offers to ask
  if (!analysisPage.asked) {
    render();
    return;
  }
  try {
    state.analysis = await call("GET", page.api.analysis);
  } catch (error) {
    state.analysis = null;
    if (error.status !== 404) $("analysis-status").textContent = error.message || L.error;
  }
  render();
  poll();
}

$("analysis-ask").addEventListener("click", async () => {
  const button = $("analysis-ask");
  button.disabled = true;
  try {
    state.analysis = await call("POST", page.api.analysis, {});
    render();
    poll();
  } catch (error) {
    $("analysis-status").textContent = error.message || L.error;
  } finally {
    button.disabled = false;
  }
});

document.addEventListener("game:shown", (event) => {
  const { ply, plies, status } = event.detail;
  state.shown = ply;
  state.plies = plies;
  if (status !== state.status) {
    state.status = status;
    render();
  }
  load();
  moveCursor();
  markMoveList();
});

render();
load();
