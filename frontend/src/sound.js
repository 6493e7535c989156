/**
 * The board's sounds, made in the browser (Web Audio): no sound file is shipped. A move is a
 * short wooden knock, a capture a heavier one, a check two quick high notes. The player turns
 * them off or on with the board's Sound button; the choice is kept in the browser
 * (localStorage "xb-sound": "on" | "off"; on until chosen).
 *
 *   import { playSound, soundOn, setSoundOn } from "./sound.js";
 *   playSound("capture");   // "move" | "capture" | "check"; nothing when off or not possible
 */

const SOUND_KEY = "xb-sound";

// Each kind: notes of [start s, frequency Hz, length s, loudness 0..1, wave].
const NOTES = {
  move: [[0, 520, 0.07, 0.35, "triangle"]],
  capture: [
    [0, 300, 0.09, 0.5, "triangle"],
    [0.015, 170, 0.12, 0.4, "sine"],
  ],
  check: [
    [0, 880, 0.08, 0.3, "sine"],
    [0.11, 1175, 0.1, 0.3, "sine"],
  ],
};

let context = null;

/** Whether sounds are on in this browser. */
export function soundOn() {
  try {
    return window.localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true; // storage refused (private mode): on, not kept
  }
}

/** Turn sounds on or off, for every board of this browser. */
export function setSoundOn(on) {
  try {
    window.localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // not kept: the choice holds for this page only
  }
}

function audio() {
  if (context) return context;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  context = new Context();
  return context;
}

/**
 * Play the sound of ``kind``. Returns whether it was played: not when sounds are off, the
 * browser has no Web Audio, or the kind is unknown. A browser that keeps audio shut until the
 * page is touched plays it once it opens (every move here follows a click or a key).
 */
export function playSound(kind) {
  const notes = NOTES[kind];
  if (!notes || !soundOn()) return false;
  const ctx = audio();
  if (!ctx) return false;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  const now = ctx.currentTime + 0.005;
  for (const [start, frequency, length, loudness, wave] of notes) {
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = wave;
    oscillator.frequency.setValueAtTime(frequency, now + start);
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(loudness, now + start + 0.005);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(now + start);
    oscillator.stop(now + start + length + 0.02);
  }
  return true;
}
