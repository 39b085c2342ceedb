// The emulator's web console: plain JavaScript in ES modules the browser loads as they are (no
// framework, no build step). This one starts the page: the sections, the account picker and the
// refresh that draws every panel; each panel is a module of its own (account.js, files.js,
// requests.js, faults.js), their forms all built by forms.js, and api.js talks to the emulator.
import { renderAccount, setUpAccount } from "./account.js";
import { control, fail, refreshWith, ui } from "./api.js";
import { $, h } from "./dom.js";
import { loadFaults, setUpFaults } from "./faults.js";
import { renderFiles } from "./files.js";
import { followRequests, setUpRequests } from "./requests.js";

const SECTIONS = ["account-section", "files-section", "requests-section", "faults-section"];

function showSection() {
  const id = (location.hash || "#account-section").slice(1);
  const current = SECTIONS.includes(id) ? id : "account-section";
  for (const s of SECTIONS) $(s).hidden = s !== current;
  for (const a of document.querySelectorAll("nav a[data-section]")) {
    if (a.dataset.section === current) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

/** Reads the account shown and its limits, then draws the panels that show them. */
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
  refreshWith(refresh);
  showSection();
  window.addEventListener("hashchange", () => {
    showSection();
    $("main").focus();
  });
  setUpAccount();
  setUpRequests();
  setUpFaults();
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
