import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { AIRPORT_OPTIONS } from "~/features/booking/airports";
import { HONEYPOT_FIELD } from "~/features/messages/honeypot";
import { CONTROL_CHARACTER_REFUSED, CONTROL_CHARACTER_REFUSED_FR } from "~/lib/form-data.server";
import { BODY_TOO_LARGE_MESSAGE } from "../../../server/request-guards";
import { bookingFormFields } from "../../support/integration/booking-helpers";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { testDatabaseKind } from "../../support/test-database";

// Thousands of generated malformed submissions to every public form action and JSON endpoint of the
// production server: each must get a readable 4xx, never a 5xx, and none may write a row.

const kind = testDatabaseKind();
const RUNS_PER_TARGET = Number(process.env.FUZZ_RUNS ?? 1000);
const CONCURRENCY = 8;
const FUZZ_TIMEOUT = 300_000;
// One run is enough: on PostgreSQL when the suite has one, else on PGlite.
const runsHere = process.env.TEST_DATABASE_URL ? kind === "postgres" : true;

/** Strings no field may choke on: any unicode, lone surrogates, injection attempts, odd numbers and dates, a huge one. */
const hostile: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.constantFrom(
    "Robert'); DROP TABLE orders;--",
    "' OR '1'='1",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "\u0000",
    "\u202e",
    "👩‍👩‍👧‍👦",
    "../../etc/passwd",
    "${7*7}",
    "NaN",
    "Infinity",
    "-1",
    "-0",
    "1e309",
    "9".repeat(400),
    "2026-02-30",
    "0000-00-00",
    "1970-01-01T00:00:00Z",
  ),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constant("x".repeat(100_000)),
);

const absent = fc.constant(undefined);
const withoutAt = hostile.filter((value) => !value.includes("@"));
const badEmail = fc.oneof(absent, withoutAt, fc.constantFrom("", "a@", "@b.c", `${"x".repeat(250)}@example.org`));
const blankOrLong = (max: number) => fc.oneof(absent, fc.constantFrom("", "   ", "x".repeat(max + 1)));

type Fields = Record<string, string | undefined>;

interface FormTarget {
  name: string;
  path(): string;
  fields: readonly string[];
  /** Values of which any one makes the whole submission invalid (undefined: the field is left out). */
  breakers: Record<string, fc.Arbitrary<string | undefined>>;
  /** Fields every submission carries as they are. */
  fixed?: Fields;
  /** What the answer says about the refused input. */
  refusal: RegExp;
}

const ENGLISH_REFUSAL = /is required|must be|Invalid email address|Please select|cannot be|may contain only|expired/;
const FRENCH_REFUSAL = /Ce champ est obligatoire|Adresse e-mail invalide|ne doit pas dépasser|Le mot de passe/;
const UNREADABLE_FORM = /This form could not be read/;
const TOO_LARGE = new RegExp(BODY_TOO_LARGE_MESSAGE);
/** A submission with a control character anywhere is refused before its form reads it. */
const CONTROL_REFUSAL = /invisible control character|caractère de contrôle invisible/;

let orderId = "";
let freeOrderId = "";

const FORM_TARGETS: FormTarget[] = [
  {
    name: "contact",
    path: () => "/contact",
    fields: ["firstName", "lastName", "email", "phone", "message"],
    breakers: {
      firstName: blankOrLong(100),
      lastName: blankOrLong(100),
      email: badEmail,
      phone: blankOrLong(20),
      message: blankOrLong(1000),
    },
    refusal: ENGLISH_REFUSAL,
  },
  {
    name: "services contact",
    path: () => "/services/contact",
    fields: ["fullName", "email", "message"],
    breakers: { fullName: blankOrLong(100), email: badEmail, message: blankOrLong(1000) },
    refusal: ENGLISH_REFUSAL,
  },
  {
    name: "unsubscribe",
    path: () => "/unsubscribe",
    fields: ["email"],
    breakers: { email: badEmail },
    refusal: ENGLISH_REFUSAL,
  },
  {
    name: "unsubscribe confirmation",
    path: () => "/unsubscribe/confirm",
    fields: ["token"],
    breakers: { token: fc.oneof(absent, hostile) },
    refusal: /This link is not valid/,
  },
  {
    name: "fast-track booking",
    path: () => "/fast-track-form",
    fields: [
      "firstName",
      "lastName",
      "email",
      "phone",
      "airport",
      "flightDate",
      "adults",
      "children",
      "idempotencyKey",
    ],
    breakers: {
      firstName: blankOrLong(100),
      email: badEmail,
      phone: fc.constantFrom("1".repeat(21), "call me", "<b>"),
      airport: fc.oneof(
        absent,
        hostile.filter((value) => !(AIRPORT_OPTIONS as readonly string[]).includes(value)),
      ),
      flightDate: fc.oneof(absent, fc.constantFrom("", "2020-01-01", "2031-02-30", "31/12/2031", "garbage")),
      adults: fc.oneof(absent, fc.constantFrom("0", "-1", "1.5", "abc", "1e309", "100", "")),
      children: fc.constantFrom("-1", "0.5", "x", "1e309", "100"),
      idempotencyKey: fc.oneof(absent, hostile),
    },
    refusal: ENGLISH_REFUSAL,
  },
  {
    name: "card payment",
    path: () => `/fast-track-payment/${orderId}`,
    fields: ["cardNumber", "expiryMonth", "expiryYear", "cvv", "consent"],
    breakers: {
      consent: fc.oneof(absent, fc.constantFrom("", "off", "yes")),
      cardNumber: fc.oneof(absent, fc.constantFrom("", "4242424242424241", "1234", "4242-4242-4242-424x")),
      expiryMonth: fc.oneof(absent, fc.constantFrom("0", "13", "-1", "1.5", "x", "")),
      expiryYear: fc.oneof(absent, fc.constantFrom("1999", "99999", "x", "")),
      cvv: fc.oneof(absent, fc.constantFrom("", "12", "12345", "abc")),
    },
    refusal: /required|Choose an expiry|CVV must|Card number|expired|carried fields|tick the box/,
  },
  {
    // The booking a member's free accesses cover: the consent box is all it asks (ADR 029).
    name: "free booking confirmation",
    path: () => `/fast-track-payment/${freeOrderId}`,
    fields: ["consent"],
    breakers: { consent: fc.oneof(absent, fc.constantFrom("", "off", "yes", "ON")) },
    refusal: /tick the box|carried fields/,
  },
  {
    name: "membership checkout: details",
    path: () => "/membership-checkout",
    fields: ["fullName", "email", "plan", "currency"],
    fixed: { step: "details" },
    breakers: {
      fullName: blankOrLong(100),
      email: badEmail,
      plan: fc.oneof(absent, hostile),
      currency: fc.oneof(absent, hostile),
    },
    refusal: /is required|must be|Invalid email address|Please choose|carried fields/,
  },
  {
    name: "membership checkout: card",
    path: () => "/membership-checkout",
    fields: [
      "fullName",
      "email",
      "plan",
      "currency",
      "cardNumber",
      "expiryMonth",
      "expiryYear",
      "cvv",
      "consent",
      "checkoutKey",
    ],
    fixed: { step: "card" },
    breakers: {
      email: badEmail,
      plan: fc.oneof(absent, hostile),
      consent: fc.oneof(absent, fc.constantFrom("", "off", "yes")),
      cardNumber: fc.oneof(absent, fc.constantFrom("", "4242424242424241", "1234", "4242-4242-4242-424x")),
      checkoutKey: fc.oneof(absent, hostile),
    },
    refusal:
      /required|Invalid email address|Please choose|Choose an expiry|CVV must|Card number|expired|carried fields|tick the box/,
  },
  {
    name: "member area: send a code",
    path: () => "/account/sign-in",
    fields: ["email"],
    fixed: { intent: "send-code" },
    breakers: { email: badEmail },
    refusal: ENGLISH_REFUSAL,
  },
  {
    name: "member area: sign in with a code",
    path: () => "/account/sign-in",
    fields: ["email", "code"],
    fixed: { intent: "sign-in" },
    breakers: { email: badEmail, code: fc.oneof(absent, fc.constantFrom("", "12345", "1234567", "12a456")) },
    refusal: /Invalid email address|Enter the 6-digit code/,
  },
  {
    name: "sign-in",
    path: () => "/auth",
    fields: ["email", "password"],
    fixed: { intent: "sign-in" },
    breakers: { email: badEmail, password: fc.constantFrom(undefined, "") },
    refusal: FRENCH_REFUSAL,
  },
  {
    name: "sign-up",
    path: () => "/auth",
    fields: ["fullName", "email", "password", "confirmPassword"],
    fixed: { intent: "sign-up" },
    breakers: {
      fullName: blankOrLong(100),
      email: badEmail,
      password: fc.oneof(absent, fc.string({ maxLength: 5 }), fc.constant("x".repeat(129))),
    },
    refusal: FRENCH_REFUSAL,
  },
];

type Encoding = "urlencoded" | "multipart" | "json" | "text";

interface Submission {
  fields: Fields;
  extra: Record<string, string>;
  encoding: Encoding;
}

function submissions(target: FormTarget): fc.Arbitrary<Submission> {
  const fieldValues = Object.fromEntries(target.fields.map((field) => [field, fc.option(hostile, { nil: undefined })]));
  const breaker = fc.oneof(
    ...Object.entries(target.breakers).map(([field, value]) => value.map((broken) => ({ field, broken }))),
  );
  return fc
    .record({
      fields: fc.record(fieldValues),
      breaker,
      extra: fc.dictionary(
        fc.string({ minLength: 1, maxLength: 12 }).filter((name) => name !== HONEYPOT_FIELD && !(name in fieldValues)),
        hostile,
        { maxKeys: 2 },
      ),
      encoding: fc.constantFrom<Encoding>("urlencoded", "urlencoded", "multipart", "multipart", "json", "text"),
    })
    .map(({ fields, breaker: { field, broken }, extra, encoding }) => ({
      fields: { ...fields, ...target.fixed, [field]: broken },
      extra,
      encoding,
    }));
}

function encode({ fields, extra, encoding }: Submission): { body: BodyInit; headers: Record<string, string> } {
  const entries = Object.entries({ ...fields, ...extra }).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  switch (encoding) {
    case "urlencoded":
      return { body: new URLSearchParams(entries), headers: {} };
    case "multipart": {
      const form = new FormData();
      for (const [name, value] of entries) form.append(name, value);
      return { body: form, headers: {} };
    }
    case "json":
      return { body: JSON.stringify(Object.fromEntries(entries)), headers: { "Content-Type": "application/json" } };
    case "text":
      return {
        body: entries.map(([name, value]) => `${name}=${value}`).join("\n"),
        headers: { "Content-Type": "text/plain" },
      };
  }
}

let server: ProductionServer;
/** The first server, when PGlite had to be stopped to change its data and a second took over. */
let firstServer: ProductionServer | undefined;
let addresses = 0;

function post(path: string, { body, headers }: { body: BodyInit; headers: Record<string, string> }) {
  addresses += 1;
  return fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    body,
    headers: {
      ...headers,
      Origin: server.baseUrl,
      // A client of its own for every request, so that rate limits leave the validation to answer.
      "X-Forwarded-For": `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`,
    },
  });
}

/** Sends every input, a few at a time, and describes each answer that broke a rule. */
async function sendAll<Input>(
  inputs: Input[],
  send: (input: Input) => Promise<Response>,
  refusal: (input: Input) => RegExp,
): Promise<{ statuses: Map<number, number>; problems: string[] }> {
  const statuses = new Map<number, number>();
  const problems: string[] = [];
  let next = 0;
  async function worker() {
    while (next < inputs.length) {
      const input = inputs[next++]!;
      const response = await send(input);
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      // A body over the size limit is refused before any form reads it, with a message of its own.
      const expected = response.status === 413 ? TOO_LARGE : refusal(input);
      const readable = expected.test(text.replaceAll("&#x27;", "'").replaceAll("&quot;", '"'));
      if (response.status < 400 || response.status >= 500 || !readable) {
        problems.push(`${response.status} for ${JSON.stringify(input).slice(0, 300)}: ${text.slice(0, 200)}`);
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { statuses, problems };
}

const COUNTED_TABLES = [
  "customers",
  "orders",
  "order_events",
  "payments",
  "memberships",
  "contact_messages",
  "unsubscribe_requests",
  "outbox",
  "user",
  "account",
  "session",
  "user_roles",
  "withdrawals",
  "verification",
] as const;

/** Runs one statement on the server's data. PGlite belongs to the server process while it runs, so it is stopped first. */
async function runSql<Row>(query: string): Promise<Row[]> {
  if (server.databaseUrl) {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      return (await client.query(query)).rows as Row[];
    } finally {
      await client.end();
    }
  }
  await server.stop();
  const handle = await openDatabase({ kind: "pglite", dataDir: server.dataDir });
  try {
    return ((await handle.db.execute(query)) as unknown as { rows: Row[] }).rows;
  } finally {
    await handle.close();
  }
}

/** Rows per table. */
async function rowCounts(): Promise<Record<string, number>> {
  const query = `select ${COUNTED_TABLES.map((table) => `(select count(*) from "${table}")::int as "${table}"`).join(", ")}`;
  return (await runSql<Record<string, number>>(query))[0]!;
}

async function bookOrder(): Promise<string> {
  const booked = await post("/fast-track-form", { body: new URLSearchParams(bookingFormFields()), headers: {} });
  expect(booked.status).toBe(302);
  return /\/fast-track-payment\/([0-9a-f-]{36})/.exec(booked.headers.get("Location") ?? "")![1]!;
}

const report: string[] = [];

describe.runIf(runsHere)(`malformed input to the production server on ${kind}`, () => {
  beforeAll(async () => {
    const env = { TRUST_PROXY: "true", LOG_LEVEL: "warn" };
    server = await startProductionServer(kind, env);
    // Two real orders, for the payment forms to be fuzzed against: one to pay by card, and one that a
    // member's free accesses cover in full (priced so here, as the member's signed-in booking would be).
    orderId = await bookOrder();
    freeOrderId = await bookOrder();
    await runSql(`update orders set amount = 0, free_accesses = adults + children where id = '${freeOrderId}'`);
    if (!server.databaseUrl) {
      firstServer = server;
      server = await startProductionServer(kind, env, { dataOf: firstServer, samePort: true });
    }
    expect(await (await fetch(`${server.baseUrl}/fast-track-payment/${freeOrderId}`)).text()).toContain(
      "Confirm booking",
    );
  }, 120_000);

  afterAll(async () => {
    console.log(report.join("\n"));
    await server?.dispose();
    await firstServer?.dispose();
  });

  it.each(FORM_TARGETS)(
    "answers malformed $name forms with a readable 4xx",
    async (target) => {
      const inputs = fc.sample(submissions(target), RUNS_PER_TARGET);
      const { statuses, problems } = await sendAll(
        inputs,
        (input) => post(target.path(), encode(input)),
        (input) =>
          input.encoding === "json" || input.encoding === "text"
            ? UNREADABLE_FORM
            : new RegExp(`${target.refusal.source}|${CONTROL_REFUSAL.source}`),
      );
      report.push(
        `${target.name}: ${inputs.length} bad inputs, answers ${JSON.stringify(Object.fromEntries(statuses))}`,
      );
      expect(problems.slice(0, 5)).toEqual([]);
    },
    FUZZ_TIMEOUT,
  );

  // Every one of these submissions is valid but for one control character in one field, which
  // PostgreSQL would refuse (NUL) or nobody types: each is refused with the same 400, before any form
  // reads it, so a sign-up answers alike whether or not the address has an account.
  const CONTROLS = ["\u0000", "\u0001", "\u0008", "\u000b", "\u001b", "\u001f"];
  const VALID_FORMS: { name: string; path: () => string; fields: () => Record<string, string>; french?: boolean }[] = [
    {
      name: "contact",
      path: () => "/contact",
      fields: () => ({
        firstName: "Ann",
        lastName: "Example",
        email: "ann@example.com",
        phone: "+33 1 23 45 67 89",
        message: "When does the lane open?",
      }),
    },
    {
      name: "services contact",
      path: () => "/services/contact",
      fields: () => ({ fullName: "Ann Example", email: "ann@example.com", message: "When does the lane open?" }),
    },
    { name: "fast-track booking", path: () => "/fast-track-form", fields: () => bookingFormFields() },
    {
      name: "withdrawal",
      path: () => "/withdraw",
      fields: () => ({
        fullName: "Ann Example",
        contractNumber: "FT-1",
        email: "ann@example.com",
        scope: "fast-track",
        intent: "review",
      }),
    },
    {
      name: "sign-up",
      path: () => "/auth",
      french: true,
      fields: () => ({
        intent: "sign-up",
        fullName: "Ann Example",
        email: "ann@example.com",
        password: "correct horse battery",
        confirmPassword: "correct horse battery",
      }),
    },
  ];

  it.each(VALID_FORMS)(
    "refuses a control character in any field of a valid $name form with a 400 that says so",
    async (form) => {
      const inputs = Object.keys(form.fields()).flatMap((field) =>
        CONTROLS.map((control) => ({ ...form.fields(), [field]: `${form.fields()[field]!.slice(0, 2)}${control}x` })),
      );
      const refusal = form.french ? CONTROL_CHARACTER_REFUSED_FR : CONTROL_CHARACTER_REFUSED;
      expect(refusal).toMatch(CONTROL_REFUSAL);
      const { statuses, problems } = await sendAll(
        inputs,
        (fields) => post(form.path(), { body: new URLSearchParams(fields), headers: {} }),
        () => CONTROL_REFUSAL,
      );
      report.push(
        `${form.name} with control characters: ${inputs.length} inputs, answers ${JSON.stringify(Object.fromEntries(statuses))}`,
      );
      expect([...statuses.keys()]).toEqual([400]);
      expect(problems.slice(0, 5)).toEqual([]);
    },
    FUZZ_TIMEOUT,
  );

  it("refuses a control character in the sign-up API alike for a new and a known address", async () => {
    const answers = await Promise.all(
      ["new@example.com", "ann@example.com"].map(async (email) => {
        const response = await post("/api/auth/sign-up/email", {
          body: JSON.stringify({ name: "Ann\u0000", email, password: "correct horse battery" }),
          headers: { "Content-Type": "application/json" },
        });
        return { status: response.status, text: await response.text() };
      }),
    );
    expect(answers[0]!.status).toBe(400);
    expect(answers[1]).toEqual(answers[0]);
  });

  it.each([
    ["sign-up", "/api/auth/sign-up/email", ["name", "email", "password"]],
    ["sign-in", "/api/auth/sign-in/email", ["email", "password"]],
  ] as const)(
    "answers malformed JSON to the %s API with a 4xx and a message",
    async (name, path, fields) => {
      const value = fc.oneof(
        hostile,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(hostile, { maxLength: 2 }),
      );
      const body = fc.oneof(
        // An object with the API's fields, its e-mail never a valid address.
        fc
          .record(Object.fromEntries(fields.map((field) => [field, fc.option(value, { nil: undefined })])))
          .chain((object) => fc.oneof(absent, withoutAt, fc.integer()).map((email) => ({ ...object, email }))),
        fc.jsonValue().filter((json) => typeof json !== "object" || json === null || Array.isArray(json)),
      );
      const inputs = fc.sample(
        fc.oneof(
          body.map((json) => JSON.stringify(json)),
          fc.constantFrom("{", '{"email":', "[", "\u0000", "", "x".repeat(100_000)),
        ),
        RUNS_PER_TARGET,
      );
      const { statuses, problems } = await sendAll(
        inputs,
        (text) => post(path, { body: text, headers: { "Content-Type": "application/json" } }),
        () => /"message":"[^"]+"/,
      );
      report.push(`${name} API: ${inputs.length} bad inputs, answers ${JSON.stringify(Object.fromEntries(statuses))}`);
      expect(problems.slice(0, 5)).toEqual([]);
    },
    FUZZ_TIMEOUT,
  );

  it("wrote nothing for any of them: only the two orders made to pay for are there", async () => {
    expect(await rowCounts()).toEqual({
      customers: 1,
      orders: 2,
      order_events: 2,
      payments: 0,
      memberships: 0,
      contact_messages: 0,
      unsubscribe_requests: 0,
      // The booking's confirmation goes only once it is paid.
      outbox: 0,
      user: 0,
      account: 0,
      session: 0,
      user_roles: 0,
      withdrawals: 0,
      verification: 0,
    });
    report.push(`rows written by bad input: 0 (${COUNTED_TABLES.length} tables checked)`);
  });
});

describe.runIf(runsHere)(`input that looks like an attack but is valid, on ${kind}`, () => {
  let server: ProductionServer;
  beforeAll(async () => {
    server = await startProductionServer(kind, { LOG_LEVEL: "warn" });
  }, 120_000);
  afterAll(() => server?.dispose());

  it("is stored verbatim and shown escaped", async () => {
    const firstName = "Robert'); DROP TABLE orders;--";
    const lastName = "<script>alert(1)</script>";
    const booked = await fetch(`${server.baseUrl}/fast-track-form`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.baseUrl },
      body: new URLSearchParams(bookingFormFields({ firstName, lastName })),
    });
    expect(booked.status).toBe(302);
    const page = await (await fetch(`${server.baseUrl}${booked.headers.get("Location")}`)).text();
    expect(page).toContain("Robert&#x27;); DROP TABLE orders;--");
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page).not.toContain(lastName);

    if (server.databaseUrl) {
      const client = new pg.Client({ connectionString: server.databaseUrl });
      await client.connect();
      const { rows } = await client.query("select full_name from customers");
      await client.end();
      expect(rows).toEqual([{ full_name: `${firstName} ${lastName}` }]);
    }
  });
});
