/**
 * The request handlers still running. A handler goes on after its client has gone (the socket is
 * closed, the work is not), so shutdown waits for these, not only for the connections, before it
 * closes the database under them.
 */
export function inFlightWork() {
  const running = new Set<Promise<unknown>>();
  return {
    track(work: Promise<unknown>) {
      running.add(work);
      void work.finally(() => running.delete(work)).catch(() => {});
    },
    /**
     * Resolves once every tracked handler has settled, those that work still being tracked hands on
     * to included (a request leaving the rate limit for its route), or after `timeoutMs`.
     */
    async settled(timeoutMs: number) {
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))).then(
        () => (timedOut = true),
      );
      while (running.size > 0 && !timedOut) await Promise.race([Promise.allSettled([...running]), timeout]);
      clearTimeout(timer);
    },
  };
}
