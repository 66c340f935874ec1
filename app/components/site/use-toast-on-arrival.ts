import { useEffect } from "react";
import { toast as showToast } from "sonner";
import type { Toast } from "~/lib/toast";

/** Shows a toast handed over by a loader (after a redirect) or returned by an action. */
export function useToastOnArrival(toast: Toast | null | undefined) {
  useEffect(() => {
    if (!toast) return;
    const show = { success: showToast.success, error: showToast.error, info: showToast.info }[toast.type];
    show(toast.title, { description: toast.description });
  }, [toast]);
}
