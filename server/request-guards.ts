import type { Request, RequestHandler, Response } from "express";

/** Methods that may change something; GET and HEAD never do here. */
const STATE_CHANGING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Bodies larger than this are refused before anything reads them: forms are a few kilobytes. */
export const BODY_LIMITS = {
  /** The config generator's API takes every wording of a site at once. */
  json: 256 * 1024,
  other: 64 * 1024,
} as const;

export const FOREIGN_ORIGIN_MESSAGE =
  "This form was sent from another website, so we did not accept it. Please use the form on our own site.";
export const BODY_TOO_LARGE_MESSAGE = "What you sent is too large for us to accept. Please shorten it and try again.";
export const LENGTH_REQUIRED_MESSAGE = "Please send the length of what you send (a Content-Length header).";

/** What the site answers: its pages (GET, HEAD) and its forms and webhooks (POST). */
export const SERVED_METHODS = ["GET", "HEAD", "POST"];
/** Methods HTTP defines for resources that no route here takes: 405, naming the ones that work. */
const REFUSED_METHODS = new Set(["PUT", "PATCH", "DELETE", "OPTIONS"]);
export const METHOD_NOT_ALLOWED_MESSAGE = "This address does not take that kind of request.";
export const METHOD_NOT_IMPLEMENTED_MESSAGE = "This site does not know that kind of request.";

/**
 * Refuses a method the site never serves before React Router sees it: a PUT or DELETE gets 405 with
 * `Allow`, any other method (TRACE, CONNECT, WebDAV's) 501. React Router answered the first with a 405
 * and an error logged with its stack each time, and TRACE with a 500 (a Request cannot carry it).
 */
export const servedMethodsOnly: RequestHandler = (req, res, next) => {
  if (SERVED_METHODS.includes(req.method)) return next();
  res.setHeader("Allow", SERVED_METHODS.join(", "));
  if (REFUSED_METHODS.has(req.method)) refuse(req, res, 405, METHOD_NOT_ALLOWED_MESSAGE);
  else refuse(req, res, 501, METHOD_NOT_IMPLEMENTED_MESSAGE);
};

/** A short answer a person can read, as a page to browsers and as plain text to other clients. */
export function refuse(req: Request, res: Response, status: number, message: string) {
  res.status(status);
  if (req.accepts(["text/plain", "text/html"]) === "text/html") {
    res.type("html").send(refusalPage(message));
  } else {
    res.type("text").send(message);
  }
}

/**
 * Bodies up to this are read and thrown away before a refusal is sent: answering while the sender
 * is still sending resets the connection, and it would see that instead of the message.
 */
const DISCARDED_AT_MOST = 16 * 1024 * 1024;

/** `refuse`, once the request's body (if not enormous) has been received and discarded. */
function refuseAfterBody(req: Request, res: Response, status: number, message: string) {
  if (Number(req.get("content-length") ?? 0) > DISCARDED_AT_MOST) {
    res.setHeader("Connection", "close");
    return refuse(req, res, status, message);
  }
  req.on("end", () => refuse(req, res, status, message));
  req.resume();
}

function refusalPage(message: string) {
  const escaped = message.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Request refused</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5"><h1>We could not accept this request</h1><p>${escaped}</p><p><a href="/">Return to Home</a></p></body></html>`;
}

/**
 * Cross-site request forgery guard: a state-changing request that names an origin (browsers always
 * send Origin on POST, else we read Referer) must come from this site: the host it was sent to, or
 * SITE_URL's origin. Requests naming neither come from scripts, not from a visitor's browser, and a
 * script can claim any origin anyway.
 */
export function sameOriginRequests(siteUrl: string | undefined): RequestHandler {
  const siteOrigin = siteUrl ? new URL(siteUrl).origin : undefined;
  return (req, res, next) => {
    if (!STATE_CHANGING_METHODS.has(req.method)) return next();
    const claimed = claimedOrigin(req);
    if (claimed === undefined || claimed === siteOrigin || hostOf(claimed) === req.get("host")) return next();
    refuseAfterBody(req, res, 403, FOREIGN_ORIGIN_MESSAGE);
  };
}

function claimedOrigin(req: Request): string | undefined {
  const origin = req.get("origin") ?? req.get("referer");
  if (!origin) return undefined;
  // "null" (sandboxed frames, some redirects) and malformed values never match.
  return URL.canParse(origin) ? new URL(origin).origin : origin;
}

function hostOf(origin: string) {
  return URL.canParse(origin) ? new URL(origin).host : undefined;
}

/**
 * Refuses bodies over BODY_LIMITS (413) by their declared length, and bodies without one (411):
 * browsers always declare it, and a declared length is what Node holds the sender to.
 */
export const bodySizeLimit: RequestHandler = (req, res, next) => {
  if (!STATE_CHANGING_METHODS.has(req.method)) return next();
  const declared = req.get("content-length");
  if (declared === undefined) {
    if (req.get("transfer-encoding") === undefined) return next();
    return refuse(req, res, 411, LENGTH_REQUIRED_MESSAGE);
  }
  const limit = req.is("application/json") ? BODY_LIMITS.json : BODY_LIMITS.other;
  if (Number(declared) > limit) return refuseAfterBody(req, res, 413, BODY_TOO_LARGE_MESSAGE);
  next();
};
