export const ADULTS_RANGE = { min: 1, max: 10 } as const;
export const CHILDREN_RANGE = { min: 0, max: 10 } as const;

export interface Passengers {
  adults: number;
  children: number;
}

/** "2 adults, 1 child"; children only when there are some. */
export function describePassengers({ adults, children }: Passengers, separator = ", "): string {
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const parts = [plural(adults, "adult", "adults")];
  if (children > 0) parts.push(plural(children, "child", "children"));
  return parts.join(separator);
}

/** "2 adultes, 1 enfant", for the back office; children only when there are some. */
export function describePassengersFr({ adults, children }: Passengers): string {
  const plural = (count: number, word: string) => `${count} ${word}${count > 1 ? "s" : ""}`;
  const parts = [plural(adults, "adulte")];
  if (children > 0) parts.push(plural(children, "enfant"));
  return parts.join(", ");
}
