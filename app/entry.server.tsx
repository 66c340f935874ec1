import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import {
  isRouteErrorResponse,
  ServerRouter,
  type AppLoadContext,
  type EntryContext,
  type HandleErrorFunction,
} from "react-router";
import { isDatabaseUnavailable } from "./db/connection-errors";
import { currentRequestId } from "~/platform/observability/request-id.server";
import { RequestIdProvider } from "~/platform/observability/ui/request-reference";
import { NonceProvider } from "./lib/csp-nonce";
import { logger } from "./logger.server";

declare module "react-router" {
  interface AppLoadContext {
    /** This response's Content-Security-Policy nonce, from the Express server. */
    cspNonce?: string;
  }
}

export const streamTimeout = 5_000;

/**
 * What React Router caught: a loader, an action or the rendering threw. Logged as the request's own
 * line, so that the reference on the error page finds it.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  // React Router's own refusals (a POST to a page without an action: 405) are the client's doing.
  if (isRouteErrorResponse(error) && error.status < 500) {
    logger.info(
      { status: error.status, method: request.method, path: new URL(request.url).pathname },
      "request refused",
    );
    return;
  }
  // A thrown Response that wraps an error (React Router's own 4xx/5xx) is logged by that error.
  const cause = isRouteErrorResponse(error) && "error" in error && error.error ? error.error : error;
  logger.error({ err: cause, method: request.method, path: new URL(request.url).pathname }, "request failed");
};

/**
 * React Router's default Node entry, plus the Content-Security-Policy nonce on every script React
 * and React Router write into the page, and the request's id for the error page.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (responseStatusCode === 500 && databaseWasUnavailable(routerContext)) {
    // The database dropped or refused the connection: a moment's outage, worth trying again.
    responseStatusCode = 503;
    responseHeaders.set("Retry-After", "5");
  }
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.cspNonce ?? "";

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole page at once.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RequestIdProvider value={currentRequestId() ?? ""}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </RequestIdProvider>
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell are logged by React Router; later ones only reach us.
          if (shellRendered) logger.error({ err: error }, "page rendering failed");
        },
      },
    );
  });
}

function databaseWasUnavailable({ staticHandlerContext }: EntryContext): boolean {
  return Object.values(staticHandlerContext.errors ?? {}).some(isDatabaseUnavailable);
}
