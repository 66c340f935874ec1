import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";

/**
 * React Router behind Express, as `@react-router/express` puts it, with one difference: a client
 * that hangs up does not abort its request. React Router races each loader and action against the
 * request's signal and, on abort, stops waiting while the action itself goes on: the promise
 * returned here then settled before a hung-up booking was saved, and a stopping server closed the
 * database under it (in-flight.ts waits for this promise). Now it settles once the route's work is
 * done, and an answer nobody waits for any more is dropped.
 */
export function routeHandler({
  build,
  mode,
  getLoadContext,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string | undefined;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
}) {
  const handle = createRequestHandler(build, mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> => {
    try {
      const response = await handle(webRequest(req), getLoadContext(req, res));
      await send(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function webRequest(req: ExpressRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, each);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`${req.protocol}://${hostOf(req)}${req.originalUrl}`, {
    method: req.method,
    headers,
    ...(hasBody ? { body: createReadableStreamFromReadable(req), duplex: "half" } : {}),
  });
}

/**
 * The host the client asked for, read as `@react-router/express` reads it: the name Express trusts
 * (the proxy's X-Forwarded-Host when TRUST_PROXY trusts the peer), with the forwarded port, or else
 * the Host header's.
 */
function hostOf(req: ExpressRequest): string {
  const portOf = (host: string | undefined) => Number.parseInt(host?.split(":")[1] ?? "", 10);
  const forwardedPort = req.app.enabled("trust proxy") ? portOf(req.get("X-Forwarded-Host")) : Number.NaN;
  const port = Number.isSafeInteger(forwardedPort) ? forwardedPort : portOf(req.get("host"));
  const name = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  return Number.isSafeInteger(port) ? `${name}:${port}` : name;
}

async function send(res: ExpressResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    // The client went away while the page streamed.
    if (!(res.destroyed || res.writableEnded)) throw error;
  }
}
