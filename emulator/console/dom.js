// Building and showing: elements, masked values, dates and sizes. Text is only ever set as text
// (textContent, text nodes), never parsed as HTML.

const MASK = "[masked]";

export const $ = (id) => document.getElementById(id);

/** An element with properties (attributes for names with a dash) and children. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k.includes("-") || k === "for" || k === "role") el.setAttribute(k, v === true ? "" : v);
    else el[k] = v;
  }
  for (const c of children.flat()) {
    if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/**
 * Replaces a container's children, keeping the keyboard focus on the control of the same name:
 * the periodic redraw must not drop a keyboard user's place.
 */
export function redraw(container, ...children) {
  const focused = document.activeElement;
  const name = container.contains(focused) ? focused.getAttribute("aria-label") : null;
  container.replaceChildren(...children);
  if (name === null) return;
  for (const el of container.querySelectorAll("[aria-label]"))
    if (el.getAttribute("aria-label") === name) return el.focus();
}

/** A value as shown: masked secrets and empty values say so. */
export function shown(value) {
  if (value === MASK) return h("span", { className: "masked" }, "hidden (set)");
  if (value === undefined || value === null || value === "")
    return h("span", { className: "masked" }, "not set");
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

/** Fills a description list with [term, value] rows. */
export function facts(dl, rows) {
  dl.replaceChildren(...rows.flatMap(([k, v]) => [h("dt", null, k), h("dd", null, shown(v))]));
}

/** A table row: a header cell naming it, then data cells. */
export const row = (name, ...cells) =>
  h(
    "tr",
    null,
    h("th", { scope: "row" }, name),
    cells.map((c) => h("td", null, c)),
  );

export const bytes = (n) =>
  n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`;
export const when = (iso) => new Date(iso).toLocaleString();

/** A button that acts only when pressed twice: no dialog, usable from the keyboard. */
export function twoStep(button, question, act) {
  if (button.dataset.armed === "yes") {
    button.dataset.armed = "";
    act();
    return;
  }
  button.dataset.armed = "yes";
  button.dataset.label = button.textContent;
  button.textContent = `${question} Press again`;
  setTimeout(() => {
    if (button.isConnected && button.dataset.armed === "yes") {
      button.dataset.armed = "";
      button.textContent = button.dataset.label;
    }
  }, 5000);
}

/** A delete button: asks for a second press, then runs the change. */
export function deleteButton(text, question, act, label) {
  return h(
    "button",
    {
      type: "button",
      className: "danger",
      "aria-label": label,
      onclick: (ev) => twoStep(ev.currentTarget, question, act),
    },
    text,
  );
}
