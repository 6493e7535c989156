// Small helpers shared by the puzzle pages: JSON calls to the site's API, ids, text.

// The API call helper is the site's one (core/static/core/api.js), shared with the play page.
export { ApiError, api, cookie, format } from "../core/api.js";

/** A random version-4 UUID (crypto.randomUUID needs a secure context; this does not). */
export function uuid4() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function turnOf(fen) {
  const side = (fen || "").trim().split(/\s+/)[1];
  return side === "b" ? "black" : "red";
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
