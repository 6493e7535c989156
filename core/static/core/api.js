// The site's JSON API from the pages: one call helper for every page (puzzles, play …).
// Errors come back in the page's language, with the server's coded details kept.

export function cookie(name) {
  const match = document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`));
  return match ? decodeURIComponent(match[1]) : "";
}

export class ApiError extends Error {
  constructor(message, status, data) {
    super(message);
    this.status = status;
    this.data = data;
    // what the server says besides the sentence: {code, field, explanation …}
    this.extra = (data && data.error && data.error.extra) || {};
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

/** "Checkmate in {n}" with {n} filled in. */
export function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => (key in values ? String(values[key]) : `{${key}}`));
}
