/** A value of a form-encoded Stripe request: `a[b][0]=x` nests as `{ a: { b: ["x"] } }`. */
export type FormValue = string | FormValue[] | FormParams;
export interface FormParams {
  [key: string]: FormValue;
}

const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Reads `application/x-www-form-urlencoded` text (a body or a query string) in the bracket notation
 * stripe-node and Stripe.js write: `metadata[orderId]=x`, `items[0][price]=p`, `lookup_keys[]=k`.
 * Objects whose keys are all indexes become arrays, in index order.
 */
export function parseFormBody(text: string): FormParams {
  const root: FormParams = {};
  for (const pair of text.split("&")) {
    if (!pair) continue;
    const separator = pair.indexOf("=");
    const rawKey = separator === -1 ? pair : pair.slice(0, separator);
    const rawValue = separator === -1 ? "" : pair.slice(separator + 1);
    const key = decodeURIComponent(rawKey.replace(/\+/g, " "));
    const value = decodeURIComponent(rawValue.replace(/\+/g, " "));
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) continue;
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((segment) => segment[1]!)];
    if (path.some((segment) => UNSAFE_KEYS.has(segment))) continue;
    let node = root;
    path.forEach((segment, index) => {
      const name = segment === "" ? String(Object.keys(node).length) : segment;
      if (index === path.length - 1) {
        node[name] = value;
        return;
      }
      const next = node[name];
      if (typeof next !== "object" || Array.isArray(next)) node[name] = {};
      node = node[name] as FormParams;
    });
  }
  return toArrays(root) as FormParams;
}

function toArrays(value: FormValue): FormValue {
  if (typeof value === "string" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((key) => [key, toArrays(value[key]!)]));
  if (keys.length === 0 || !keys.every((key) => /^\d+$/.test(key))) return converted;
  return keys.sort((a, b) => Number(a) - Number(b)).map((key) => converted[key]!);
}

/** What Stripe answers under `error`; card errors also name the payment intent and method. */
export interface StripeErrorBody {
  type: "invalid_request_error" | "card_error" | "api_error" | "idempotency_error";
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  [more: string]: unknown;
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

export function invalidRequest(message: string, param?: string, code?: string) {
  return new StripeApiError(400, {
    type: "invalid_request_error",
    message,
    ...(code && { code }),
    ...(param && { param }),
  });
}

export function readText(params: FormParams, key: string, param = key): string | undefined {
  const value = params[key];
  if (value === undefined || typeof value === "string") return value;
  throw invalidRequest(`Invalid string: ${JSON.stringify(value)}`, param);
}

export function readInteger(params: FormParams, key: string, param = key): number | undefined {
  const value = readText(params, key, param);
  if (value === undefined || value === "") return undefined;
  if (!/^-?\d+$/.test(value)) throw invalidRequest(`Invalid integer: ${value}`, param, "parameter_invalid_integer");
  return Number(value);
}

export function readBoolean(params: FormParams, key: string, param = key): boolean | undefined {
  const value = readText(params, key, param);
  if (value === undefined || value === "") return undefined;
  if (value !== "true" && value !== "false") throw invalidRequest(`Invalid boolean: ${value}`, param);
  return value === "true";
}

export function readObject(params: FormParams, key: string): FormParams | undefined {
  const value = params[key];
  if (value === undefined || value === "") return undefined;
  if (typeof value === "object" && !Array.isArray(value)) return value;
  throw invalidRequest(`Invalid object`, key);
}

export function readStrings(params: FormParams, key: string): string[] {
  const value = params[key];
  if (value === undefined || value === "") return [];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
  throw invalidRequest(`Invalid array`, key);
}

export function required<T>(value: T | undefined, param: string): T {
  if (value === undefined || value === "")
    throw invalidRequest(`Missing required param: ${param}.`, param, "parameter_missing");
  return value;
}

/** Metadata after an update: keys merge, an empty value deletes its key, `metadata=""` clears all. */
export function readMetadata(params: FormParams, current: Record<string, string> = {}): Record<string, string> {
  const value = params.metadata;
  if (value === undefined) return current;
  if (value === "") return {};
  const updated = { ...current };
  for (const [key, item] of Object.entries(readObject(params, "metadata") ?? {})) {
    if (typeof item !== "string") throw invalidRequest(`Invalid metadata[${key}]`, `metadata[${key}]`);
    if (item === "") delete updated[key];
    else updated[key] = item;
  }
  return updated;
}
