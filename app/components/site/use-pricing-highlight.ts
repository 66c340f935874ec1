import { useEffect, useState } from "react";

export const PRICING_SECTION_ID = "pricing-section";
/** How close to the top of the viewport the pricing section must come to highlight the header. */
export const HEADER_HIGHLIGHT_THRESHOLD_PX = 80;

/** True while the page's pricing section has reached the top of the viewport. */
export function usePricingHighlight() {
  const [highlighted, setHighlighted] = useState(false);
  useEffect(() => {
    const update = () => {
      const section = document.getElementById(PRICING_SECTION_ID);
      setHighlighted(section ? section.getBoundingClientRect().top <= HEADER_HIGHLIGHT_THRESHOLD_PX : false);
    };
    update();
    window.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    return () => {
      window.removeEventListener("scroll", update);
      window.removeEventListener("resize", update);
    };
  }, []);
  return highlighted;
}
