import { describe, expect, it } from "vitest";
import { contactMessages } from "~/db/schema";
import { CLIENT_ADDRESS_HEADER } from "~/lib/client-address.server";
import type { FormActionData } from "~/lib/form-result";
import { countRequest, RATE_LIMIT_TIERS, TOO_MANY_REQUESTS } from "~/lib/rate-limit.server";
import { action as contactAction } from "~/routes/contact";
import { CONTACT_FORM_FIELDS } from "../../support/integration/contact-form-fields";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { installedTestDatabase } from "../../support/integration/installed-database";
import { testDatabaseKind } from "../../support/test-database";

const kind = testDatabaseKind();
const testDb = installedTestDatabase();

const { max, windowSeconds } = RATE_LIMIT_TIERS.payment;
const start = Date.UTC(2026, 0, 1, 12);

async function countMany(address: string, times: number, now = start) {
  const outcomes = [];
  for (let index = 0; index < times; index++) outcomes.push(await countRequest(testDb(), "payment", address, now));
  return outcomes;
}

describe(`tiered rate limits on ${kind}`, () => {
  it("lets a tier's allowance through in a window and refuses the next, saying when to retry", async () => {
    const outcomes = await countMany("192.0.2.1", max + 1, start);
    expect(outcomes.slice(0, max).every((outcome) => !outcome.limited)).toBe(true);
    expect(outcomes[max]).toEqual({ limited: true, retryAfterSeconds: windowSeconds });
    expect(await countRequest(testDb(), "payment", "192.0.2.1", start + 45_000)).toEqual({
      limited: true,
      retryAfterSeconds: windowSeconds - 45,
    });
  });

  it("starts counting afresh when the window is over", async () => {
    await countMany("192.0.2.2", max + 1, start);
    expect(await countRequest(testDb(), "payment", "192.0.2.2", start + windowSeconds * 1000)).toEqual({
      limited: false,
    });
  });

  it("counts each address and each tier apart", async () => {
    await countMany("192.0.2.3", max + 1, start);
    expect(await countRequest(testDb(), "payment", "192.0.2.4", start)).toEqual({ limited: false });
    expect(await countRequest(testDb(), "publicForms", "192.0.2.3", start)).toEqual({ limited: false });
  });

  it("counts requests arriving together exactly once each", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: max + 5 }, () => countRequest(testDb(), "payment", "192.0.2.5", start)),
    );
    expect(outcomes.filter((outcome) => outcome.limited)).toHaveLength(5);
  });
});

describe(`a public form over its rate limit on ${kind}`, () => {
  const post = (address: string) =>
    new Request("http://localhost/contact", {
      method: "POST",
      headers: { [CLIENT_ADDRESS_HEADER]: address },
      body: new URLSearchParams(CONTACT_FORM_FIELDS),
    });

  it("answers 429 with the message, keeps what was typed and stores nothing more", async () => {
    const { max: formMax } = RATE_LIMIT_TIERS.publicForms;
    for (let index = 0; index < formMax; index++) {
      expect((await routeResult(() => contactAction(routeArgs(post("198.51.100.7"))))).status).toBe(302);
    }
    const refused = await routeResult(() => contactAction(routeArgs(post("198.51.100.7"))));
    expect(refused.status).toBe(429);
    const { result } = refused.data as FormActionData;
    expect(result.error).toEqual({ "": [TOO_MANY_REQUESTS] });
    expect(result.initialValue).toMatchObject({ firstName: "Ada", message: "When does my trial start?" });
    expect(await testDb().$count(contactMessages)).toBe(formMax);

    expect((await routeResult(() => contactAction(routeArgs(post("198.51.100.8"))))).status).toBe(302);
  });
});
