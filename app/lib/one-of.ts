/** Whether `value` is one of `values`: narrows a query string or hash to a union of known ids. */
export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === "string" && (values as readonly string[]).includes(value);
}
