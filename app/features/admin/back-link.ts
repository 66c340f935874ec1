/** The back-office lists whose records have a page of their own, with the name their back link gives them. */
const LISTS: Record<string, string> = {
  "/admin/orders": "Commandes",
  "/admin/clients": "Clients",
  "/admin/memberships": "Abonnements",
  "/admin/data-requests": "Demandes RGPD",
};

/** Where a back-office page's back link goes: a record's page to its list, any other page to the dashboard. */
export function backLinkOf(pathname: string): { to: string; label: string } {
  const parent = pathname.replace(/\/+$/, "").replace(/\/[^/]*$/, "");
  const list = LISTS[parent];
  return list ? { to: parent, label: list } : { to: "/admin", label: "Tableau de bord" };
}
