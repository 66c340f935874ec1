const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const SUFFIX_LENGTH = 6;

/** A human order number: "FT-" + milliseconds since the epoch + "-" + random uppercase letters. */
export function newOrderNumber(now: Date = new Date()): string {
  const values = crypto.getRandomValues(new Uint32Array(SUFFIX_LENGTH));
  const suffix = Array.from(values, (value) => LETTERS[value % LETTERS.length]).join("");
  return `FT-${now.getTime()}-${suffix}`;
}
