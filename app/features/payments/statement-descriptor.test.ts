import { describe, expect, it } from "vitest";
import { siteConfig } from "../../../site.config";
import { STATEMENT_DESCRIPTOR, toStatementDescriptor } from "./statement-descriptor";

describe("toStatementDescriptor", () => {
  it("keeps Latin letters, digits, spaces and .,- in capitals, accents dropped", () => {
    expect(toStatementDescriptor("Jetlane")).toBe("JETLANE");
    expect(toStatementDescriptor("Café Élan & Co*")).toBe("CAFE ELAN CO");
    expect(toStatementDescriptor(`Sky "Lane" <Travel>`)).toBe("SKY LANE TRAVEL");
    expect(toStatementDescriptor("Jetlane Travel Services B.V.")).toBe("JETLANE TRAVEL SERVICE");
  });

  it("is at most 22 characters, never ending in a space", () => {
    expect(toStatementDescriptor("Fast Track Membership Club")).toBe("FAST TRACK MEMBERSHIP");
    for (const name of ["A".repeat(40), "Über Reisen Gesellschaft mbH", "x y z ".repeat(10)]) {
      const descriptor = toStatementDescriptor(name)!;
      expect(descriptor.length).toBeLessThanOrEqual(22);
      expect(descriptor).toBe(descriptor.trim());
    }
  });

  it("has nothing for a name too short, without a letter, or in another script", () => {
    expect(toStatementDescriptor("Jet")).toBeNull();
    expect(toStatementDescriptor("12345 678")).toBeNull();
    expect(toStatementDescriptor("東京トラベル")).toBeNull();
  });

  it("is the brand for this site's configuration", () => {
    expect(STATEMENT_DESCRIPTOR).toBe(toStatementDescriptor(siteConfig.company.name));
  });
});
