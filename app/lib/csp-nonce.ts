import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the response being rendered (server/security-headers.ts).
 * Empty in the browser, which hides nonces from the page once it has checked them.
 */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce() {
  return useContext(NonceContext);
}
