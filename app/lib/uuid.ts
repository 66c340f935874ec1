import { z } from "~/lib/zod";

const uuid = z.uuid();

/** Whether `value` can be a row's id (a uuid): anything else names no row, without asking the database. */
export function isUuid(value: string): boolean {
  return uuid.safeParse(value).success;
}
