import type * as SonnerModule from "sonner";
import type { ExternalToast } from "sonner";

// Sonner is fetched with the first toast, so the many pages that never show one do not load it.

type Sonner = typeof SonnerModule;

let sonner: Promise<Sonner> | undefined;
const loadListeners = new Set<() => void>();
let nextLoadingId = 0;

export function loadSonner(): Promise<Sonner> {
  if (!sonner) {
    sonner = import("sonner");
    for (const listener of loadListeners) listener();
  }
  return sonner;
}

export const sonnerRequested = () => sonner !== undefined;

/** Calls `listener` when the first toast asks for Sonner; returns the unsubscribe function. */
export function onSonnerRequested(listener: () => void): () => void {
  loadListeners.add(listener);
  return () => {
    loadListeners.delete(listener);
  };
}

function show(type: "success" | "error" | "info" | "loading", title: string, options?: ExternalToast) {
  void loadSonner().then(({ toast }) => toast[type](title, options));
}

/** Sonner's `toast`, for the calls this site makes; each call runs once Sonner has loaded, in order. */
export const toast = {
  success: (title: string, options?: ExternalToast) => show("success", title, options),
  error: (title: string, options?: ExternalToast) => show("error", title, options),
  info: (title: string, options?: ExternalToast) => show("info", title, options),
  /** Returns the toast's id at once (for `dismiss`), before Sonner has loaded. */
  loading: (title: string, options?: ExternalToast) => {
    const id = options?.id ?? `loading-${nextLoadingId++}`;
    show("loading", title, { ...options, id });
    return id;
  },
  dismiss: (id: string | number) => void loadSonner().then(({ toast }) => toast.dismiss(id)),
};
