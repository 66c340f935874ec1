import { useEffect, useState, useSyncExternalStore, type RefObject } from "react";
import { useLocation } from "react-router";
import { DEFAULT_SERVICE_TAB, serviceTabFromHash, type ServiceTabId } from "~/features/services/service-tabs";

const noSubscription = () => () => {};

/** False on the server and while hydrating, true afterwards: the URL hash never reaches the server. */
function useHydrated() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * The open /services tab: the one the URL hash names (on arrival, and whenever a link such as the
 * footer's /services#checkin changes the hash), until the visitor picks another. When the hash
 * chooses the tab, `tabsElement` is scrolled into view so the visitor sees what they asked for.
 * Only where React runs the page (reached by a client-side navigation); on the page as first sent,
 * which is not hydrated, tabs.script.js does this from the Tabs root's data-url-hash.
 */
export function useServiceTab(tabsElement: RefObject<HTMLElement | null>) {
  const location = useLocation();
  const hashTab = useHydrated() ? serviceTabFromHash(location.hash) : undefined;
  const [picked, setPicked] = useState<{ tab: ServiceTabId; locationKey: string } | null>(null);
  const tab = picked?.locationKey === location.key ? picked.tab : (hashTab ?? DEFAULT_SERVICE_TAB);

  useEffect(() => {
    if (hashTab) tabsElement.current?.scrollIntoView({ block: "start" });
  }, [hashTab, location.key, tabsElement]);

  const pick = (value: string) => {
    const next = serviceTabFromHash(value);
    if (next) setPicked({ tab: next, locationKey: location.key });
  };
  return [tab, pick] as const;
}
