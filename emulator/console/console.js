// The emulator's web console: plain JavaScript, no framework, no build step. It reads the
// control surface (same origin only) and makes hand changes through
// POST /_emulator/console/api/<operation>, which calls the /v2 API for it: the page never holds
// an API token, and every value it shows comes masked from the server. Text is only ever set
// with textContent, never parsed as HTML.

(() => {
  const MASK = "[masked]";
  const $ = (id) => document.getElementById(id);
  const ui = {
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

  // ---- helpers -----------------------------------------------------------------------------

  /** An element with properties (attributes for names with a dash) and children. */
  function h(tag, props, ...children) {
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

  function say(text, kind) {
    const el = $("status");
    el.textContent = text;
    el.className = kind ?? "";
  }

  function fail(err) {
    say(err instanceof Error ? err.message : String(err), "bad");
  }

  /** A value as shown: masked secrets and empty values say so. */
  function shown(value) {
    if (value === MASK) return h("span", { className: "masked" }, "hidden (set)");
    if (value === undefined || value === null || value === "")
      return h("span", { className: "masked" }, "not set");
    if (typeof value === "boolean") return value ? "yes" : "no";
    return String(value);
  }

  function facts(dl, rows) {
    dl.replaceChildren(...rows.flatMap(([k, v]) => [h("dt", null, k), h("dd", null, shown(v))]));
  }

  const bytes = (n) =>
    n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`;
  const when = (iso) => new Date(iso).toLocaleString();
  const q = (params) => new URLSearchParams(params).toString();

  async function control(method, path, body) {
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
  async function hand(operation, { query, body, raw, contentType } = {}) {
    const params = q({ account: ui.account, ...(query ?? {}) });
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
    const error =
      out.status !== 200 || (answer && typeof answer === "object" && answer.name && answer.message);
    if (error) throw new Error(`${operation}: HTTP ${out.status}: ${answer?.message ?? "no answer"}`);
    return answer;
  }

  /** Runs a change, says how it went, then shows the account as it is now. */
  async function change(what, fn) {
    say(`${what}…`);
    try {
      await fn();
      say(`${what}: done`, "good");
    } catch (err) {
      fail(err);
    }
    await refresh();
  }

  function trackDirty(form) {
    form.addEventListener("input", () => ui.dirty.add(form.id));
  }

  // ---- sections ----------------------------------------------------------------------------

  function showSection() {
    const id = (location.hash || "#account-section").slice(1);
    const known = ["account-section", "files-section", "requests-section", "faults-section"];
    const current = known.includes(id) ? id : "account-section";
    for (const s of known) $(s).hidden = s !== current;
    for (const a of document.querySelectorAll("nav a[data-section]")) {
      if (a.dataset.section === current) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
  }

  // ---- account -----------------------------------------------------------------------------

  function renderAccount() {
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

    const body = $("aliases").tBodies[0];
    body.replaceChildren(
      ...Object.entries(a.aliases ?? {})
        .sort(([x], [y]) => x.localeCompare(y))
        .map(([name, e]) =>
          h(
            "tr",
            null,
            h("th", { scope: "row" }, name),
            h("td", null, shown(e.prefix)),
            h("td", null, shown(!!e.cdn)),
            h("td", null, shown(e.defaultProfile)),
            h("td", null, shown(e.customDomain)),
            h(
              "td",
              null,
              h(
                "button",
                { type: "button", "aria-label": `Edit alias ${name}`, onclick: () => editAlias(name) },
                "Edit",
              ),
            ),
          ),
        ),
    );

    const subs = $("subaccounts");
    subs.replaceChildren(
      ...(ui.data.subAccounts.length === 0
        ? [h("li", null, h("span", { className: "masked" }, "none"))]
        : ui.data.subAccounts.map((alias) =>
            h(
              "li",
              null,
              alias,
              h(
                "button",
                {
                  type: "button",
                  className: "danger",
                  "aria-label": `Delete sub-account ${alias}`,
                  onclick: (ev) =>
                    twoStep(ev.currentTarget, `Delete ${alias}?`, () =>
                      change(`delete sub-account ${alias}`, () =>
                        hand("deleteSubAccount", { query: { alias } }),
                      ),
                    ),
                },
                "Delete",
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
        h(
          "tr",
          null,
          h("th", { scope: "row" }, name),
          h("td", null, String(c.count)),
          h("td", null, String(c.limit)),
          h("td", null, String(c.remaining)),
          h(
            "td",
            null,
            c.count > 0
              ? `${new Date(c.reset * 1000).toLocaleTimeString()} (in ${Math.max(0, Math.ceil((c.reset - now) / 60))} min)`
              : "—",
          ),
        ),
      );
    $("limits").tBodies[0].replaceChildren(
      ...(rows.length ? rows : [h("tr", null, h("td", { colSpan: 5 }, "no counter in use"))]),
    );
  }

  /** A button that acts only when pressed twice: no dialog, usable from the keyboard. */
  function twoStep(button, question, act) {
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

  function editAlias(name) {
    const form = $("alias-form");
    const entry = name ? ui.data.account.aliases[name] : {};
    form.dataset.editing = name ?? "";
    $("alias-form-legend").textContent = name ? `Alias ${name}` : "New alias";
    $("alias-name").value = name ?? "";
    $("alias-name").readOnly = !!name;
    $("alias-prefix").value = entry.prefix ?? "/";
    $("alias-cdn").checked = name ? !!entry.cdn : true;
    $("alias-profile").value = entry.defaultProfile ?? "";
    $("alias-domain").value = entry.customDomain ?? "";
    form.hidden = false;
    ui.dirty.add("alias-form");
    (name ? $("alias-prefix") : $("alias-name")).focus();
  }

  function closeAliasForm() {
    $("alias-form").hidden = true;
    ui.dirty.delete("alias-form");
    $("alias-add").focus();
  }

  async function saveAlias(ev) {
    ev.preventDefault();
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
    ui.dirty.delete("alias-form");
    await change(`save alias ${name}`, async () => {
      if (entryChanged) await hand("updateAccount", { body: { aliases } });
      if ((before.customDomain ?? "") !== domain) {
        if (before.customDomain)
          await hand("removeCustomDomain", { query: { alias: name, domain: before.customDomain } });
        if (domain) await hand("addCustomDomain", { body: { alias: name, domain } });
      }
    });
  }

  // ---- files -------------------------------------------------------------------------------

  function treeOf(entries) {
    const root = { path: "/", name: "/", isDirectory: true, children: [] };
    const byPath = new Map([["/", root]]);
    for (const e of entries) {
      const node = { ...e, name: e.path.slice(e.path.lastIndexOf("/") + 1), children: [] };
      byPath.set(e.path, node);
      const parent = byPath.get(e.path.slice(0, e.path.lastIndexOf("/")) || "/");
      parent?.children.push(node);
    }
    return { root, byPath };
  }

  function renderFiles() {
    const { root, byPath } = treeOf(ui.data.tree);
    if (!byPath.has(ui.selected)) ui.selected = "/";
    const item = (node) =>
      h(
        "li",
        { className: node.isDirectory ? "dir" : "file" },
        h(
          "button",
          {
            type: "button",
            "aria-current": node.path === ui.selected ? "true" : undefined,
            "aria-label": `${node.isDirectory ? "Folder" : "File"} ${node.path}`,
            onclick: () => {
              ui.selected = node.path;
              renderFiles();
              $("details").querySelector("h3")?.focus();
            },
          },
          node.path === "/" ? "/ (root)" : node.name,
        ),
        node.children.length ? h("ul", null, node.children.map(item)) : null,
      );
    $("tree").replaceChildren(item(root));
    renderDetails(byPath.get(ui.selected));
  }

  function renderDetails(node) {
    const meta = ui.data.meta[node.path] ?? {};
    const options = ui.data.options[node.path] ?? {};
    const parts = [h("h3", { tabIndex: -1 }, `${node.isDirectory ? "Folder" : "File"} ${node.path}`)];
    const dl = h("dl");
    facts(
      dl,
      node.isDirectory
        ? [
            ["Entries", node.children.length],
            ["Changed", node.mtime ? when(node.mtime) : ""],
          ]
        : [
            ["Size", bytes(node.size)],
            ["Type", node.contentType],
            ["Changed", when(node.mtime)],
          ],
    );
    parts.push(dl);
    if (!node.isDirectory) {
      const cdn = `/cdn/${encodeURIComponent(ui.data.account.alias)}${node.path.split("/").map(encodeURIComponent).join("/")}`;
      parts.push(h("p", null, h("a", { href: cdn, target: "_blank", rel: "noopener" }, "Open on the CDN")));
    }
    if (node.path !== "/") parts.push(metaForm(node, meta));
    if (node.isDirectory) parts.push(optionsForm(node, options), folderActions(node));
    else parts.push(fileActions(node));
    $("details").replaceChildren(...parts);
  }

  function metaForm(node, meta) {
    const title = h("input", { id: "meta-title", value: meta.title ?? "", autocomplete: "off" });
    const description = h("input", {
      id: "meta-description",
      value: meta.description ?? "",
      autocomplete: "off",
    });
    const tags = h("input", { id: "meta-tags", value: (meta.tags ?? []).join(", "), autocomplete: "off" });
    const save = async (ev) => {
      ev.preventDefault();
      const next = {
        title: title.value.trim(),
        description: description.value.trim(),
        tags: tags.value
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean),
      };
      // only what was changed is written, as a person editing one field would
      const body = {};
      if (next.title !== (meta.title ?? "")) body.title = next.title;
      if (next.description !== (meta.description ?? "")) body.description = next.description;
      if (JSON.stringify(next.tags) !== JSON.stringify(meta.tags ?? [])) body.tags = next.tags;
      if (Object.keys(body).length === 0) return say("meta: nothing changed");
      await change(`meta of ${node.path}`, () => hand("setMeta", { query: { filename: node.path }, body }));
    };
    return h(
      "form",
      { id: "meta-form", onsubmit: save },
      h(
        "fieldset",
        null,
        h("legend", null, "Meta"),
        h("label", { for: "meta-title" }, "Title"),
        title,
        h("label", { for: "meta-description" }, "Description"),
        description,
        h("label", { for: "meta-tags" }, "Tags (comma-separated)"),
        tags,
        h("div", { className: "buttons" }, h("button", { type: "submit" }, "Save meta")),
      ),
    );
  }

  function optionsForm(node, options) {
    const names = [
      ["scanSpins", "Scan spins"],
      ["nameSpinsAfterFolder", "Name spins after the folder"],
      ["allowListing", "Allow listing"],
    ];
    const selects = names.map(([key, label]) => {
      const value = options[key] === undefined ? "" : String(options[key]);
      const select = h(
        "select",
        { id: `option-${key}` },
        h("option", { value: "", selected: value === "" }, "not set (inherited)"),
        h("option", { value: "true", selected: value === "true" }, "on"),
        h("option", { value: "false", selected: value === "false" }, "off"),
      );
      return [key, label, select];
    });
    const save = async (ev) => {
      ev.preventDefault();
      const body = {};
      for (const [key, , select] of selects) if (select.value !== "") body[key] = select.value === "true";
      await change(`options of ${node.path}`, () =>
        hand("setFolderOptions", { query: { filename: node.path }, body }),
      );
    };
    return h(
      "form",
      { id: "options-form", onsubmit: save },
      h(
        "fieldset",
        null,
        h("legend", null, "Folder options"),
        selects.map(([key, label, select]) => h("label", { for: `option-${key}` }, label, " ", select)),
        h("div", { className: "buttons" }, h("button", { type: "submit" }, "Save options")),
      ),
    );
  }

  const join = (dir, name) => (dir === "/" ? `/${name}` : `${dir}/${name}`);

  function folderActions(node) {
    const folder = h("input", { id: "new-folder", autocomplete: "off", required: true });
    const file = h("input", { id: "upload-file", type: "file", required: true });
    const name = h("input", { id: "upload-name", autocomplete: "off", placeholder: "the file's own name" });
    const mkdir = async (ev) => {
      ev.preventDefault();
      const path = join(node.path, folder.value.trim());
      await change(`create ${path}`, () => hand("mkdir", { query: { dirname: path } }));
    };
    const upload = async (ev) => {
      ev.preventDefault();
      const chosen = file.files?.[0];
      if (!chosen) return say("choose a file first", "bad");
      const path = join(node.path, name.value.trim() || chosen.name);
      const data = new Uint8Array(await chosen.arrayBuffer());
      await change(`upload ${path}`, () =>
        hand("upload", { query: { filename: path }, raw: data, contentType: chosen.type }),
      );
    };
    const parts = [
      h(
        "form",
        { id: "mkdir-form", onsubmit: mkdir },
        h(
          "fieldset",
          null,
          h("legend", null, "New folder"),
          h("label", { for: "new-folder" }, "Name"),
          folder,
          h("div", { className: "buttons" }, h("button", { type: "submit" }, "Create folder")),
        ),
      ),
      h(
        "form",
        { id: "upload-form", onsubmit: upload },
        h(
          "fieldset",
          null,
          h("legend", null, "Upload a file here"),
          h("label", { for: "upload-file" }, "File"),
          file,
          h("label", { for: "upload-name" }, "Name (optional)"),
          name,
          h("div", { className: "buttons" }, h("button", { type: "submit" }, "Upload")),
        ),
      ),
    ];
    if (node.path !== "/") {
      parts.push(
        h(
          "div",
          { className: "buttons" },
          h(
            "button",
            {
              type: "button",
              className: "danger",
              onclick: (ev) =>
                twoStep(ev.currentTarget, `Delete ${node.path}?`, () =>
                  change(`delete ${node.path}`, () => hand("deleteFile", { query: { filename: node.path } })),
                ),
            },
            "Delete this folder (when empty)",
          ),
        ),
      );
    }
    return h("div", null, parts);
  }

  function fileActions(node) {
    const target = h("input", { id: "rename-to", value: node.path, autocomplete: "off", required: true });
    const rename = async (ev) => {
      ev.preventDefault();
      const to = target.value.trim();
      if (to === node.path) return say("rename: the path is the same");
      await change(`rename ${node.path} to ${to}`, async () => {
        await hand("rename", { query: { from: node.path, to } });
        ui.selected = to;
      });
    };
    return h(
      "div",
      null,
      h(
        "form",
        { id: "rename-form", onsubmit: rename },
        h(
          "fieldset",
          null,
          h("legend", null, "Rename or move"),
          h("label", { for: "rename-to" }, "New path"),
          target,
          h("div", { className: "buttons" }, h("button", { type: "submit" }, "Rename")),
        ),
      ),
      h(
        "div",
        { className: "buttons" },
        h(
          "button",
          {
            type: "button",
            className: "danger",
            onclick: (ev) =>
              twoStep(ev.currentTarget, `Delete ${node.path}?`, () =>
                change(`delete ${node.path}`, () => hand("deleteFile", { query: { filename: node.path } })),
              ),
          },
          "Delete this file",
        ),
      ),
    );
  }

  // ---- requests ----------------------------------------------------------------------------

  const MAX_REQUESTS = 2000;
  let renderPending = false;

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
      if (![...select.options].some((o) => o.value === name))
        select.append(h("option", { value: name }, name));
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

  let refreshTimer;
  function followRequests() {
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
      // what others change shows up without a reload
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => refresh(), writes ? 300 : 2000);
    };
  }

  // ---- faults ------------------------------------------------------------------------------

  async function loadFaults() {
    const [faults, behaviour] = await Promise.all([
      control("GET", "/_emulator/faults"),
      control("GET", "/_emulator/behaviour"),
    ]);
    if (!ui.dirty.has("faults-form")) {
      for (const k of ["latencyMs", "latencyJitterMs", "faultRate", "dropRate"]) $(k).value = faults[k];
      $("aliasesUpdate").value = behaviour.aliasesUpdate;
      $("mkdirExists").value = behaviour.mkdirExists;
    }
    const pending = Object.entries(faults.dropAfterApply ?? {});
    facts($("faults-now"), [
      ["Latency", `${faults.latencyMs} ms + up to ${faults.latencyJitterMs} ms`],
      ["Fault rate", faults.faultRate],
      ["Drop rate", faults.dropRate],
      ["Token lifetime override", faults.tokenTtlSeconds ? `${faults.tokenTtlSeconds} s` : ""],
      ["Seed", faults.seed],
      ["Lost answers pending", pending.map(([o, n]) => `${o} × ${n}`).join(", ")],
      ["Alias map on update", behaviour.aliasesUpdate],
      ["Existing folder on mkdir", behaviour.mkdirExists],
    ]);
  }

  async function applyFaults(ev) {
    ev.preventDefault();
    const number = (id) => Number($(id).value || 0);
    try {
      await control("POST", "/_emulator/faults", {
        latencyMs: number("latencyMs"),
        latencyJitterMs: number("latencyJitterMs"),
        faultRate: number("faultRate"),
        dropRate: number("dropRate"),
      });
      await control("POST", "/_emulator/behaviour", {
        aliasesUpdate: $("aliasesUpdate").value,
        mkdirExists: $("mkdirExists").value,
      });
      ui.dirty.delete("faults-form");
      say("faults and behaviour applied", "good");
    } catch (err) {
      fail(err);
    }
    await loadFaults().catch(fail);
  }

  // ---- start -------------------------------------------------------------------------------

  async function refresh() {
    if (!ui.account) return;
    try {
      const account = encodeURIComponent(ui.account);
      const [data, limits] = await Promise.all([
        control("GET", `/_emulator/state?account=${account}&mtimes=true`),
        control("GET", `/_emulator/limits?account=${account}`),
      ]);
      ui.data = data;
      ui.limits = limits;
      renderAccount();
      renderFiles();
    } catch (err) {
      fail(err);
    }
  }

  async function start() {
    showSection();
    window.addEventListener("hashchange", () => {
      showSection();
      $("main").focus();
    });
    for (const id of ["minify-form", "faults-form"]) trackDirty($(id));
    $("minify-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      ui.dirty.delete("minify-form");
      const enabled = $("minify").checked;
      change(`minify ${enabled ? "on" : "off"}`, () =>
        hand("updateAccount", { body: { minify: { enabled } } }),
      );
    });
    $("alias-add").addEventListener("click", () => editAlias(undefined));
    $("alias-cancel").addEventListener("click", closeAliasForm);
    $("alias-form").addEventListener("submit", saveAlias);
    $("subaccount-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const alias = $("subaccount-name").value.trim();
      change(`create sub-account ${alias}`, () => hand("createSubAccount", { body: { alias } }));
    });
    $("limits-used").addEventListener("change", renderLimits);
    for (const id of ["filter-operation", "filter-status", "filter-console"])
      $(id).addEventListener("change", renderRequests);
    $("requests-clear").addEventListener("click", async () => {
      try {
        await control("DELETE", "/_emulator/requests");
        ui.requests = [];
        renderRequests();
        say("request log cleared", "good");
      } catch (err) {
        fail(err);
      }
    });
    $("faults-form").addEventListener("submit", applyFaults);
    $("account").addEventListener("change", () => {
      ui.account = $("account").value;
      ui.selected = "/";
      refresh();
    });

    try {
      const { accounts } = await control("GET", "/_emulator/accounts");
      $("account").replaceChildren(...accounts.map((a) => h("option", { value: a.alias }, a.alias)));
      ui.account = accounts[0]?.alias;
      await Promise.all([refresh(), loadFaults()]);
      followRequests();
      document.body.dataset.ready = "yes";
    } catch (err) {
      fail(err);
    }
  }

  start();
})();
