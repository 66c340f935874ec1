import { describe, expect, it } from "vitest";
import { backLinkOf } from "./back-link";

describe("backLinkOf", () => {
  it("leads a list back to the dashboard", () => {
    expect(backLinkOf("/admin/orders")).toEqual({ to: "/admin", label: "Tableau de bord" });
    expect(backLinkOf("/admin/statistics")).toEqual({ to: "/admin", label: "Tableau de bord" });
    expect(backLinkOf("/admin/messages/")).toEqual({ to: "/admin", label: "Tableau de bord" });
  });

  it("leads a record back to its list, whether it exists or not", () => {
    const id = "00000000-0000-4000-8000-000000000000";
    expect(backLinkOf(`/admin/orders/${id}`)).toEqual({ to: "/admin/orders", label: "Commandes" });
    expect(backLinkOf(`/admin/clients/${id}`)).toEqual({ to: "/admin/clients", label: "Clients" });
    expect(backLinkOf(`/admin/memberships/${id}`)).toEqual({ to: "/admin/memberships", label: "Abonnements" });
    expect(backLinkOf(`/admin/data-requests/${id}`)).toEqual({ to: "/admin/data-requests", label: "Demandes RGPD" });
  });

  it("leads the lists of failed work back to the system page, and that page to the dashboard", () => {
    expect(backLinkOf("/admin/system/failed-emails")).toEqual({ to: "/admin/system", label: "Système" });
    expect(backLinkOf("/admin/system/failed-events")).toEqual({ to: "/admin/system", label: "Système" });
    expect(backLinkOf("/admin/system")).toEqual({ to: "/admin", label: "Tableau de bord" });
  });
});
