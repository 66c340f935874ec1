import type { Toast } from "~/lib/toast";

/** What a back-office page whose figures could not be loaded shows: this toast, and the alert below. */
export const LOAD_FAILED: Toast = { type: "error", title: "Erreur lors du chargement des données" };

export function LoadFailedAlert() {
  return (
    <p role="alert" className="rounded-md border border-destructive/40 px-4 py-3 text-sm text-destructive">
      {LOAD_FAILED.title}
    </p>
  );
}
