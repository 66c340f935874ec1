import type { ServerResponse } from "node:http";

/**
 * Runs `hook` each time `method` is called on `res`, just before it. Node tells when a response has
 * finished, not when its headers are about to leave (`writeHead`) or when its end was asked for
 * (`end`, also on a connection already closed): the server's two needs of that kind go through here.
 */
export function runBefore(res: ServerResponse, method: "writeHead" | "end", hook: (res: ServerResponse) => void): void {
  const target = res as unknown as Record<typeof method, (...args: unknown[]) => unknown>;
  const original = target[method];
  target[method] = function (this: ServerResponse, ...args: unknown[]) {
    hook(this);
    return original.apply(this, args);
  };
}
