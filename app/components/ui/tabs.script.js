// Gives server-rendered Radix tabs (data-slot="tabs") what Radix gives them once hydrated, on pages
// that are not: a click or ArrowLeft/ArrowRight/Home/End activates a tab, with one tab stop per list.
// A Tabs root may also keep its tab in the URL (tabs-script.tsx): data-url-hash (the hash names the
// tab, on arrival and when it changes) or data-url-param="tab" (?tab=, copied with replaceState).
// Radios with data-url-param are copied into the URL too, and radios sharing one keep one value.
// Loaded by the tabs that need it (tabs-script.tsx); does nothing when React runs the page.

const TAB = '[role="tab"]';

function ready() {
  // window.__reactRouterContext is set by React Router's <Scripts/>, which hydrated pages have and
  // the others leave out. It is an inline script at the end of <body>, which this async module can
  // run before: so look once the document is parsed.
  if (window.__reactRouterContext) return;
  for (const root of tabRoots()) {
    root.querySelector('[role="tablist"]')?.removeAttribute("tabindex");
    const active = triggers(root).find((tab) => tab.dataset.state === "active") ?? triggers(root)[0];
    if (active) activate(root, active);
  }
  openTabNamedByHash();
  rememberUrl();
  addEventListener("hashchange", () => {
    openTabNamedByHash();
    rememberUrl();
  });
  document.addEventListener("click", onClick);
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("change", onChange);
}

function tabRoots() {
  return [...document.querySelectorAll('[data-slot="tabs"]')];
}

function triggers(root) {
  return [...root.querySelectorAll(TAB)].filter((tab) => tab.closest('[data-slot="tabs"]') === root);
}

function activate(root, trigger) {
  for (const tab of triggers(root)) {
    const selected = tab === trigger;
    tab.dataset.state = selected ? "active" : "inactive";
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
    const panel = document.getElementById(tab.getAttribute("aria-controls") ?? "");
    if (panel) panel.dataset.state = tab.dataset.state;
  }
}

function openTabNamedByHash() {
  const value = location.hash.slice(1);
  if (!value) return;
  for (const root of document.querySelectorAll('[data-slot="tabs"][data-url-hash]')) {
    const trigger = triggers(root).find((tab) => tab.dataset.value === value);
    if (!trigger) continue;
    activate(root, trigger);
    (root.closest("section") ?? root).scrollIntoView({ block: "start" });
  }
}

function choose(root, trigger) {
  activate(root, trigger);
  const url = new URL(location.href);
  if (root.hasAttribute("data-url-hash")) url.hash = trigger.dataset.value;
  writeParams(url);
}

// Writes every URL-kept value (checked radios, then tabs) into the query and replaces the entry.
function writeParams(url) {
  for (const input of document.querySelectorAll("input[data-url-param]:checked")) {
    url.searchParams.set(input.dataset.urlParam, input.value);
  }
  for (const root of document.querySelectorAll('[data-slot="tabs"][data-url-param]')) {
    const active = triggers(root).find((tab) => tab.dataset.state === "active");
    if (active) url.searchParams.set(root.dataset.urlParam, active.dataset.value);
  }
  history.replaceState(history.state, "", url);
  rememberUrl();
}

// A form that comes back to this page (the currency menu) carries the URL to return to, rendered
// by the server: keep it up to date with what the script changed.
function rememberUrl() {
  for (const input of document.querySelectorAll("input[data-current-url]")) {
    input.value = location.pathname + location.search + location.hash;
  }
}

function onClick(event) {
  const trigger = event.target instanceof Element ? event.target.closest(TAB) : null;
  const root = trigger?.closest('[data-slot="tabs"]');
  if (root && !trigger.disabled) choose(root, trigger);
}

function onKeyDown(event) {
  const trigger = event.target instanceof Element ? event.target.closest(TAB) : null;
  const root = trigger?.closest('[data-slot="tabs"]');
  if (!root || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const tabs = triggers(root).filter((tab) => !tab.disabled);
  const index = tabs.indexOf(trigger);
  const next = {
    ArrowLeft: tabs[(index - 1 + tabs.length) % tabs.length],
    ArrowRight: tabs[(index + 1) % tabs.length],
    Home: tabs[0],
    End: tabs[tabs.length - 1],
  }[event.key];
  if (!next) return;
  event.preventDefault();
  next.focus();
  choose(root, next);
}

function onChange(event) {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.type !== "radio" || !input.dataset.urlParam) return;
  for (const twin of document.querySelectorAll("input[data-url-param]")) {
    if (twin.dataset.urlParam === input.dataset.urlParam && twin.value === input.value) twin.checked = true;
  }
  writeParams(new URL(location.href));
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
else ready();
