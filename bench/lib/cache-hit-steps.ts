/**
 * The paths of bench/lib/cache-hit-server.ts, each a cached page answered with one more of a hit's
 * pieces than the path before; the last is the hit as the server answers it now.
 */
export const HIT_STEPS = ["/node-http", "/serve", "/request-id", "/async-context", "/finish-timer", "/hit-series"];
