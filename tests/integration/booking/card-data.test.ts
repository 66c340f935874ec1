import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { bookingFormFields } from "../../support/integration/booking-helpers";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { testDatabaseKind } from "../../support/test-database";

// Pays through the real production server as a browser would, with and without JavaScript, then
// searches everything the system kept or said for the card numbers and CVVs it was given.
const kind = testDatabaseKind();
const nextYear = String(new Date().getFullYear() + 1);
const attempts = [
  // Refused by validation (the year is out of range), so the form comes back.
  { cardNumber: "4242 4242 4242 4242", expiryYear: "2099", cvv: "7391", dataRequest: false, expect: 400 },
  { cardNumber: "4000 0000 0000 0002", expiryYear: nextYear, cvv: "8462", dataRequest: true, expect: 402 },
  { cardNumber: "4000 0000 0000 9995", expiryYear: nextYear, cvv: "6154", dataRequest: false, expect: 402 },
  { cardNumber: "4242 4242 4242 4242", expiryYear: nextYear, cvv: "5937", dataRequest: true, expect: 202 },
];

let server: ProductionServer;
const responses: string[] = [];
let logs = "";
let databaseText = "";
let orderPath = "";

async function record(response: Response) {
  responses.push(`${response.status}\n${[...response.headers].join("\n")}\n${await response.text()}`);
  return response;
}

/** Every row of every table in the public schema, as JSON text. */
async function dumpDatabase() {
  const handle = await openDatabase(
    server.databaseUrl ? { kind: "postgres", url: server.databaseUrl } : { kind: "pglite", dataDir: server.dataDir },
  );
  try {
    const tables = (await handle.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    )) as { rows: { table_name: string }[] };
    const dumps: string[] = [];
    for (const { table_name: table } of tables.rows) {
      const result = (await handle.db.execute(
        sql.raw(`select coalesce(json_agg(t), '[]'::json)::text as rows from "${table}" t`),
      )) as { rows: { rows: string }[] };
      dumps.push(`${table}: ${result.rows[0]!.rows}`);
    }
    return dumps.join("\n");
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  server = await startProductionServer(kind, { LOG_LEVEL: "trace" });
  const form = await record(await fetch(`${server.baseUrl}/fast-track-form`));
  const idempotencyKey = /name="idempotencyKey" value="([^"]+)"/.exec(responses.at(-1)!)?.[1];
  expect(form.status).toBe(200);
  const booked = await record(
    await fetch(`${server.baseUrl}/fast-track-form`, {
      method: "POST",
      body: new URLSearchParams(bookingFormFields({ idempotencyKey: idempotencyKey! })),
      redirect: "manual",
    }),
  );
  orderPath = booked.headers.get("Location")!;
  expect(orderPath).toMatch(/^\/fast-track-payment\/[0-9a-f-]{36}$/);

  for (const attempt of attempts) {
    const { cardNumber, expiryYear, cvv } = attempt;
    const response = await record(
      await fetch(`${server.baseUrl}${orderPath}${attempt.dataRequest ? ".data" : ""}`, {
        method: "POST",
        body: new URLSearchParams({ cardNumber, expiryMonth: "06", expiryYear, cvv, consent: "on" }),
        redirect: "manual",
      }),
    );
    expect(response.status, cardNumber).toBe(attempt.expect);
  }
  await record(await fetch(`${server.baseUrl}${orderPath}`));
  await record(await fetch(`${server.baseUrl}${orderPath}.data`));

  expect(await server.stop()).toBe(0);
  logs = server.output();
  databaseText = await dumpDatabase();
}, 120_000);

afterAll(async () => {
  await server.dispose();
});

/** A CVV as a value of its own, not four digits inside a longer number, id or timestamp. */
const standalone = (digits: string) => new RegExp(`(?<![0-9A-Za-z.-])${digits}(?![0-9A-Za-z.-])`);

describe(`card data after payments on ${kind}`, () => {
  it("went through every outcome, so the search below looks at real traces", () => {
    const pages = responses.join("\n");
    expect(pages).toContain("Choose an expiry year from");
    expect(pages).toContain("Your card was declined.");
    expect(pages).toContain("Your card has insufficient funds.");
    expect(pages).toContain("Booking Confirmed");
    expect(databaseText).toMatch(/"brand":"Visa","last4":"4242",.*"outcome":"succeeded"/);
    expect(databaseText).toContain('"outcome":"declined"');
    expect(databaseText).toContain('"outcome":"insufficient_funds"');
    expect(logs).toContain("server listening");
  });

  it.each(
    attempts.flatMap(({ cardNumber }) => [
      ["card number", cardNumber],
      ["card number", cardNumber.replaceAll(" ", "")],
    ]),
  )("keeps no %s %s in the database, the logs or any response", (_what, number) => {
    expect(databaseText).not.toContain(number);
    expect(logs).not.toContain(number);
    for (const response of responses) expect(response).not.toContain(number);
  });

  it.each(attempts.map(({ cvv }) => cvv))("keeps no CVV %s anywhere", (cvv) => {
    expect(databaseText).not.toMatch(standalone(cvv));
    expect(logs).not.toMatch(standalone(cvv));
    for (const response of responses) expect(response).not.toMatch(standalone(cvv));
  });

  it("would find a CVV written as a value", () => {
    expect(`"cvv":"7391"`).toMatch(standalone("7391"));
    expect(`cvv=7391&`).toMatch(standalone("7391"));
    expect(`value="7391"`).toMatch(standalone("7391"));
  });
});
