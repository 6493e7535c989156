// Small helpers shared by the puzzle pages: JSON calls to the site's API, ids, text.

export function cookie(name) {
  const match = document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`));
  return match ? decodeURIComponent(match[1]) : "";
}

export class ApiError extends Error {
  constructor(message, status, data) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

/** Call the JSON API; resolves with the body, rejects with ApiError (message for people). */
export async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: {
      Accept: "application/json",
      // errors come back in the page's language
      "Accept-Language": document.documentElement.lang || "zh-hans",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      "X-CSRFToken": cookie("csrftoken"),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = {};
  try {
    data = await response.json();
  } catch (_error) {
    data = {};
  }
  if (!response.ok) {
    const message = (data && data.error && data.error.message) || response.statusText;
    throw new ApiError(message, response.status, data);
  }
  return data;
}

/** A random version-4 UUID (crypto.randomUUID needs a secure context; this does not). */
export function uuid4() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** "Checkmate in {n}" with {n} filled in. */
export function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => (key in values ? String(values[key]) : `{${key}}`));
}

export function turnOf(fen) {
  const side = (fen || "").trim().split(/\s+/)[1];
  return side === "b" ? "black" : "red";
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
