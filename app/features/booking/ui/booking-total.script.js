// On a page that React does not run (ADR 013), keeps the booking summary in step with the passenger
// counts: each count's row repeats the chosen option ("2 x $11") and the total adds up the counts
// times their unit prices. Loaded by BookingForm; the data attributes are set there.

// The same rule as formatPrice in lib/currency.ts: decimals only when needed.
function formatMinorUnits(minorUnits, symbol) {
  const major = minorUnits / 100;
  return `${symbol}${major.toFixed(Number.isInteger(major) ? 0 : 2)}`;
}

function update(form) {
  const total = form.querySelector("[data-booking-total]");
  if (!(total instanceof HTMLElement)) return;
  // A member's free accesses cover the dearest passengers first, as the server prices them.
  let free = Number(total.dataset.freeAccesses ?? 0);
  let minorUnits = 0;
  const selects = [...form.querySelectorAll("select[data-unit-price]")];
  selects.sort((a, b) => Number(b.dataset.unitPrice) - Number(a.dataset.unitPrice));
  for (const select of selects) {
    const count = Number(select.value);
    const covered = Math.min(count, free);
    free -= covered;
    minorUnits += (count - covered) * Number(select.dataset.unitPrice);
    const row = form.querySelector(`[data-passengers-row="${select.name}"]`);
    if (row) row.textContent = select.selectedOptions[0]?.textContent ?? "";
  }
  total.textContent = formatMinorUnits(minorUnits, total.dataset.currencySymbol);
}

function ready() {
  // React Router's <Scripts /> sets this on hydrated pages, where React keeps the summary itself.
  // It is an inline script at the end of <body>, which this async module can run before.
  if ("__reactRouterContext" in window) return;
  const forms = () => document.querySelectorAll("form:has([data-booking-total])");
  // A reload or a return to the page may bring back the counts chosen before.
  forms().forEach(update);
  addEventListener("change", (event) => {
    if (event.target instanceof HTMLSelectElement && event.target.form?.querySelector("[data-booking-total]")) {
      update(event.target.form);
    }
  });
  addEventListener("pageshow", () => forms().forEach(update));
}

if (document.readyState === "loading") addEventListener("DOMContentLoaded", ready, { once: true });
else ready();
