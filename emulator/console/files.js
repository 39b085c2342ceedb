// The Files panel: the folder tree, and for the selected folder or file its facts, meta, options
// and what can be done to it (create a folder, upload, rename, delete).

import { change, hand, say, ui } from "./api.js";
import { $, bytes, deleteButton, facts, h, redraw, when } from "./dom.js";
import { field, form, input } from "./forms.js";

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

export function renderFiles() {
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
  redraw($("tree"), item(root));
  renderDetails(byPath.get(ui.selected));
}

function renderDetails(node) {
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
  if (node.path !== "/") parts.push(metaForm(node, ui.data.meta[node.path] ?? {}));
  if (node.isDirectory)
    parts.push(optionsForm(node, ui.data.options[node.path] ?? {}), ...folderActions(node));
  else parts.push(...fileActions(node));
  if (node.path !== "/") parts.push(deleteOne(node));
  $("details").replaceChildren(...parts);
}

function metaForm(node, meta) {
  const title = input("meta-title", { value: meta.title ?? "" });
  const description = input("meta-description", { value: meta.description ?? "" });
  const tags = input("meta-tags", { value: (meta.tags ?? []).join(", ") });
  const save = async () => {
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
  return form({
    id: "meta-form",
    legend: "Meta",
    fields: [field("Title", title), field("Description", description), field("Tags (comma-separated)", tags)],
    submit: "Save meta",
    onsubmit: save,
  });
}

const OPTIONS = [
  ["scanSpins", "Scan spins"],
  ["nameSpinsAfterFolder", "Name spins after the folder"],
  ["allowListing", "Allow listing"],
];

function optionsForm(node, options) {
  const selects = OPTIONS.map(([key]) => {
    const value = options[key] === undefined ? "" : String(options[key]);
    return h(
      "select",
      { id: `option-${key}` },
      h("option", { value: "", selected: value === "" }, "not set (inherited)"),
      h("option", { value: "true", selected: value === "true" }, "on"),
      h("option", { value: "false", selected: value === "false" }, "off"),
    );
  });
  const save = async () => {
    const body = {};
    OPTIONS.forEach(([key], i) => {
      if (selects[i].value !== "") body[key] = selects[i].value === "true";
    });
    await change(`options of ${node.path}`, () =>
      hand("setFolderOptions", { query: { filename: node.path }, body }),
    );
  };
  return form({
    id: "options-form",
    legend: "Folder options",
    fields: OPTIONS.map(([, label], i) => field(label, selects[i])),
    submit: "Save options",
    onsubmit: save,
  });
}

const join = (dir, name) => (dir === "/" ? `/${name}` : `${dir}/${name}`);

function folderActions(node) {
  const folder = input("new-folder", { required: true });
  const file = h("input", { id: "upload-file", type: "file", required: true });
  const name = input("upload-name", { placeholder: "the file's own name" });
  const mkdir = async () => {
    const path = join(node.path, folder.value.trim());
    await change(`create ${path}`, () => hand("mkdir", { query: { dirname: path } }));
  };
  const upload = async () => {
    const chosen = file.files?.[0];
    if (!chosen) return say("choose a file first", "bad");
    const path = join(node.path, name.value.trim() || chosen.name);
    const data = new Uint8Array(await chosen.arrayBuffer());
    await change(`upload ${path}`, () =>
      hand("upload", { query: { filename: path }, raw: data, contentType: chosen.type }),
    );
  };
  return [
    form({
      id: "mkdir-form",
      legend: "New folder",
      fields: [field("Name", folder)],
      submit: "Create folder",
      onsubmit: mkdir,
    }),
    form({
      id: "upload-form",
      legend: "Upload a file here",
      fields: [field("File", file), field("Name (optional)", name)],
      submit: "Upload",
      onsubmit: upload,
    }),
  ];
}

function fileActions(node) {
  const target = input("rename-to", { value: node.path, required: true });
  const rename = async () => {
    const to = target.value.trim();
    if (to === node.path) return say("rename: the path is the same");
    await change(`rename ${node.path} to ${to}`, async () => {
      await hand("rename", { query: { from: node.path, to } });
      ui.selected = to;
    });
  };
  return [
    form({
      id: "rename-form",
      legend: "Rename or move",
      fields: [field("New path", target)],
      submit: "Rename",
      onsubmit: rename,
    }),
  ];
}

/** Deletes the file or folder shown (a folder only when it is empty: the API refuses otherwise). */
function deleteOne(node) {
  return h(
    "div",
    { className: "buttons" },
    deleteButton(
      node.isDirectory ? "Delete this folder (when empty)" : "Delete this file",
      `Delete ${node.path}?`,
      () => change(`delete ${node.path}`, () => hand("deleteFile", { query: { filename: node.path } })),
    ),
  );
}
