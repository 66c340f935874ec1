import scriptUrl from "./tabs.script.js?url&no-inline";

/**
 * What a Tabs root carries to keep its tab in the URL on a page that is not hydrated (tabs.script.js):
 * the hash names the tab, or a query parameter does. Hydrated, the component does it with React.
 */
export const TABS_IN_URL_HASH = { "data-url-hash": "" } as const;
export const tabsInUrlParam = (name: string) => ({ "data-url-param": name });

/**
 * The small module that makes server-rendered tabs switch on pages that are not hydrated (ADR 013);
 * React hoists it into the head and loads it once. It does nothing where React runs the page.
 */
export function TabsScript() {
  return <script async type="module" src={scriptUrl} />;
}
