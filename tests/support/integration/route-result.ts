/** What a loader or action answered, whether it returned or threw (a redirect, a 4xx), as a browser would see it. */
export interface RouteResult {
  status: number;
  location: string | null;
  headers: Headers;
  data: unknown;
}

interface DataWithInit {
  type: "DataWithResponseInit";
  data: unknown;
  init: ResponseInit | null;
}

function isDataWithInit(value: unknown): value is DataWithInit {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}

export async function routeResult(run: () => unknown): Promise<RouteResult> {
  let value: unknown;
  try {
    value = await run();
  } catch (error) {
    if (!(error instanceof Response) && !isDataWithInit(error)) throw error;
    value = error;
  }
  if (value instanceof Response) {
    const json = value.headers.get("Content-Type")?.includes("json");
    return {
      status: value.status,
      location: value.headers.get("Location"),
      headers: value.headers,
      data: json ? await value.json() : null,
    };
  }
  if (isDataWithInit(value)) {
    return {
      status: value.init?.status ?? 200,
      location: null,
      headers: new Headers(value.init?.headers),
      data: value.data,
    };
  }
  return { status: 200, location: null, headers: new Headers(), data: value };
}

/** The arguments React Router hands a loader or action, for calling one directly. */
export function routeArgs<Args = never>(request: Request, params: Record<string, string> = {}): Args {
  return { request, params, context: {} } as Args;
}
