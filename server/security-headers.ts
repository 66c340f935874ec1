import { randomBytes } from "node:crypto";
import type { RequestHandler, Response } from "express";

export interface SecurityHeaderOptions {
  /** Adds Strict-Transport-Security (ignored by browsers on plain http, so harmless locally). */
  production: boolean;
  /** Development reports violations instead of blocking them: Vite's dev client has needs of its own. */
  reportOnly: boolean;
  /** Other origins the pages load from (Stripe.js and its API, in Stripe mode only). */
  thirdParty?: ThirdPartySources;
}

export interface ThirdPartySources {
  script: string[];
  frame: string[];
  connect: string[];
}

/** What Stripe.js needs (ADR 018): its script, its frames (the card field, 3-D Secure) and the API. */
export function stripeSources({ scriptUrl, apiBase }: { scriptUrl: string; apiBase?: string }): ThirdPartySources {
  const scriptOrigin = new URL(scriptUrl).origin;
  const apiOrigin = apiBase ? new URL(apiBase).origin : "https://api.stripe.com";
  // Stripe's own Stripe.js shows the bank's 3-D Secure page in a frame from hooks.stripe.com.
  const hooks = scriptOrigin === "https://js.stripe.com" ? ["https://hooks.stripe.com"] : [];
  return { script: [scriptOrigin], frame: [scriptOrigin, ...hooks], connect: [apiOrigin] };
}

/** The nonce this response's inline scripts must carry; React Router receives it as load context. */
export function cspNonce(res: Response): string {
  return res.locals.cspNonce as string;
}

/**
 * Scripts only from this origin or matching one of `scriptSources` (this response's nonce, or the
 * hashes of a cached page's inline scripts); no 'unsafe-inline', no 'unsafe-eval'. Styles allow
 * inline: the brand colours are a <style> element and Radix sets style attributes, neither of which
 * can run code.
 */
export function contentSecurityPolicy(
  scriptSources: readonly string[],
  { reportOnly, thirdParty }: Pick<SecurityHeaderOptions, "reportOnly" | "thirdParty">,
) {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptSources, ...(thirdParty?.script ?? [])].join(" "),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    ["connect-src 'self'", ...(reportOnly ? ["ws:", "wss:"] : []), ...(thirdParty?.connect ?? [])].join(" "),
    ...(thirdParty ? [["frame-src 'self'", ...thirdParty.frame].join(" ")] : []),
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
}

const PERMISSIONS_POLICY = ["camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"].join(", ");

/** Every security header of a response whose inline scripts `scriptSources` allows. */
export function securityHeaderValues(
  scriptSources: readonly string[],
  options: SecurityHeaderOptions,
): Record<string, string> {
  return {
    [options.reportOnly ? "Content-Security-Policy-Report-Only" : "Content-Security-Policy"]: contentSecurityPolicy(
      scriptSources,
      options,
    ),
    ...(options.production ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
  };
}

/** One middleware, first in line, so that every response (pages, assets, redirects, errors) has these. */
export function securityHeaders(options: SecurityHeaderOptions): RequestHandler {
  return (_req, res, next) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.set(securityHeaderValues([`'nonce-${nonce}'`], options));
    next();
  };
}
