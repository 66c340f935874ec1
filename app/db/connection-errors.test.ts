import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./connection-errors";

describe("isDatabaseUnavailable", () => {
  it("recognises a terminated, refused or lost connection, also wrapped as a cause", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("connect"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    const drizzle = new Error("Failed query: select 1", { cause: Object.assign(new Error("x"), { code: "08006" }) });
    expect(isDatabaseUnavailable(drizzle)).toBe(true);
  });

  it("leaves every other error alone: a wrong query is a bug, not an outage", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("deadlock"), { code: "40P01" }))).toBe(false);
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
    expect(isDatabaseUnavailable("Connection terminated")).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
