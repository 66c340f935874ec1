import type { IncomingMessage, ServerResponse } from "node:http";
import { createHash } from "node:crypto";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { DEFAULT_CURRENCY, isCurrencyCode } from "~/lib/currency";
import { cspNonce } from "./security-headers";

/**
 * Anonymous visitors of the public pages all get the same HTML for a given page, currency and
 * origin, so it is rendered once per process and served from memory: a deploy (a new process)
 * starts with an empty cache. Anyone carrying another cookie than `currency` (a session, a toast,
 * anything unknown), any query string and any method but GET goes to the renderer, and a response
 * that sets a cookie, is not a 200 HTML page or says no-store/private is never kept. Hits are
 * answered before Express sees the request (`serve`); misses are rendered and kept by `middleware`.
 */

const VISITOR_COOKIES = new Set(["currency"]);
const UNCACHEABLE = /\b(no-store|private)\b/i;
const STRIPPED_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding", "connection"]);

/**
 * One encoding of a cached page, its headers as the flat name/value list `writeHead` takes: built
 * once, so that a hit only hands node the bytes.
 */
interface Encoded {
  hit: string[];
  miss: string[];
  body: Buffer;
}

interface CachedPage {
  identity: Encoded;
  gzip: Encoded;
  brotli: Encoded;
}

export interface PageCacheOptions {
  /** Pages whose HTML depends on nothing of the request but the root loader's currency and origin. */
  paths: readonly string[];
  /** Renders a request the way the site's request handler would, its inline scripts carrying `cspNonce`. */
  render(request: Request, cspNonce: string): Promise<Response>;
  /**
   * The security headers of a cached page. Its body is shared, so a per-response nonce cannot be
   * in it: the Content-Security-Policy lists the hashes of its inline scripts instead.
   */
  securityHeaders(inlineScriptHashes: string[]): Record<string, string>;
  /** The cache stops growing here (the Host header is the visitor's to choose). */
  maxEntries?: number;
}

/**
 * The `currency` cookie's value; null when the header names any other cookie, undefined when it
 * names none.
 */
function visitorCurrency(header: string): string | null | undefined {
  let currency: string | undefined;
  for (const part of header.split(";")) {
    const [name = "", value = ""] = part.split("=", 2).map((piece) => piece.trim());
    if (!name) continue;
    if (!VISITOR_COOKIES.has(name)) return null;
    currency = value;
  }
  return currency;
}

/**
 * The cache key of an anonymous page view, or null when the request must be rendered for itself.
 * Read from the raw request so that hits skip Express; the key holds everything of the request the
 * rendering reads (the origin for canonical links, the currency), so a key never meets another page.
 */
export function anonymousPageKey(req: IncomingMessage, paths: ReadonlySet<string>): string | null {
  if (req.method !== "GET" || !req.url || req.url.includes("?") || !paths.has(req.url)) return null;
  const { headers } = req;
  // Most first visits carry no cookie at all: nothing to read then.
  const currency = headers.cookie ? visitorCurrency(headers.cookie) : undefined;
  if (currency === null) return null;
  const code = isCurrencyCode(currency) ? currency : DEFAULT_CURRENCY;
  const scheme = "encrypted" in req.socket && req.socket.encrypted === true ? "https" : "http";
  return `${scheme} ${headers["x-forwarded-proto"] ?? ""} ${headers["x-forwarded-host"] ?? ""} ${headers.host ?? ""} ${req.url} ${code}`;
}

function webRequest(req: ExpressRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return new Request(`${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`, { headers });
}

function storable(response: Response): boolean {
  return (
    response.status === 200 &&
    response.headers.getSetCookie().length === 0 &&
    (response.headers.get("content-type") ?? "").startsWith("text/html") &&
    !UNCACHEABLE.test(response.headers.get("cache-control") ?? "")
  );
}

const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** The CSP sources ('sha256-…') of the inline scripts of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)]
    .filter((match) => match[1])
    .map((match) => `'sha256-${createHash("sha256").update(match[1]!).digest("base64")}'`);
}

async function toCachedPage(
  response: Response,
  securityHeaders: PageCacheOptions["securityHeaders"],
): Promise<CachedPage> {
  const identity = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = { Vary: "Accept-Encoding, Cookie" };
  for (const [name, value] of response.headers) {
    if (!STRIPPED_HEADERS.has(name)) headers[name] = value;
  }
  Object.assign(headers, securityHeaders(inlineScriptHashes(identity.toString("utf8"))));
  const encoded = (body: Buffer, encoding?: string): Encoded => {
    const describing = Object.entries({
      ...headers,
      ...(encoding ? { "Content-Encoding": encoding } : {}),
      "Content-Length": String(body.length),
    }).flat();
    return { hit: ["X-Page-Cache", "hit", ...describing], miss: ["X-Page-Cache", "miss", ...describing], body };
  };
  return {
    identity: encoded(identity),
    gzip: encoded(gzipSync(identity), "gzip"),
    brotli: encoded(brotliCompressSync(identity), "br"),
  };
}

export type PageEncoding = "br" | "gzip" | "identity";

/** Clients send few distinct Accept-Encoding values; each is read once (up to this many). */
const MAX_REMEMBERED_ACCEPTS = 64;
const chosenEncodings = new Map<string, PageEncoding>();

/** The encoding a cached page is sent in: brotli if accepted, else gzip, else none. */
export function preferredEncoding(accepted: string | undefined): PageEncoding {
  if (!accepted) return "identity";
  let encoding = chosenEncodings.get(accepted);
  if (encoding) return encoding;
  encoding = /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : "identity";
  if (chosenEncodings.size < MAX_REMEMBERED_ACCEPTS) chosenEncodings.set(accepted, encoding);
  return encoding;
}

function sendCached(
  req: IncomingMessage,
  res: ServerResponse,
  page: CachedPage,
  state: "hit" | "miss",
  ownHeaders: readonly string[] = [],
) {
  const encoding = preferredEncoding(req.headers["accept-encoding"]);
  const chosen = encoding === "br" ? page.brotli : encoding === "gzip" ? page.gzip : page.identity;
  res.writeHead(200, ownHeaders.length > 0 ? [...chosen[state], ...ownHeaders] : chosen[state]);
  res.end(chosen.body);
}

async function sendUncached(res: ExpressResponse, response: Response) {
  res.status(response.status);
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
  res.end(Buffer.from(await response.arrayBuffer()));
}

export interface PageCache {
  /**
   * Answers a cached page view and returns true, or returns false for the site to handle.
   * `ownHeaders` (a flat name/value list) are this response's alone, such as its request id.
   */
  serve(req: IncomingMessage, res: ServerResponse, ownHeaders?: readonly string[]): boolean;
  /** Renders the page views `serve` passed on, keeping those that may be shared. */
  middleware: RequestHandler;
}

/** Anonymous public page views served from memory (see the module comment). */
export function createPageCache({ paths, render, securityHeaders, maxEntries = 256 }: PageCacheOptions): PageCache {
  const cacheable = new Set(paths);
  const pages = new Map<string, CachedPage>();
  // Concurrent first views of a page wait for one rendering instead of each starting their own.
  const rendering = new Map<string, Promise<CachedPage | null>>();

  /** Renders for this visitor, keeping the page when it may be shared; null when it may not. */
  const renderAndKeep = async (key: string, req: ExpressRequest, res: ExpressResponse) => {
    const response = await render(webRequest(req), cspNonce(res));
    if (!storable(response)) {
      await sendUncached(res, response);
      return null;
    }
    const page = await toCachedPage(response, securityHeaders);
    if (pages.size < maxEntries) pages.set(key, page);
    sendCached(req, res, page, "miss");
    return page;
  };

  const serve = (req: IncomingMessage, res: ServerResponse, ownHeaders?: readonly string[]) => {
    const key = anonymousPageKey(req, cacheable);
    const page = key ? pages.get(key) : undefined;
    if (!page) return false;
    sendCached(req, res, page, "hit", ownHeaders);
    return true;
  };

  const middleware: RequestHandler = (req, res, next) => {
    const key = anonymousPageKey(req, cacheable);
    if (!key) return next();
    const page = pages.get(key);
    if (page) return sendCached(req, res, page, "hit");
    const pending = rendering.get(key);
    if (pending) {
      // A page that may not be shared is rendered again for each of its waiters.
      pending.then((shared) => (shared ? sendCached(req, res, shared, "hit") : next())).catch(next);
      return;
    }
    const own = renderAndKeep(key, req, res);
    rendering.set(key, own);
    own.finally(() => rendering.delete(key)).catch(next);
  };

  return { serve, middleware };
}
