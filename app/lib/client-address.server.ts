/**
 * The client's address as the server determined it (the socket's, or X-Forwarded-For's when
 * TRUST_PROXY says so). The server overwrites whatever a request sends under this name, so only
 * its own value reaches the rate limiter.
 */
export const CLIENT_ADDRESS_HEADER = "x-client-address";
