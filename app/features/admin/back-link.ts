/**
 * The back-office pages with pages below them (a list and its records, the system page and its lists
 * of failed work), with the name their back link gives them.
 */
const LISTS: Record<string, string> = {
  "/admin/orders": "Commandes",
  "/admin/clients": "Clients",
  "/admin/memberships": "Abonnements",
  "/admin/data-requests": "Demandes RGPD",
  "/admin/system": "Système",
  "/admin/emails": "E-mails",
};

/** Where a back-office page's back link goes: a page below another to that one, any other page to the dashboard. */
export function backLinkOf(pathname: string): { to: string; label: string } {
  const parent = pathname.replace(/\/+$/, "").replace(/\/[^/]*$/, "");
  const list = LISTS[parent];
  return list ? { to: parent, label: list } : { to: "/admin", label: "Tableau de bord" };
}
