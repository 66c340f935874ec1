import { randomUUID } from "node:crypto";
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { count, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, orders, type CurrencyCode } from "~/db/schema";
import { AIRPORT_OPTIONS } from "~/features/booking/airports";
import { bookingNotes, FAST_TRACK_SERVICE } from "~/features/booking/orders.server";
import { toMinorUnits } from "~/lib/currency";
import { COMPANY_TIME_ZONE } from "~/lib/company-time";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { cardBrand } from "~/features/payments/card";
import { createSandboxGateway, SANDBOX_TEST_CARDS, sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { RETENTION } from "~/features/privacy/retention";
import { siteConfig } from "../site.config";

export interface SeedOptions {
  orders: number;
  /** At most `orders`: every customer has at least one order. */
  customers: number;
  /** At most `customers`: a membership belongs to one customer (and address). Half the customers by default. */
  memberships?: number;
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

/** How many memberships in a hundred are Premium rather than the trial's Medium. */
const PREMIUM_PERCENT = 20;
/** Of the trials: how many in a hundred are cancelled before the first fee, and how many have it declined. */
const TRIALS_CANCELLED_PERCENT = 25;
const TRIALS_UNPAID_PERCENT = 5;
/** After the first fee, the chance that a member pays the next one too, and how many leavers cancel rather than stop paying. */
const RENEWAL_CHANCE = 0.8;
const LEAVERS_CANCELLING_PERCENT = 70;
/** Documented sandbox cards (docs/payments-and-memberships.md, "Test cards"): these renew, this one declines every renewal. */
const RENEWING_CARDS = ["4242424242424242", "5555555555554444"];
const DECLINING_CARD = "4999990000000346";

/** Whoever changed an order in the back office, in the seeded history. */
const BACK_OFFICE_ACTOR = siteConfig.company.email;
const SEED_REFUND_REASON = "Vol annulé";

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

async function insertCustomers(db: Database, run: string, from: number, to: number, emailBase: number) {
  await db.execute(sql`
    insert into customers (id, full_name, email, notes, created_at)
    select ${customerId(run, sql`seq`)}, first_name || ' ' || last_name, email,
           replace(replace(replace(replace(${NOTES_TEMPLATE}, '{airport}', airport), '{flightDate}', flight_date::text),
                   '{email}', email), '{phone}', phone),
           created_at
    from (
      select seq, first_name, last_name, created_at,
             -- The number makes every seeded address unique: an address has one membership at most.
             ${asciiEmailPart(sql`first_name`)} || '.' || ${asciiEmailPart(sql`last_name`)} || (${emailBase}::bigint + seq) || '@' || domain as email,
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
             case when created_at > ${recent} and r_status < 0.35 then 'not_paid'
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
        (null, 'not_paid', 'customer', c.created_at, true),
        ('not_paid', 'paid', 'customer', c.paid_at, c.status in ('paid', 'completed', 'refunded')),
        ('not_paid', 'cancelled', ${BACK_OFFICE_ACTOR}::text, c.closed_at, c.status = 'cancelled'),
        ('paid', 'completed', 'system', c.closed_at, c.status = 'completed'),
        ('paid', 'refunded', ${BACK_OFFICE_ACTOR}::text, c.closed_at, c.status = 'refunded')
      ) e(from_status, to_status, actor_label, at, happened)
      where e.happened
    ),
    -- A refunded order was refunded in full, once: the revenue figures take it off (ADR 031).
    refunded as (
      insert into refunds (order_id, amount, currency, reason, idempotency_key, status, provider_ref, actor_label,
                           created_at)
      select c.id, c.adults * ${adultPrice} + c.children * ${childPrice}, c.currency, ${SEED_REFUND_REASON},
             gen_random_uuid()::text, 'done', ${sandboxGateway.name} || '_re_' || gen_random_uuid(),
             ${BACK_OFFICE_ACTOR}, c.closed_at
      from closed c join inserted using (id)
      where c.status = 'refunded'
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

/** A saved card of the sandbox's, as a membership keeps it: the reference (its unique end left to the SQL), brand and last four. */
export async function savedCard(number: string) {
  // A sandbox of its own, which keeps its answer in memory: nothing of this charge belongs in the data.
  const { paymentMethod } = await createSandboxGateway().charge({
    orderId: "seed",
    idempotencyKey: randomUUID(),
    amount: 100,
    currency: "EUR",
    card: { number, expiryMonth: 12, expiryYear: new Date().getFullYear() + 3, cvv: "123" },
    saveCard: true,
  });
  if (!paymentMethod) throw new Error(`The sandbox did not save the card ending ${number.slice(-4)}`);
  const uuidLength = 36;
  return { refPrefix: paymentMethod.ref.slice(0, -uuidLength), brand: paymentMethod.brand, last4: paymentMethod.last4 };
}

export type SavedCard = Awaited<ReturnType<typeof savedCard>>;

/**
 * Memberships `from` to `to` of this run (of `total`), each for one of this run's customers, spread
 * over them, with their invoices and history: one statement. A membership starts when its customer
 * first paid (or was created, if they never paid), as the trial a first paid fast track starts. Each
 * member is drawn a number of fees they pay before they leave, and how they leave (cancelling for
 * the period's end, or a declined fee unpaid after the reminder's grace); where that puts them today
 * gives their status: in the trial, active, past due, cancelled or ended.
 */
async function insertMemberships(
  db: Database,
  {
    run,
    from,
    to,
    total,
    customerCount,
    cards,
  }: {
    run: string;
    from: number;
    to: number;
    total: number;
    customerCount: number;
    cards: { renewing: SavedCard[]; declining: SavedCard };
  },
) {
  const period = sql.raw(`interval '${MEMBERSHIP_TERMS.periodMonths} months'`);
  const grace = sql.raw(`interval '${MEMBERSHIP_TERMS.reminderGraceDays} days'`);
  const retry = sql.raw(`interval '${MEMBERSHIP_TERMS.retryEveryDays} days'`);
  const reminder = sql.raw(`interval '${MEMBERSHIP_TERMS.trialReminderHours} hours'`);
  const maxAttempts = Math.ceil(MEMBERSHIP_TERMS.reminderGraceDays / MEMBERSHIP_TERMS.retryEveryDays);
  const medium = toMinorUnits(siteConfig.pricing.medium.price);
  const premium = toMinorUnits(siteConfig.pricing.premium.price);
  const renewing = (field: keyof SavedCard) =>
    pick(
      cards.renewing.map((card) => card[field]),
      sql`s.r_card`,
    );
  // The billing job acts a few minutes after a period ends.
  const jobDelay = sql`(1 + 59 * s.r_job) * interval '1 minute'`;
  await db.execute(sql`
    with drawn as materialized (
      select floor(k::numeric * ${customerCount}::bigint / ${total}::bigint)::bigint as seq,
             random() as r_plan, random() as r_currency, random() as r_fate, random() as r_life, random() as r_leave,
             random() as r_request, random() as r_card, random() as r_job
      from generate_series(${from}::bigint, ${to}::bigint - 1) k
    ),
    placed as (
      select d.*, gen_random_uuid() as id, c.id as customer_id, c.email, first_paid.order_id,
             coalesce(first_paid.currency, ${pick(CURRENCY_DRAW, sql`d.r_currency`)}) as currency,
             coalesce(first_paid.paid_at, c.created_at) as started_at,
             d.r_plan * 100 < ${PREMIUM_PERCENT} as premium
      from drawn d join customers c on c.id = ${customerId(run, sql`d.seq`)}
      left join lateral (
        select o.id as order_id, o.currency, p.created_at as paid_at
        from orders o join payments p on p.order_id = o.id
        where o.customer_id = c.id and p.outcome = 'succeeded'
        order by p.created_at limit 1
      ) first_paid on true
    ),
    fated as (
      select p.*, p.started_at + ${MEMBERSHIP_TERMS.trialDays}::int * interval '1 day' as trial_end,
             -- The fees paid before leaving, and how the member leaves.
             case when r_fate * 100 < ${TRIALS_CANCELLED_PERCENT + TRIALS_UNPAID_PERCENT} then 0
                  else least(1 + floor(ln(1 - r_life) / ln(${RENEWAL_CHANCE}::float8))::int, 100) end as lifetime,
             case when r_fate * 100 < ${TRIALS_CANCELLED_PERCENT} then 'cancel'
                  when r_fate * 100 < ${TRIALS_CANCELLED_PERCENT + TRIALS_UNPAID_PERCENT} then 'unpaid'
                  when r_leave * 100 < ${LEAVERS_CANCELLING_PERCENT} then 'cancel'
                  else 'unpaid' end as leaving
      from placed p
    ),
    timed as (
      select f.*,
             -- The fees due by now: one when the trial ends, then one a period.
             case when trial_end > now() then 0
                  else 1 + floor((extract(year from age(now(), trial_end)) * 12 + extract(month from age(now(), trial_end)))
                                 / ${MEMBERSHIP_TERMS.periodMonths}::int)::int end as due,
             trial_end + lifetime * ${period} as leave_at
      from fated f
    ),
    staged as (
      select t.*, due > lifetime as left_already, least(lifetime, due) as paid,
             case when least(lifetime, due) = 0 then 'trialing' else 'active' end as standing,
             -- The period of the last fee paid (or the trial): the one a cancellation is asked for.
             case when least(lifetime, due) = 0 then started_at else trial_end + (least(lifetime, due) - 1) * ${period} end
               as paid_start,
             trial_end + least(lifetime, due) * ${period} as paid_end
      from timed t
    ),
    decided as (
      select s.*,
             case when not left_already then standing
                  when leaving = 'cancel' then 'cancelled'
                  when leave_at + ${grace} <= now() then 'ended'
                  else 'past_due' end as status,
             case when leaving = 'cancel' and due >= lifetime
                  then paid_start + (paid_end - paid_start) * r_request end as requested_at
      from staged s
    ),
    shaped as materialized (
      select d.*, coalesce(requested_at <= now(), false) as cancel_requested
      from decided d
    ),
    inserted as (
      insert into memberships (id, customer_id, email, order_id, plan, currency, price, status, trial_ends_at,
                               billing_anchor, current_period_start, current_period_end, cancel_at_period_end, trial_reminder_sent_at,
                               grace_ends_at, ended_at, payment_method_ref, card_brand, card_last4, created_at, updated_at)
      select s.id, s.customer_id, s.email, s.order_id, case when premium then 'premium' else 'medium' end, s.currency,
             case when premium then ${premium}::int else ${medium}::int end, s.status, s.trial_end, s.trial_end,
             -- A declined fee opened its period before it was declined.
             case when left_already and leaving = 'unpaid' then leave_at else paid_start end,
             case when left_already and leaving = 'unpaid' then leave_at + ${period} else paid_end end,
             s.cancel_requested,
             case when trial_end - ${reminder} <= now()
                       and not (paid = 0 and cancel_requested and requested_at < trial_end - ${reminder})
                  then trial_end - ${reminder} end,
             case when left_already and leaving = 'unpaid' then leave_at + ${grace} end,
             case s.status when 'cancelled' then leave_at when 'ended' then leave_at + ${grace} end,
             case when leaving = 'unpaid' then ${cards.declining.refPrefix} else ${renewing("refPrefix")} end || gen_random_uuid(),
             case when leaving = 'unpaid' then ${cards.declining.brand} else ${renewing("brand")} end,
             case when leaving = 'unpaid' then ${cards.declining.last4} else ${renewing("last4")} end,
             s.started_at,
             least(now(), greatest(s.started_at, case when left_already then leave_at else paid_start end))
      from shaped s
      on conflict (email) do nothing
      returning id, plan, price, currency
    ),
    fees as materialized (
      select s.id as membership_id, i.n, inserted.plan, inserted.price, inserted.currency, s.status,
             s.trial_end + i.n * ${period} as period_start,
             i.n = s.lifetime as declined,
             least(now(), s.trial_end + i.n * ${period} + ${jobDelay}) as paid_at,
             least(${maxAttempts}::int, 1 + floor(extract(epoch from now() - (s.trial_end + i.n * ${period}))
                                             / extract(epoch from ${retry}))::int) as attempts
      from shaped s join inserted using (id)
      cross join lateral generate_series(0, s.paid - 1 + case when s.left_already and s.leaving = 'unpaid' then 1 else 0 end) i(n)
    ),
    numbered as (
      select f.*, extract(year from paid_at at time zone ${COMPANY_TIME_ZONE})::int as paid_year
      from fees f
    ),
    billed as (
      insert into invoices (membership_id, period_start, period_end, amount, currency, status, attempts, next_attempt_at,
                            idempotency_key, provider_ref, last_outcome, paid_at, created_at, updated_at, number)
      select membership_id, period_start, period_start + ${period}, price, currency,
             case when not declined then 'paid' when status = 'ended' then 'uncollectible' else 'open' end,
             case when declined then attempts else 1 end,
             case when declined and status = 'past_due' and period_start + attempts * ${retry} < period_start + ${grace}
                  then period_start + attempts * ${retry} end,
             gen_random_uuid()::text,
             case when not declined then ${sandboxGateway.name} || '_' || gen_random_uuid() end,
             case when declined then 'insufficient_funds' else 'succeeded' end,
             case when not declined then paid_at end,
             period_start,
             case when declined then least(now(), period_start + (attempts - 1) * ${retry}) else paid_at end,
             -- Drawn here, after the year's last number, rather than by the trigger one row at a time:
             -- its series row updated 100,000 times in one statement costs time squared.
             case when not declined then paid_year || '-' || lpad(drawn::text, greatest(6, length(drawn::text)), '0') end
      from (
        select *, coalesce((select last from document_number_series where kind = 'invoice' and year = paid_year), 0)
                  + row_number() over (partition by paid_year, declined order by paid_at, membership_id, n) as drawn
        from numbered
      ) drawn_numbers
      returning number
    ),
    series as (
      insert into document_number_series (kind, year, last)
      select 'invoice', split_part(number, '-', 1)::smallint, max(split_part(number, '-', 2)::int)
      from billed where number is not null group by 2
      on conflict (kind, year) do update set last = greatest(document_number_series.last, excluded.last)
    )
    insert into membership_events (membership_id, from_status, to_status, plan, actor_label, note, created_at)
    select s.id, e.from_status, e.to_status, inserted.plan, e.actor_label, e.note, e.at
    from shaped s join inserted using (id)
    cross join lateral (values
      (null, 'trialing', 'customer', s.started_at, ${`Essai gratuit de ${MEMBERSHIP_TERMS.trialDays} jours`}, true),
      (s.standing, s.standing, 'customer', s.requested_at, 'Résiliation demandée', s.cancel_requested),
      (s.standing, 'cancelled', 'system', least(now(), s.leave_at + ${jobDelay}), 'Fin de la période payée : résiliation effective',
       s.status = 'cancelled'),
      (s.standing, 'past_due', 'system', least(now(), s.leave_at + ${jobDelay}), 'Paiement refusé : rappel envoyé',
       s.left_already and s.leaving = 'unpaid'),
      ('past_due', 'ended', 'system', least(now(), s.leave_at + ${grace} + ${jobDelay}),
       ${`Cotisation impayée ${MEMBERSHIP_TERMS.reminderGraceDays} jours après le rappel`}, s.status = 'ended')
    ) e(from_status, to_status, actor_label, at, note, happened)
    where e.happened
    union all
    select membership_id, case when n = 0 then 'trialing' else 'active' end, 'active', plan, 'system', 'Cotisation payée', paid_at
    from fees where not declined`);
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
 * Fills the database with realistic customers, orders (with their history and payments), memberships
 * (with their invoices and history), contact messages and unsubscribe requests, in SQL, batch by
 * batch. It adds to what is there: the ids, order numbers and addresses it writes cannot collide
 * with earlier ones.
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
  const membershipCount = options.memberships ?? Math.ceil(options.customers / 2);
  if (membershipCount > options.customers) {
    throw new Error("There cannot be more memberships than customers: a membership belongs to one customer.");
  }
  log(
    `Seeding ${format(options.orders)} orders for ${format(options.customers)} customers, ` +
      `${format(membershipCount)} of them members ...`,
  );
  for (let from = 0; from < options.orders; from += batchSize) {
    const to = Math.min(from + batchSize, options.orders);
    if (from < options.customers) {
      await insertCustomers(db, run, from, Math.min(to, options.customers), existingCustomers?.count ?? 0);
      // The orders look their customers up: the planner must know how many there now are.
      await db.execute(sql`analyze customers`);
    }
    await insertOrders(db, { run, from, to, customerCount: options.customers, counterBase });
    log(`  ${format(to)} / ${format(options.orders)} orders (${elapsed()})`);
  }
  if (membershipCount > 0) {
    // The memberships look their customers' first payments up.
    await db.execute(sql`analyze orders, payments`);
    const cards = {
      renewing: await Promise.all(RENEWING_CARDS.map(savedCard)),
      declining: await savedCard(DECLINING_CARD),
    };
    for (let from = 0; from < membershipCount; from += batchSize) {
      const to = Math.min(from + batchSize, membershipCount);
      await insertMemberships(db, { run, from, to, total: membershipCount, customerCount: options.customers, cards });
      log(`  ${format(to)} / ${format(membershipCount)} memberships (${elapsed()})`);
    }
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
