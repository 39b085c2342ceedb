// What the page knows and how it talks to the emulator: the control surface (same origin only) and
// hand changes through POST /_emulator/console/api/<operation>, which calls the /v2 API for it, so
// the page never holds an API token. Every value it receives comes masked from the server.
import { $ } from "./dom.js";

export const ui = {
  account: undefined,
  /** GET /_emulator/state of the account shown. */
  data: undefined,
  limits: {},
  selected: "/",
  requests: [],
  operations: new Set(),
  /** Forms with changes not saved yet: a refresh leaves their fields alone. */
  dirty: new Set(),
};

export function say(text, kind) {
  const el = $("status");
  el.textContent = text;
  el.className = kind ?? "";
}

export function fail(err) {
  say(err instanceof Error ? err.message : String(err), "bad");
}

export async function control(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(`${method} ${path}: ${json?.message ?? res.status}`);
  return json;
}

/** A hand change: one /v2 operation, made by the emulator for this page. Resolves to its answer. */
export async function hand(operation, { query, body, raw, contentType } = {}) {
  const params = new URLSearchParams({ account: ui.account, ...(query ?? {}) });
  const res = await fetch(`/_emulator/console/api/${operation}?${params}`, {
    method: "POST",
    headers:
      raw !== undefined
        ? { "content-type": contentType || "application/octet-stream" }
        : body === undefined
          ? {}
          : { "content-type": "application/json" },
    body: raw !== undefined ? raw : body === undefined ? undefined : JSON.stringify(body),
  });
  const out = await res.json();
  if (!res.ok) throw new Error(`${operation}: ${out.message ?? res.status}`);
  const answer = out.body;
  // an error may come as a 200 with {name, message} (mkdir of an existing path, as documented)
  const error = out.status !== 200 || (answer && typeof answer === "object" && answer.name && answer.message);
  if (error) throw new Error(`${operation}: HTTP ${out.status}: ${answer?.message ?? "no answer"}`);
  return answer;
}

let refresher = async () => {};

/** Names what shows the account again after a change (console.js's refresh: it draws every panel). */
export function refreshWith(fn) {
  refresher = fn;
}

/** Shows the account as it is now. */
export const refresh = () => refresher();

/** Runs a change, says how it went, then shows the account as it is now. */
export async function change(what, fn) {
  say(`${what}…`);
  try {
    await fn();
  } catch (err) {
    fail(err);
    await refresh();
    return;
  }
  // "done" once the page shows the change: a refresh that lands later would redraw under the user
  await refresh();
  say(`${what}: done`, "good");
}
