import { describe, expect, it } from "vitest";
import { serviceCards, serviceTabs } from "./service-catalog";
import { SERVICE_TAB_IDS } from "./service-tabs";
import { siteConfig } from "../../../site.config";

describe("serviceCards", () => {
  it("presents the six configured services, each leading to a services tab", () => {
    const { services } = siteConfig.content;
    expect(serviceCards().map((card) => [card.title, card.tab])).toEqual([
      [services.fastTrack.title, "fast-track"],
      [services.checkIn.title, "checkin"],
      [services.lounges.title, "subscription"],
      [services.museums.title, "ticketline"],
      [services.ebooks.title, "ebooks"],
      [services.concierge.title, "concierge"],
    ]);
  });
});

describe("serviceTabs", () => {
  const tabs = serviceTabs((amount) => `€${amount}`);

  it("has one tab per id, in order, with 'Attractions' for the ticketline", () => {
    expect(tabs.map((tab) => tab.id)).toEqual([...SERVICE_TAB_IDS]);
    expect(tabs.find((tab) => tab.id === "ticketline")?.label).toBe("Attractions");
  });

  it("quotes prices in the visitor's currency", () => {
    expect(tabs[0]!.intro).toContain("from €49");
    expect(tabs[1]!.highlights.join(" ")).toContain("from €5");
  });
});
