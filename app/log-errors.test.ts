import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { errorForLog } from "./log-errors";

describe("errorForLog", () => {
  it("keeps a failed query's text and codes, never its parameters or PostgreSQL's detail", () => {
    const pgError = Object.assign(
      new Error('duplicate key value violates unique constraint "customers_email_unique"'),
      {
        code: "23505",
        constraint: "customers_email_unique",
        detail: "Key (email)=(ann@example.com) already exists.",
      },
    );
    const failed = new DrizzleQueryError(
      'insert into "customers" ("name", "email") values ($1, $2)',
      ["Ann Example", "ann@example.com"],
      pgError,
    );
    const logged = JSON.stringify(errorForLog(failed));
    expect(logged).not.toContain("ann@example.com");
    expect(logged).not.toContain("Ann Example");
    expect(logged).toContain('insert into \\"customers\\"');
    expect(logged).toContain("23505");
    expect(logged).toContain("customers_email_unique");
  });

  it("passes anything that is not an error through", () => {
    expect(errorForLog("text")).toBe("text");
  });
});
