// Sets the site header's data-highlighted to "true" while the page's pricing section (the element
// with data-highlight-header-at) is within that many pixels of the top of the viewport, else "false".
// Loaded by the pricing section (pricing-highlight.ts); runs on hydrated and plain pages alike.

function update() {
  const header = document.querySelector("header[data-highlighted]");
  if (!(header instanceof HTMLElement)) return;
  const section = document.querySelector("[data-highlight-header-at]");
  const threshold = section instanceof HTMLElement ? Number(section.dataset.highlightHeaderAt) : NaN;
  const highlighted = section ? section.getBoundingClientRect().top <= threshold : false;
  header.dataset.highlighted = String(highlighted);
}

update();
addEventListener("scroll", update, { passive: true });
addEventListener("resize", update);
