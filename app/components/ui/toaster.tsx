import { lazy, Suspense, useSyncExternalStore } from "react";
import { loadSonner, onSonnerRequested, sonnerRequested } from "./toast";

const SonnerToaster = lazy(() => loadSonner().then(() => import("./sonner-toaster")));

/** Mounts Sonner's toaster once the first toast is shown (see toast.ts); nothing before. */
function Toaster() {
  const wanted = useSyncExternalStore(onSonnerRequested, sonnerRequested, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster />
    </Suspense>
  );
}

export { Toaster };
