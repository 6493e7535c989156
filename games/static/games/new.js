// The new-game form: variant, start (and for xinban the rules of each side), opponent, side,
// level, clock. Starting posts to /api/games/ and opens the game's page.
import { api } from "../core/api.js";

const page = JSON.parse(document.getElementById("play-page").textContent);
const $ = (id) => document.getElementById(id);
const form = $("new-game");

function radio(name) {
  const checked = form.querySelector(`input[name="${name}"]:checked`);
  return checked ? checked.value : "";
}

function xinbanSetup() {
  const red = $("red-rules").value;
  const black = $("black-rules").value;
  if (red === "new" && black === "new") return "new";
  if (red === "traditional" && black === "traditional") return "traditional";
  return red === "new" ? "red-new" : "black-new";
}

function renderSetups() {
  const variant = page.variants.find((v) => v.name === $("variant").value);
  const xinban = variant.name === "xinban";
  $("xinban-rules").hidden = !xinban;
  // xinban has the rules of each side instead; a variant with one start needs no choice
  $("setup-field").hidden = xinban || variant.setups.length < 2;
  const select = $("setup");
  select.textContent = "";
  for (const setup of variant.setups) {
    const option = document.createElement("option");
    option.value = setup.name;
    option.textContent = setup.label;
    select.append(option);
  }
  renderDescription();
}

// What the chosen start means, where the variant offers more than one
function renderDescription() {
  const variant = page.variants.find((v) => v.name === $("variant").value);
  const setup = variant.setups.find((s) => s.name === $("setup").value);
  const box = $("setup-description");
  box.textContent = variant.setups.length > 1 && setup ? setup.description : "";
  box.hidden = !box.textContent;
}

function renderMode() {
  const computer = radio("mode") === "computer";
  for (const node of form.querySelectorAll(".computer-only")) node.hidden = !computer;
}

$("variant").addEventListener("change", renderSetups);
$("setup").addEventListener("change", renderDescription);
for (const input of form.querySelectorAll('input[name="mode"]')) {
  input.addEventListener("change", renderMode);
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const variant = $("variant").value;
  const body = {
    mode: radio("mode"),
    variant,
    setup: variant === "xinban" ? xinbanSetup() : $("setup").value,
    clock_minutes: Number($("clock-minutes").value || 0),
    clock_increment: Number($("clock-increment").value || 0),
  };
  if (body.mode === "computer") {
    body.side = radio("side");
    body.level = Number($("level").value);
  }
  const button = $("start-game");
  button.disabled = true;
  try {
    const data = await api("POST", page.api.create, body);
    location.assign(data.url);
  } catch (error) {
    $("new-game-error").textContent = error.message || page.labels.error;
    $("new-game-error").hidden = false;
    button.disabled = false;
  }
});

// A link may choose the variant and the computer's level (?variant=feidan&level=2), as the end
// of a course does; a value the form does not offer is ignored.
const wanted = new URLSearchParams(location.search);
for (const name of ["variant", "level"]) {
  const value = wanted.get(name);
  if (value && [...$(name).options].some((option) => option.value === value)) $(name).value = value;
}

renderSetups();
renderMode();
document.body.dataset.ready = "1";
