// The site's JSON API from the pages: one call helper for every page (puzzles, play …).
// Errors come back in the page's language, with the server's coded details kept.

export function cookie(name) {
  const match = document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`));
  return match ? decodeURIComponent(match[1]) : "";
}

/** The CSRF token: the cookie, or the page's form field when the cookie is not there yet. */
export function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return cookie("csrftoken") || (input ? input.value : "");
}

export class ApiError extends Error {
  constructor(message, status, data) {
    super(message);
    this.status = status;
    this.data = data;
    // what the server says besides the sentence: {code, field, explanation …}
    this.extra = (data && data.error && data.error.extra) || {};
    // a move or position the rules do not allow: an answer (HTTP 200 with legal: false), not a
    // fault of the request
    this.illegal = Boolean(data && data.legal === false && data.error);
  }
}

/**
 * Call the JSON API; resolves with the body, rejects with ApiError (message for people): a
 * refusal (a fault of the request, 4xx, or a try the rules do not allow, answered 200 with
 * legal: false: then error.illegal), or an answer that is not JSON (cut short). A request
 * that gets no answer at all rejects with the browser's TypeError.
 */
export async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: {
      Accept: "application/json",
      // errors come back in the page's language
      "Accept-Language": document.documentElement.lang || "zh-hans",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      "X-CSRFToken": csrfToken(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch (_error) {
    data = null;
  }
  if (response.ok && data === null) throw new ApiError(response.statusText, response.status, {});
  data = data || {};
  if (!response.ok || (data.legal === false && data.error)) {
    const message = (data && data.error && data.error.message) || response.statusText;
    throw new ApiError(message, response.status, data);
  }
  return data;
}

/** "Checkmate in {n}" with {n} filled in. */
export function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => (key in values ? String(values[key]) : `{${key}}`));
}
