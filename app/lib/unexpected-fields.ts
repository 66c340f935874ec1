/**
 * The names in a submitted form that its schema does not declare. Actions refuse such a form
 * outright: a posted "amount" or "currency" is someone trying to set what only the server decides.
 */
export function unexpectedFields(formData: FormData, expected: readonly string[]): string[] {
  const known = new Set(expected);
  return [...new Set(formData.keys())].filter((name) => !known.has(name));
}
