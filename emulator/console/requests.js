// The Requests panel: the request log as it arrives (server-sent events), filtered by operation,
// status class or console changes.

import { control, fail, refresh, say, ui } from "./api.js";
import { $, h } from "./dom.js";
import { field, form } from "./forms.js";

const MAX_REQUESTS = 2000;
let renderPending = false;
let refreshTimer;

/** Builds the panel's filters into their place in the page. */
export function setUpRequests() {
  const statuses = [
    ["", "all"],
    ["2", "2xx"],
    ["3", "3xx"],
    ["4", "4xx"],
    ["5", "5xx"],
    ["dropped", "dropped"],
  ];
  const filters = [
    field("Operation", h("select", { id: "filter-operation" }, h("option", { value: "" }, "all"))),
    field(
      "Status",
      h(
        "select",
        { id: "filter-status" },
        statuses.map(([v, t]) => h("option", { value: v }, t)),
      ),
    ),
    field("Only console changes", h("input", { type: "checkbox", id: "filter-console" })),
  ];
  for (const label of filters) label.addEventListener("change", renderRequests);
  $("request-filters").replaceWith(
    form({
      id: "request-filters",
      className: "inline",
      fields: filters,
      buttons: [h("button", { type: "button", onclick: clearLog }, "Clear the log")],
    }),
  );
}

async function clearLog() {
  try {
    await control("DELETE", "/_emulator/requests");
    ui.requests = [];
    renderRequests();
    say("request log cleared", "good");
  } catch (err) {
    fail(err);
  }
}

function renderRequests() {
  renderPending = false;
  const op = $("filter-operation").value;
  const status = $("filter-status").value;
  const onlyConsole = $("filter-console").checked;
  const shownRows = [];
  for (let i = ui.requests.length - 1; i >= 0 && shownRows.length < 500; i--) {
    const r = ui.requests[i];
    if (op && r.operation !== op) continue;
    if (status === "dropped" ? !r.dropped : status && String(r.status)[0] !== status) continue;
    if (onlyConsole && r.via !== "console") continue;
    shownRows.push(r);
  }
  const select = $("filter-operation");
  for (const name of [...ui.operations].sort()) {
    if (![...select.options].some((o) => o.value === name)) select.append(h("option", { value: name }, name));
  }
  $("requests").tBodies[0].replaceChildren(
    ...shownRows.map((r) => {
      const query = r.query
        ? `?${[...new URLSearchParams(r.query)].map(([k, v]) => `${k}=${v}`).join("&")}`
        : "";
      return h(
        "tr",
        null,
        h("td", null, String(r.seq)),
        h("td", null, new Date(r.time).toLocaleTimeString()),
        h("td", null, r.method),
        h("td", null, `${r.path}${query}`),
        h("td", null, r.operation ?? "(unknown)", r.via === "console" ? " (console)" : ""),
        h(
          "td",
          { className: `status-${String(r.status)[0]}` },
          r.dropped ? `${r.status} dropped` : String(r.status),
        ),
        h("td", null, r.counter ?? ""),
        h("td", null, `${r.latencyMs} ms`),
        h("td", null, r.account ?? ""),
      );
    }),
  );
  $("requests-count").textContent = `${shownRows.length} shown of the last ${ui.requests.length} requests`;
}

/** Follows the request log; a write by anyone shows the account again soon, without a reload. */
export function followRequests() {
  const stream = new EventSource("/_emulator/requests/stream?since=0");
  stream.onmessage = (ev) => {
    const entries = JSON.parse(ev.data);
    let writes = false;
    for (const r of entries) {
      ui.requests.push(r);
      if (r.operation) ui.operations.add(r.operation);
      if (r.method !== "GET" && r.operation !== "token") writes = true;
    }
    if (ui.requests.length > MAX_REQUESTS) ui.requests.splice(0, ui.requests.length - MAX_REQUESTS);
    if (!renderPending) {
      renderPending = true;
      requestAnimationFrame(renderRequests);
    }
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => refresh(), writes ? 300 : 2000);
  };
}
