import { describe, expect, it } from "vitest";
import { serviceHref, serviceTabFromHash } from "./service-tabs";

describe("serviceTabFromHash", () => {
  it("reads each of the six tab ids from a hash", () => {
    for (const id of ["subscription", "fast-track", "ticketline", "ebooks", "concierge", "checkin"]) {
      expect(serviceTabFromHash(`#${id}`)).toBe(id);
    }
  });

  it("ignores an empty or unknown hash", () => {
    for (const hash of ["", "#", "#pricing-section", "#CHECKIN", "#checkin-x", "#toString"]) {
      expect(serviceTabFromHash(hash), hash).toBeUndefined();
    }
  });

  it("links to a tab", () => {
    expect(serviceHref("ticketline")).toBe("/services#ticketline");
  });
});
