import scriptUrl from "./pricing-highlight.script.js?url&no-inline";

export const PRICING_SECTION_ID = "pricing-section";
/** How close to the top of the viewport the pricing section must come to highlight the header. */
export const HEADER_HIGHLIGHT_THRESHOLD_PX = 80;

/**
 * What the pricing section carries so that the header highlights itself while the section is at the
 * top of the viewport: the threshold, and the small script that watches it. The script is a plain
 * module (not a React hook) so that the pages that are not hydrated have the highlight too; React
 * hoists it into the head, loads it once, and also on a client-side navigation to such a page.
 */
export const pricingHighlight = {
  attributes: { "data-highlight-header-at": HEADER_HIGHLIGHT_THRESHOLD_PX },
  scriptUrl,
};
