import { isOneOf } from "~/lib/one-of";

/** The tabs of /services, in order; their ids are the URL hashes that preselect them. */
export const SERVICE_TAB_IDS = ["subscription", "fast-track", "ticketline", "ebooks", "concierge", "checkin"] as const;
export type ServiceTabId = (typeof SERVICE_TAB_IDS)[number];

export const DEFAULT_SERVICE_TAB: ServiceTabId = "subscription";

/** The tab a URL hash ("#checkin") names, or undefined when it names none. */
export function serviceTabFromHash(hash: string): ServiceTabId | undefined {
  const id = hash.startsWith("#") ? hash.slice(1) : hash;
  return isOneOf(SERVICE_TAB_IDS, id) ? id : undefined;
}

export function serviceHref(tab: ServiceTabId): string {
  return `/services#${tab}`;
}
