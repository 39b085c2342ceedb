// The console's one form shape: every form of every panel is built here, so they all look, submit
// and keep unsaved edits alike.
import { ui } from "./api.js";
import { h } from "./dom.js";

/** A text field (no browser autocompletion: the values are the account's, not the person's). */
export const input = (id, props) => h("input", { id, autocomplete: "off", ...props });

/** A control in its label (the label holds it: a click on the text or a screen reader finds it). */
export function field(text, control) {
  return control.type === "checkbox"
    ? h("label", null, control, " ", text)
    : h("label", null, `${text} `, control);
}

/**
 * A form of fieldsets (a legend and its fields each; without a legend, the fields stand alone) and
 * a row of buttons: `submit` names the one that submits it, `buttons` are the others. One fieldset
 * is given as `legend` and `fields`, several as `sets`. Submitting never loads a page; it calls
 * onsubmit(form). With `keep`, what a person types survives refreshes until the form is submitted:
 * it is in ui.dirty, which a panel consults before it fills fields in.
 */
export function form({ id, className, hidden, legend, fields, sets = [{ legend, fields }], ...rest }) {
  const { submit, buttons = [], onsubmit, keep = false } = rest;
  const el = h(
    "form",
    {
      id,
      className,
      hidden,
      onsubmit: (ev) => {
        ev.preventDefault();
        ui.dirty.delete(id);
        onsubmit?.(el);
      },
    },
    sets.flatMap(({ legend, fields }) =>
      legend === undefined ? fields : h("fieldset", null, h("legend", null, legend), fields),
    ),
    submit || buttons.length
      ? h("div", { className: "buttons" }, submit ? h("button", { type: "submit" }, submit) : null, buttons)
      : null,
  );
  if (keep) el.addEventListener("input", () => ui.dirty.add(id));
  return el;
}
