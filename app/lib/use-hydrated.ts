import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while the server renders and the browser hydrates, true afterwards: for widgets that need
 * JavaScript, rendered in place of a plain HTML control that works without it.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
