import { useEffect } from "react";
import { toast as showToast } from "~/components/ui/toast";
import type { Toast } from "~/lib/toast";

/** Shows `toast` (from a loader, an action or a redirect's cookie) once it arrives. */
export function useToastOnArrival(toast: Toast | null | undefined) {
  useEffect(() => {
    if (!toast) return;
    const show = { success: showToast.success, error: showToast.error, info: showToast.info }[toast.type];
    show(toast.title, { description: toast.description });
  }, [toast]);
}

/** Without JavaScript there are no toasts, so the message is printed on the page instead. */
export function NoScriptToast({ toast, className }: { toast: Toast | null | undefined; className?: string }) {
  if (!toast) return null;
  return (
    <noscript>
      <div role="status" className={className ?? "mx-auto mt-4 max-w-3xl rounded-md border bg-muted px-4 py-3 text-sm"}>
        <strong>{toast.title}</strong>
        {toast.description ? ` ${toast.description}` : null}
      </div>
    </noscript>
  );
}
