import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { count, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, orders, type CurrencyCode } from "~/db/schema";
import { AIRPORT_OPTIONS } from "~/features/booking/airports";
import { bookingNotes, FAST_TRACK_SERVICE } from "~/features/booking/orders.server";
import { toMinorUnits } from "~/lib/currency";
import { cardBrand } from "~/features/payments/card";
import { SANDBOX_TEST_CARDS, sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { RETENTION } from "~/features/privacy/retention";
import { siteConfig } from "../site.config";

export interface SeedOptions {
  orders: number;
  /** At most `orders`: every customer has at least one order. */
  customers: number;
  /** Orders written per statement: bounds the memory and paces the progress lines. */
  batchSize?: number;
}

const DEFAULT_BATCH_SIZE = 100_000;
/** The orders span this many days back from now. */
const HISTORY_DAYS = 730;
/** One contact message per this many orders, and one unsubscribe request per this many. */
const ORDERS_PER_CONTACT_MESSAGE = 100;
const ORDERS_PER_UNSUBSCRIBE_REQUEST = 500;
/** The bijective scramble of a counter into six letters: odd and prime to 13, so a permutation mod 26^6. */
const SUFFIX_SPACE = 26 ** 6;
const SUFFIX_MULTIPLIER = 2_654_435_761;

/** The names in a block of text, one per word. */
function words(text: string): string[] {
  return text.trim().split(/\s+/);
}

const FIRST_NAMES = words(`
  Camille Léa Chloé Manon Inès Sarah Emma Louise Jade Zoé Anaïs Clara Julie Marie Sophie Olivia
  Amelia Charlotte Hannah Laura Elena Sofia Noor Yasmine Lucas Hugo Louis Gabriel Arthur Jules
  Thomas Nathan Théo Maxime Antoine Julien Nicolas Pierre Mathis Karim Oliver James Harry George
  Daniel Pablo Marco Lars
`);
const LAST_NAMES = words(`
  Martin Bernard Dubois Thomas Robert Richard Petit Durand Leroy Moreau Simon Laurent Lefèvre Michel
  Garcia David Bertrand Roux Vincent Fournier Morel Girard André Mercier Dupont Lambert Bonnet
  François Martinez Legrand Smith Jones Taylor Brown Williams Wilson Evans Johnson Müller Schmidt
  Vermeulen Jansen Rossi Russo Fernández López Silva Haddad Benali Nguyen
`);
// Reserved example domains: an e-mail sent to a seeded customer can never reach anyone.
const MAIL_DOMAINS = ["example.com", "example.org", "example.net", "mail.example", "inbox.example"];
const PHONE_PREFIXES = ["+33 6", "+33 7", "+44 7", "+31 6", "+49 15", "+34 6", "+39 3", "+1 646"];
/** How many orders in ten are paid in each currency. */
const CURRENCY_SHARES: Record<CurrencyCode, number> = { EUR: 5, USD: 3, GBP: 2 };
const CURRENCY_DRAW = Object.entries(CURRENCY_SHARES).flatMap(([code, share]) => Array<string>(share).fill(code));
const CONTACT_MESSAGES = [
  "Hello, can I change the date of my fast track booking? My flight was moved to the next day.",
  "I booked two adults but we are travelling with a child. How do I add her?",
  "Is the fast track available at terminal 2E? Thank you.",
  "I did not receive my confirmation e-mail. Could you send it again?",
  "Can I get an invoice with my company name on it?",
  "My flight was cancelled. How do I get a refund?",
  "Do you offer group rates for ten people?",
  "How long in advance should I arrive at the airport with the fast track?",
];

/** The customer's notes exactly as a booking writes them, with placeholders the SQL fills in. */
const NOTES_TEMPLATE = bookingNotes({
  airport: "{airport}",
  flightDate: "{flightDate}",
  email: "{email}",
  phone: "{phone}",
});

/** The sandbox's successful test cards, as the seeded payments were made with them. */
const PAYMENT_CARDS = Object.entries(SANDBOX_TEST_CARDS)
  .filter(([, card]) => card.outcome === "succeeded")
  .map(([number]) => ({ brand: cardBrand(number)!, last4: number.slice(-4) }));

/** Whoever changed an order in the back office, in the seeded history. */
const BACK_OFFICE_ACTOR = siteConfig.company.email;

function textArray(values: readonly string[]): SQL {
  return sql.raw(`array[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", ")}]::text[]`);
}

/** One element of `values`, chosen by `fraction` (0 <= fraction < 1). */
function pick(values: readonly string[], fraction: SQL): SQL {
  return sql`(${textArray(values)})[1 + floor(${fraction} * ${sql.raw(String(values.length))})::int]`;
}

/** The seeded customer number `seq` of this run as a uuid, so that orders find their customer without a lookup table. */
function customerId(run: string, seq: SQL): SQL {
  return sql`md5(${run}::text || ':customer:' || ${seq})::uuid`;
}

/** Six letters that differ for every counter value below 26^6. */
function orderSuffix(counter: SQL): SQL {
  const scrambled = sql`((${counter})::bigint * ${sql.raw(String(SUFFIX_MULTIPLIER))} % ${sql.raw(String(SUFFIX_SPACE))})`;
  const letters = Array.from(
    { length: 6 },
    (_, index) => sql`chr(65 + (${scrambled} / ${sql.raw(String(26 ** index))} % 26)::int)`,
  );
  return sql.join(letters, sql` || `);
}

const asciiEmailPart = (name: SQL) =>
  sql`replace(translate(lower(${name}), 'éèêëàâäçïîôöüûáíóú', 'eeeeaaaciioouuaiou'), ' ', '')`;

async function insertCustomers(db: Database, run: string, from: number, to: number) {
  await db.execute(sql`
    insert into customers (id, full_name, email, notes, created_at)
    select ${customerId(run, sql`seq`)}, first_name || ' ' || last_name, email,
           replace(replace(replace(replace(${NOTES_TEMPLATE}, '{airport}', airport), '{flightDate}', flight_date::text),
                   '{email}', email), '{phone}', phone),
           created_at
    from (
      select seq, first_name, last_name, created_at,
             ${asciiEmailPart(sql`first_name`)} || '.' || ${asciiEmailPart(sql`last_name`)} || (seq % 997) || '@' || domain as email,
             ${pick(AIRPORT_OPTIONS, sql`(seq % ${AIRPORT_OPTIONS.length})::float / ${AIRPORT_OPTIONS.length}`)} as airport,
             (created_at + (seq % 60) * interval '1 day')::date as flight_date,
             phone_prefix || ' ' || lpad(floor(phone_digits * 100000000)::int::text, 8, '0') as phone
      from (
        select seq,
               ${pick(FIRST_NAMES, sql`random()`)} as first_name,
               ${pick(LAST_NAMES, sql`random()`)} as last_name,
               ${pick(MAIL_DOMAINS, sql`random()`)} as domain,
               ${pick(PHONE_PREFIXES, sql`random()`)} as phone_prefix,
               random() as phone_digits,
               -- Denser towards now: the business grows.
               now() - ${HISTORY_DAYS}::int * interval '1 day' * (1 - sqrt(random())) as created_at
        from generate_series(${from}::bigint, ${to}::bigint - 1) seq
      ) drawn
    ) shaped`);
}

/**
 * Orders `from` to `to` of this run, each with its history and, when it was paid, its payment: one
 * statement. The first `customerCount` orders are each customer's first, booked with the customer;
 * the others go to returning customers (a few return often) later on.
 */
async function insertOrders(
  db: Database,
  {
    run,
    from,
    to,
    customerCount,
    counterBase,
  }: { run: string; from: number; to: number; customerCount: number; counterBase: number },
) {
  const adultPrice = toMinorUnits(siteConfig.fastTrack.adultPrice);
  const childPrice = toMinorUnits(siteConfig.fastTrack.childPrice);
  const recent = sql`now() - interval '${sql.raw(String(RETENTION.unpaidOrderHours))} hours'`;
  await db.execute(sql`
    with drawn as materialized (
      select k, gen_random_uuid() as id,
             case when k < ${customerCount}::bigint then k else floor(${customerCount}::bigint * power(random(), 1.5))::bigint end as seq,
             random() as r_time, random() as r_status, random() as r_close, random() as r_pay, random() as r_card,
             random() as r_currency, random() as r_adults, random() as r_children, random() as r_airport, random() as r_flight
      from generate_series(${from}::bigint, ${to}::bigint - 1) k
    ),
    placed as (
      select d.*, c.id as customer_id,
             case when d.k < ${customerCount}::bigint then c.created_at
                  else c.created_at + (now() - c.created_at) * d.r_time end as created_at,
             case when d.k < ${customerCount}::bigint then substring(c.notes from 'Airport: ([^\n]+)')
                  else ${pick(AIRPORT_OPTIONS, sql`d.r_airport`)} end as airport,
             case when d.k < ${customerCount}::bigint then (c.created_at + (d.seq % 60) * interval '1 day')::date end as first_flight_date,
             case when d.r_adults < 0.45 then 1 when d.r_adults < 0.8 then 2 when d.r_adults < 0.92 then 3 else 4 end as adults,
             case when d.r_children < 0.7 then 0 when d.r_children < 0.85 then 1 when d.r_children < 0.95 then 2 else 3 end
               as children,
             ${pick(CURRENCY_DRAW, sql`d.r_currency`)} as currency
      from drawn d join customers c on c.id = ${customerId(run, sql`d.seq`)}
    ),
    dated as (
      select p.*,
             coalesce(first_flight_date, (created_at + floor(power(r_flight, 2) * 90) * interval '1 day')::date) as flight_date,
             -- A few minutes after the booking, never in the future.
             created_at + least((1 + 14 * r_pay) * interval '1 minute', (now() - created_at) * r_pay) as paid_at
      from placed p
    ),
    decided as (
      select d.*,
             -- Unpaid orders only in the last 48 hours: the retention job removes older ones.
             case when created_at > ${recent} and r_status < 0.35 then 'Not Paid'
                  when created_at > ${recent} and r_status < 0.40 then 'cancelled'
                  when r_status < 0.07 then 'cancelled'
                  when r_status < 0.11 then 'refunded'
                  when flight_date < current_date then 'completed'
                  else 'paid' end as status
      from dated d
    ),
    closed as materialized (
      select d.*,
             case status
               when 'cancelled' then least(now(), created_at + (1 + 40 * r_close) * interval '1 hour')
               -- Before the flight (or after it was missed); only orders over 48 hours old are refunded, so this is past.
               when 'refunded' then paid_at + interval '5 minutes' + greatest(interval '0', least(now(), flight_date::timestamptz) - paid_at) * r_close
               when 'completed' then least(now(), greatest(paid_at + interval '1 hour', flight_date + interval '20 hours'))
             end as closed_at
      from decided d
    ),
    inserted as (
      insert into orders (id, order_number, customer_id, amount, currency, status, service_type, business, site,
                          idempotency_key, flight_date, airport, adults, children, created_at, updated_at)
      select id, 'FT-' || floor(extract(epoch from created_at) * 1000)::bigint || '-' || ${orderSuffix(sql`${counterBase}::bigint + k`)},
             customer_id, adults * ${adultPrice} + children * ${childPrice}, currency, status,
             ${FAST_TRACK_SERVICE}, ${FAST_TRACK_SERVICE}, ${siteConfig.company.name}, gen_random_uuid()::text,
             flight_date, airport, adults, children, created_at,
             coalesce(closed_at, case when status = 'paid' then paid_at else created_at end)
      from closed
      returning id
    ),
    history as (
      insert into order_events (order_id, from_status, to_status, actor_label, created_at)
      select c.id, e.from_status, e.to_status, e.actor_label, e.at
      from closed c join inserted using (id)
      cross join lateral (values
        (null, 'Not Paid', 'customer', c.created_at, true),
        ('Not Paid', 'paid', 'customer', c.paid_at, c.status in ('paid', 'completed', 'refunded')),
        ('Not Paid', 'cancelled', ${BACK_OFFICE_ACTOR}::text, c.closed_at, c.status = 'cancelled'),
        ('paid', 'completed', 'system', c.closed_at, c.status = 'completed'),
        ('paid', 'refunded', ${BACK_OFFICE_ACTOR}::text, c.closed_at, c.status = 'refunded')
      ) e(from_status, to_status, actor_label, at, happened)
      where e.happened
    )
    insert into payments (order_id, provider, provider_ref, brand, last4, amount, currency, outcome, created_at)
    select c.id, ${sandboxGateway.name}, ${sandboxGateway.name} || '_' || gen_random_uuid(),
           ${pick(
             PAYMENT_CARDS.map((card) => card.brand),
             sql`c.r_card`,
           )},
           ${pick(
             PAYMENT_CARDS.map((card) => card.last4),
             sql`c.r_card`,
           )},
           c.adults * ${adultPrice} + c.children * ${childPrice}, c.currency, 'succeeded', c.paid_at
    from closed c join inserted using (id)
    where c.status in ('paid', 'completed', 'refunded')`);
}

async function insertContactMessages(db: Database, total: number) {
  await db.execute(sql`
    insert into contact_messages (source, name, email, phone, message, created_at)
    select case when random() < 0.8 then 'contact' else 'services' end, first_name || ' ' || last_name,
           ${asciiEmailPart(sql`first_name`)} || '.' || ${asciiEmailPart(sql`last_name`)} || '@' || ${pick(MAIL_DOMAINS, sql`random()`)},
           ${pick(PHONE_PREFIXES, sql`random()`)} || ' ' || lpad(floor(random() * 100000000)::int::text, 8, '0'),
           ${pick(CONTACT_MESSAGES, sql`random()`)},
           -- Within the retention period, so that the retention job keeps them.
           now() - ${RETENTION.contactMessageYears * 360}::int * interval '1 day' * random()
    from (
      select ${pick(FIRST_NAMES, sql`random()`)} as first_name, ${pick(LAST_NAMES, sql`random()`)} as last_name
      from generate_series(1, ${total}::int)
    ) drawn`);
}

async function insertUnsubscribeRequests(db: Database, total: number) {
  await db.execute(sql`
    insert into unsubscribe_requests (email, token_hash, expires_at, confirmed_at, status, created_at)
    select email, encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'hex'), created_at + interval '48 hours',
           case when confirmed then created_at + interval '3 minutes' end,
           case when confirmed then 'confirmed' else 'new' end, created_at
    from (
      select ${asciiEmailPart(pick(FIRST_NAMES, sql`random()`))} || '.' || ${asciiEmailPart(pick(LAST_NAMES, sql`random()`))}
               || '@' || ${pick(MAIL_DOMAINS, sql`random()`)} as email,
             random() < 0.7 as confirmed,
             now() - ${RETENTION.unsubscribeRequestYears * 360}::int * interval '1 day' * random() as created_at
      from generate_series(1, ${total}::int)
    ) drawn`);
}

/**
 * Fills the database with realistic customers, orders (with their history and payments), contact
 * messages and unsubscribe requests, in SQL, batch by batch. It adds to what is there: the ids and
 * order numbers it writes cannot collide with earlier ones.
 */
export async function seedDatabase(db: Database, options: SeedOptions, log: (line: string) => void = () => {}) {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const run = randomBytes(8).toString("hex");
  const [existingOrders] = await db.select({ count: count() }).from(orders);
  const [existingCustomers] = await db.select({ count: count() }).from(customers);
  const counterBase = existingOrders?.count ?? 0;
  if (counterBase > 0 || (existingCustomers?.count ?? 0) > 0) {
    log(
      `The database already holds ${format(counterBase)} orders and ${format(existingCustomers?.count ?? 0)} customers: ` +
        "adding to them (the new order numbers do not collide with theirs).",
    );
  }
  log(`Seeding ${format(options.orders)} orders for ${format(options.customers)} customers ...`);
  for (let from = 0; from < options.orders; from += batchSize) {
    const to = Math.min(from + batchSize, options.orders);
    if (from < options.customers) {
      await insertCustomers(db, run, from, Math.min(to, options.customers));
      // The orders look their customers up: the planner must know how many there now are.
      await db.execute(sql`analyze customers`);
    }
    await insertOrders(db, { run, from, to, customerCount: options.customers, counterBase });
    log(`  ${format(to)} / ${format(options.orders)} orders (${elapsed()})`);
  }
  const contactMessages = Math.ceil(options.orders / ORDERS_PER_CONTACT_MESSAGE);
  const unsubscribeRequests = Math.ceil(options.orders / ORDERS_PER_UNSUBSCRIBE_REQUEST);
  await insertContactMessages(db, contactMessages);
  await insertUnsubscribeRequests(db, unsubscribeRequests);
  log(
    `  ${format(contactMessages)} contact messages, ${format(unsubscribeRequests)} unsubscribe requests (${elapsed()})`,
  );
  // What autovacuum would do in a while: planner statistics, and the visibility map that lets the
  // statistics page read a period from its covering index alone.
  await db.execute(sql`vacuum analyze`);
  log(`Done in ${elapsed()} (vacuumed and analysed).`);
}

function format(value: number): string {
  return value.toLocaleString("en");
}
