// The Account panel: settings (minify, remote fetching), the alias map with custom domains,
// sub-accounts and the rate-limit counters.

import { change, hand, ui } from "./api.js";
import { $, deleteButton, facts, h, redraw, row, shown, when } from "./dom.js";
import { field, form, input } from "./forms.js";

/** Builds the panel's forms into their places in the page and listens to its controls. */
export function setUpAccount() {
  $("minify-form").replaceWith(
    form({
      id: "minify-form",
      fields: [field("Minify JavaScript and CSS", h("input", { type: "checkbox", id: "minify" }))],
      submit: "Save minify",
      keep: true,
      onsubmit: () => {
        const enabled = $("minify").checked;
        change(`minify ${enabled ? "on" : "off"}`, () =>
          hand("updateAccount", { body: { minify: { enabled } } }),
        );
      },
    }),
  );
  $("alias-form").replaceWith(
    form({
      id: "alias-form",
      hidden: true,
      legend: "Alias",
      fields: [
        field("Name", input("alias-name", { required: true })),
        field("Prefix", input("alias-prefix", { placeholder: "/" })),
        field("Served by the CDN", h("input", { type: "checkbox", id: "alias-cdn" })),
        field("Default profile", input("alias-profile")),
        field("Custom domain", input("alias-domain", { placeholder: "img.example.com" })),
      ],
      submit: "Save alias",
      buttons: [h("button", { type: "button", onclick: closeAliasForm }, "Cancel")],
      onsubmit: saveAlias,
    }),
  );
  $("subaccount-form").replaceWith(
    form({
      id: "subaccount-form",
      className: "inline",
      fields: [field("New sub-account", input("subaccount-name", { required: true }))],
      submit: "Create",
      onsubmit: () => {
        const alias = $("subaccount-name").value.trim();
        change(`create sub-account ${alias}`, () => hand("createSubAccount", { body: { alias } }));
      },
    }),
  );
  $("alias-add").addEventListener("click", () => editAlias(undefined));
  $("limits-used").addEventListener("change", renderLimits);
}

export function renderAccount() {
  const a = ui.data.account;
  facts($("account-facts"), [
    ["Alias", a.alias],
    ["CDN host", a.cdnURL],
    ["Created", when(a.dateCreated)],
  ]);
  if (!ui.dirty.has("minify-form")) $("minify").checked = !!a.minify?.enabled;
  const f = a.fetching ?? {};
  const rows = [
    ["Enabled", !!f.enabled],
    ["Type", f.type],
  ];
  if (f.http) {
    rows.push(["URL", f.http.url], ["Authentication", !!f.http.auth?.enabled]);
    rows.push(["Username", f.http.auth?.username], ["Password", f.http.auth?.password]);
  }
  if (f.s3) {
    rows.push(["S3 bucket", f.s3.bucket], ["S3 endpoint", f.s3.endpoint], ["S3 prefix", f.s3.prefix]);
    rows.push(["S3 access key id", f.s3.accessKeyId], ["S3 secret key", f.s3.secretAccessKey]);
  }
  facts($("fetching"), rows);

  redraw(
    $("aliases").tBodies[0],
    ...Object.entries(a.aliases ?? {})
      .sort(([x], [y]) => x.localeCompare(y))
      .map(([name, e]) =>
        row(
          name,
          shown(e.prefix),
          shown(!!e.cdn),
          shown(e.defaultProfile),
          shown(e.customDomain),
          h(
            "button",
            { type: "button", "aria-label": `Edit alias ${name}`, onclick: () => editAlias(name) },
            "Edit",
          ),
        ),
      ),
  );

  redraw(
    $("subaccounts"),
    ...(ui.data.subAccounts.length === 0
      ? [h("li", null, h("span", { className: "masked" }, "none"))]
      : ui.data.subAccounts.map((alias) =>
          h(
            "li",
            null,
            alias,
            deleteButton(
              "Delete",
              `Delete ${alias}?`,
              () =>
                change(`delete sub-account ${alias}`, () => hand("deleteSubAccount", { query: { alias } })),
              `Delete sub-account ${alias}`,
            ),
          ),
        )),
  );
  renderLimits();
}

function renderLimits() {
  const onlyUsed = $("limits-used").checked;
  const now = Date.now() / 1000;
  const rows = Object.entries(ui.limits)
    .filter(([, c]) => !onlyUsed || c.count > 0)
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([name, c]) =>
      row(
        name,
        String(c.count),
        String(c.limit),
        String(c.remaining),
        c.count > 0
          ? `${new Date(c.reset * 1000).toLocaleTimeString()} (in ${Math.max(0, Math.ceil((c.reset - now) / 60))} min)`
          : "—",
      ),
    );
  $("limits").tBodies[0].replaceChildren(
    ...(rows.length ? rows : [h("tr", null, h("td", { colSpan: 5 }, "no counter in use"))]),
  );
}

function editAlias(name) {
  const form = $("alias-form");
  const entry = name ? ui.data.account.aliases[name] : {};
  form.querySelector("legend").textContent = name ? `Alias ${name}` : "New alias";
  $("alias-name").value = name ?? "";
  $("alias-name").readOnly = !!name;
  $("alias-prefix").value = entry.prefix ?? "/";
  $("alias-cdn").checked = name ? !!entry.cdn : true;
  $("alias-profile").value = entry.defaultProfile ?? "";
  $("alias-domain").value = entry.customDomain ?? "";
  form.hidden = false;
  (name ? $("alias-prefix") : $("alias-name")).focus();
}

function closeAliasForm() {
  $("alias-form").hidden = true;
  $("alias-add").focus();
}

function saveAlias() {
  const name = $("alias-name").value.trim();
  const current = ui.data.account.aliases;
  const before = current[name] ?? {};
  const entry = { prefix: $("alias-prefix").value.trim() || "/", cdn: $("alias-cdn").checked };
  const profile = $("alias-profile").value.trim();
  if (profile) entry.defaultProfile = profile;
  const domain = $("alias-domain").value.trim();
  // the whole map goes out, as the dashboard saves it: right whether the service merges or replaces
  const aliases = {};
  for (const [n, e] of Object.entries(current)) {
    const { customDomain: _domain, ...rest } = e;
    aliases[n] = rest;
  }
  aliases[name] = entry;
  const { customDomain: _d, ...was } = before;
  const entryChanged = JSON.stringify(was) !== JSON.stringify(entry) || !(name in current);
  $("alias-form").hidden = true;
  return change(`save alias ${name}`, async () => {
    if (entryChanged) await hand("updateAccount", { body: { aliases } });
    if ((before.customDomain ?? "") !== domain) {
      if (before.customDomain)
        await hand("removeCustomDomain", { query: { alias: name, domain: before.customDomain } });
      if (domain) await hand("addCustomDomain", { body: { alias: name, domain } });
    }
  });
}
