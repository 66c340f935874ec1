// On a page that React does not run (ADR 013) a form posts natively. While the browser waits for the
// answer, the submit button that carries data-pending-label is disabled and shows that label, as React
// shows it on hydrated pages. Loaded by StatusButton (status-button.tsx).

function restore(button) {
  if (button.dataset.idleLabel === undefined) return;
  button.textContent = button.dataset.idleLabel;
  delete button.dataset.idleLabel;
  button.disabled = false;
}

function ready() {
  // React Router's <Scripts /> sets this on hydrated pages, where React draws the pending state itself.
  // It is an inline script at the end of <body>, which this async module can run before.
  if ("__reactRouterContext" in window) return;
  addEventListener("submit", (event) => {
    if (event.defaultPrevented || !(event.target instanceof HTMLFormElement)) return;
    const button = event.target.querySelector("button[data-pending-label]");
    if (!(button instanceof HTMLButtonElement)) return;
    button.dataset.idleLabel = button.textContent;
    button.textContent = button.dataset.pendingLabel;
    button.disabled = true;
  });
  // A page restored from the back-forward cache is idle again.
  addEventListener("pageshow", (event) => {
    if (event.persisted) document.querySelectorAll("button[data-pending-label]").forEach(restore);
  });
}

if (document.readyState === "loading") addEventListener("DOMContentLoaded", ready, { once: true });
else ready();
