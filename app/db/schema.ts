import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { StoredAttachment } from "~/platform/mail/attachment";
import {
  CURRENCY_CODES,
  DATA_REQUEST_KINDS,
  WITHDRAWAL_SCOPES,
  type CurrencyCode,
  type DataRequestKind,
  type WithdrawalScope,
} from "./enums";

export {
  CURRENCY_CODES,
  DATA_REQUEST_KINDS,
  WITHDRAWAL_SCOPES,
  type CurrencyCode,
  type DataRequestKind,
  type WithdrawalScope,
};

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

// better-auth's tables. The property names are the field names better-auth asks its adapter for.

export const user = pgTable("user", {
  id: text().primaryKey(),
  name: text().notNull(),
  fullName: text(),
  email: text().notNull().unique(),
  emailVerified: boolean().notNull().default(false),
  image: text(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const session = pgTable(
  "session",
  {
    id: text().primaryKey(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    token: text().notNull().unique(),
    ipAddress: text(),
    userAgent: text(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index().on(table.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text().primaryKey(),
    accountId: text().notNull(),
    providerId: text().notNull(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text(),
    refreshToken: text(),
    idToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    scope: text(),
    password: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index().on(table.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text().primaryKey(),
    identifier: text().notNull(),
    value: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index().on(table.identifier)],
);

export const rateLimit = pgTable("rate_limit", {
  id: text().primaryKey(),
  key: text().notNull().unique(),
  count: integer().notNull(),
  lastRequest: bigint({ mode: "number" }).notNull(),
});

// The product's own tables.

export const userRoles = pgTable(
  "user_roles",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text().notNull(),
    createdAt: createdAt(),
  },
  (table) => [unique().on(table.userId, table.role)],
);

export const customers = pgTable(
  "customers",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text().references(() => user.id, { onDelete: "set null" }),
    fullName: text().notNull(),
    /**
     * The address the bookings gave, lower-cased: one customer per address (a new booking from a
     * known address is that customer's), what the back office searches and the confirmation goes to.
     * Null once erased.
     */
    email: text(),
    notes: text(),
    createdAt: createdAt(),
  },
  (table) => [
    index().on(table.userId),
    index().on(table.createdAt, table.id),
    uniqueIndex("customers_email_unique").on(table.email),
    check("customers_email_lower_case", sql`${table.email} = lower(${table.email})`),
    // Trigram indexes: the back office finds customers by any part of their name or e-mail
    // (and the e-mail one also serves exact matches).
    index("customers_full_name_trgm_index").using("gin", sql`lower(${table.fullName}) gin_trgm_ops`),
    index("customers_email_trgm_index").using("gin", sql`${table.email} gin_trgm_ops`),
  ],
);

export const ORDER_STATUSES = ["not_paid", "paid", "completed", "cancelled", "refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const quotedList = (values: readonly string[]) =>
  sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", "));

export const orders = pgTable(
  "orders",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderNumber: text().notNull().unique(),
    /** The invoice's number ("2026-000123", ADR 028), given by the database at the commit of the transaction that first paid the order. */
    invoiceNumber: text().unique(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: "restrict" }),
    /** Minor units (cents) of `currency`. */
    amount: integer().notNull(),
    currency: text().$type<CurrencyCode>().notNull(),
    status: text().$type<OrderStatus>().notNull().default("not_paid"),
    serviceType: text().notNull(),
    business: text().notNull(),
    site: text().notNull(),
    idempotencyKey: text().notNull().unique(),
    flightDate: date(),
    airport: text(),
    adults: integer().notNull(),
    children: integer().notNull().default(0),
    /** The short voucher code read out at a lane ("K7QM-3XPA-TW"), given when the order is paid (ADR 015). */
    voucherShortCode: text().unique(),
    /**
     * The consumer's express request to start within the withdrawal period (CRD Art. 8(8), 16(a)),
     * word for word as the payment page showed it, and when it was given (ADR 019).
     */
    consentWording: text(),
    consentedAt: timestamp({ withTimezone: true }),
    /**
     * The membership whose monthly free accesses this booking spent (ADR 029), and how many: that many
     * passengers were not charged. The month is the Amsterdam month of `createdAt`; a cancelled or
     * refunded order gives them back.
     */
    allowanceMembershipId: uuid().references((): AnyPgColumn => memberships.id, { onDelete: "set null" }),
    freeAccesses: integer().notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index().on(table.createdAt, table.id),
    index().on(table.customerId),
    index().on(table.status, table.createdAt),
    index()
      .on(table.allowanceMembershipId, table.createdAt)
      .where(sql`${table.allowanceMembershipId} is not null`),
    check("orders_amount_non_negative", sql`${table.amount} >= 0`),
    check(
      "orders_free_accesses_within_passengers",
      sql`${table.freeAccesses} >= 0 and ${table.freeAccesses} <= ${table.adults} + ${table.children}`,
    ),
    check("orders_currency_known", sql`${table.currency} in (${quotedList(CURRENCY_CODES)})`),
    check("orders_status_known", sql`${table.status} in (${quotedList(ORDER_STATUSES)})`),
  ],
);

/**
 * The dashboard's totals, kept by statement-level triggers on `orders` (migration 0004, ADR 011):
 * how many orders and how much money per status and currency, spread over slots: each running
 * transaction adds to one it has claimed (`totals_slot`, migration 0037), so that concurrent writers
 * do not wait on one row. The totals are the sums over the slots. Its charged
 * statuses (paid, completed, refunded) are the dashboard's fast tracks per currency (ADR 031).
 */
export const orderTotals = pgTable(
  "order_totals",
  {
    status: text().$type<OrderStatus>().notNull(),
    currency: text().$type<CurrencyCode>().notNull(),
    slot: smallint().notNull(),
    orders: bigint({ mode: "number" }).notNull(),
    /** Minor units of `currency`. */
    amount: bigint({ mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.status, table.currency, table.slot] })],
);

/** How many customers there are, per slot, kept by triggers on `customers` like `order_totals`. */
export const customerTotals = pgTable("customer_totals", {
  slot: smallint().primaryKey(),
  customers: bigint({ mode: "number" }).notNull(),
});

/**
 * The sales statistics' daily figures, kept by statement-level triggers on `orders` like
 * `order_totals` (migration 0006, ADR 012): orders, money and members' free accesses per day (in
 * Amsterdam, as the back office counts days), currency, status and airport, spread over the same
 * slots. A period's statistics read a few rows per day, however many orders there are; their charged
 * statuses are the period's fast tracks (ADR 031).
 */
export const orderDays = pgTable(
  "order_days",
  {
    day: date().notNull(),
    currency: text().$type<CurrencyCode>().notNull(),
    status: text().$type<OrderStatus>().notNull(),
    airport: text(),
    slot: smallint().notNull(),
    orders: bigint({ mode: "number" }).notNull(),
    /** Minor units of `currency`. */
    amount: bigint({ mode: "number" }).notNull(),
    /** The `free_accesses` of the orders that spent a membership's allowance (ADR 029; migration 0032). */
    freeAccesses: bigint({ mode: "number" }).notNull().default(0),
  },
  // An order without an airport has a row of its own: nulls count as one value here.
  (table) => [unique().on(table.day, table.currency, table.status, table.airport, table.slot).nullsNotDistinct()],
);

/** Every status change of an order: who made it (a user, or null for the customer/system) and when. */
export const orderEvents = pgTable(
  "order_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    fromStatus: text().$type<OrderStatus>(),
    toStatus: text().$type<OrderStatus>().notNull(),
    actorUserId: text().references(() => user.id, { onDelete: "set null" }),
    /** Who, for people reading the history: "customer", "system", or the admin's e-mail. */
    actorLabel: text().notNull(),
    note: text(),
    createdAt: createdAt(),
  },
  (table) => [index().on(table.orderId, table.createdAt)],
);

export const payments = pgTable(
  "payments",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    provider: text().notNull(),
    providerRef: text().notNull().unique(),
    brand: text().notNull(),
    last4: text().notNull(),
    amount: integer().notNull(),
    currency: text().$type<CurrencyCode>().notNull(),
    outcome: text().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index().on(table.orderId)],
);

/**
 * A card charge made from our own payment page (the card-form gateway), opened with its idempotency
 * key before the gateway is called and settled once its answer is recorded with the payment. A
 * request that died between the two leaves the charge open: the next attempt for the order sends
 * the same key, and the gateway answers with its first result instead of charging again.
 */
export const cardCharges = pgTable(
  "card_charges",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    idempotencyKey: text().notNull().unique(),
    createdAt: createdAt(),
    settledAt: timestamp({ withTimezone: true }),
  },
  // At most one open charge per order.
  (table) => [
    uniqueIndex()
      .on(table.orderId)
      .where(sql`${table.settledAt} is null`),
  ],
);

/**
 * The sandbox gateway's answers by idempotency key, kept like a real provider keeps them: a key sent
 * again, even after a restart, gets the first answer back. Only the sandbox reads or writes it.
 */
export const sandboxAnswers = pgTable("sandbox_answers", {
  idempotencyKey: text().primaryKey(),
  answer: jsonb().notNull(),
  createdAt: createdAt(),
});

/**
 * A payment opened at a provider whose card fields take the card in the browser (Stripe's payment
 * intent, ADR 018): one per order, so that every visit and retry confirms the same one.
 */
export const hostedPayments = pgTable("hosted_payments", {
  orderId: uuid()
    .primaryKey()
    .references(() => orders.id, { onDelete: "cascade" }),
  provider: text().notNull(),
  ref: text().notNull().unique(),
  /** The provider's customer the card is kept for, when paying starts a membership. */
  customerRef: text(),
  createdAt: createdAt(),
});

/**
 * Every provider event (webhook) acted on, written in the same transaction as its effect: an event
 * delivered again finds its row and changes nothing.
 */
export const providerEvents = pgTable("provider_events", {
  id: text().primaryKey(),
  provider: text().notNull(),
  type: text().notNull(),
  processedAt: createdAt(),
});

/**
 * A provider event (webhook) whose handling failed, kept until it is processed, for the back office
 * to retry (ADR 026). It holds what acting on the event again needs: its type and the id of its
 * object, which the handler reads afresh from the provider; never the event's snapshot.
 */
export const failedProviderEvents = pgTable(
  "failed_provider_events",
  {
    /** The provider's event id, as in `provider_events`. */
    id: text().primaryKey(),
    provider: text().notNull(),
    type: text().notNull(),
    /** The id of the event's object (a payment intent, an invoice…); null when the event names none. */
    objectRef: text(),
    lastError: text().notNull(),
    /** Deliveries and retries that failed. */
    attempts: integer().notNull().default(1),
    firstFailedAt: createdAt(),
    lastFailedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The last time an admin retried it, and who (their e-mail address). */
    retriedAt: timestamp({ withTimezone: true }),
    retriedBy: text(),
  },
  (table) => [index().on(table.lastFailedAt)],
);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Which form sent it: the contact page or the services page. */
    source: text().notNull(),
    name: text().notNull(),
    email: text().notNull(),
    phone: text(),
    message: text().notNull(),
    status: text().notNull().default("new"),
    createdAt: createdAt(),
  },
  (table) => [index().on(table.createdAt)],
);

export const unsubscribeRequests = pgTable(
  "unsubscribe_requests",
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    /** SHA-256 of the single-use confirmation token; the token itself only travels by e-mail. */
    tokenHash: text().notNull().unique(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    confirmedAt: timestamp({ withTimezone: true }),
    status: text().notNull().default("new"),
    createdAt: createdAt(),
  },
  (table) => [index().on(table.createdAt), index().on(table.email)],
);

export const outbox = pgTable(
  "outbox",
  {
    id: uuid().primaryKey().defaultRandom(),
    to: text().notNull(),
    subject: text().notNull(),
    /** Empty while a templated mail waits to be composed by the worker (`template`). */
    textBody: text().notNull(),
    htmlBody: text(),
    /**
     * Files sent with the mail (content base64), kept with it so a crash before sending loses none;
     * a file the same in every mail of its kind is named by its hash in `mail_files`.
     */
    attachments: jsonb().$type<StoredAttachment[]>(),
    /**
     * A mail queued as data for the worker to compose (`MailTemplate`): the template's name and its
     * data, until the worker writes the body and files above and clears both.
     */
    template: text(),
    templateData: jsonb(),
    status: text().notNull().default("pending"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    sentAt: timestamp({ withTimezone: true }),
    /** When the worker gave the mail up (status 'failed'). */
    failedAt: timestamp({ withTimezone: true }),
    /** The last time an admin sent a failed mail again, and who (their e-mail address). */
    retriedAt: timestamp({ withTimezone: true }),
    retriedBy: text(),
    createdAt: createdAt(),
  },
  (table) => [
    // The worker's claim, due mails by their next attempt, and its pass over held mails (no SMTP), in
    // the order they were queued: each reads only the unsent rows, a batch at a time, however many
    // wait or were sent before.
    index("outbox_due_index")
      .on(table.nextAttemptAt)
      .where(sql`${table.status} in ('pending', 'sending')`),
    index("outbox_held_index")
      .on(table.createdAt, table.id)
      .where(sql`${table.status} = 'pending'`),
    // The back office's list of failed mails, newest first.
    index("outbox_failed_created_at_id_index")
      .on(table.createdAt, table.id)
      .where(sql`${table.status} = 'failed'`),
  ],
);

/**
 * The files that are the same in every mail of a kind (the terms), each kept once under the SHA-256
 * of its content (base64) for the outbox rows that name it. Never deleted: a worker remembers which
 * it has written, and a row names its file for as long as the row is kept.
 */
export const mailFiles = pgTable("mail_files", {
  sha256: text().primaryKey(),
  content: text().notNull(),
  createdAt: createdAt(),
});

// Data-protection requests (GDPR art. 15, 17, 20) and what the back office did about each.

export const dataRequests = pgTable(
  "data_requests",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** The address the person wrote from, whose data the request is about. */
    email: text().notNull(),
    kind: text().$type<DataRequestKind>().notNull(),
    /** The calendar day the request reached us: the one-month deadline runs from it. */
    receivedOn: date().notNull(),
    /** When the export or erasure that answers the request was done; null while it is open. */
    completedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index().on(table.completedAt, table.receivedOn),
    check("data_requests_kind_known", sql`${table.kind} in (${quotedList(DATA_REQUEST_KINDS)})`),
  ],
);

export const DATA_REQUEST_ACTIONS = ["recorded", "exported", "erased"] as const;
export type DataRequestAction = (typeof DATA_REQUEST_ACTIONS)[number];

/** Who did what about a data request, and when. The actor's e-mail stays after their account goes. */
export const dataRequestEvents = pgTable(
  "data_request_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    dataRequestId: uuid()
      .notNull()
      .references(() => dataRequests.id, { onDelete: "cascade" }),
    action: text().$type<DataRequestAction>().notNull(),
    actorUserId: text().references(() => user.id, { onDelete: "set null" }),
    actorEmail: text().notNull(),
    /** Counts of what an export held or an erasure removed; never personal data. */
    counts: jsonb().$type<Record<string, number>>(),
    createdAt: createdAt(),
  },
  (table) => [
    index().on(table.dataRequestId, table.createdAt),
    check("data_request_events_action_known", sql`${table.action} in (${quotedList(DATA_REQUEST_ACTIONS)})`),
  ],
);

// Memberships (ADR 016): the trial a first fast track starts, then a fee every quarter.

export const MEMBERSHIP_STATUSES = ["trialing", "active", "past_due", "cancelled", "ended"] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

export const PROVIDER_CANCELS = ["now", "period-end", "notice"] as const;
export type ProviderCancel = (typeof PROVIDER_CANCELS)[number];

export const MEMBERSHIP_PLANS = ["medium", "premium"] as const;
export type MembershipPlan = (typeof MEMBERSHIP_PLANS)[number];

export const memberships = pgTable(
  "memberships",
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: "restrict" }),
    /**
     * The address the membership belongs to, lower-cased. Unique: an address gets one trial, ever
     * (until an erasure clears it).
     */
    email: text().unique(),
    /** The order whose payment started the trial. */
    orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    plan: text().$type<MembershipPlan>().notNull(),
    currency: text().$type<CurrencyCode>().notNull(),
    /** The fee per quarter in minor units of `currency`, fixed when the membership starts. */
    price: integer().notNull(),
    status: text().$type<MembershipStatus>().notNull(),
    trialEndsAt: timestamp({ withTimezone: true }).notNull(),
    /**
     * The billing cycle anchor: the n-th paid period starts n quarters after it, on its day of the
     * month or a shorter month's last day (`billingPeriod`, ADR 016). The trial's end.
     */
    billingAnchor: timestamp({ withTimezone: true }).notNull(),
    currentPeriodStart: timestamp({ withTimezone: true }).notNull(),
    /** When the period paid for (or the trial) ends: the next charge is due then. */
    currentPeriodEnd: timestamp({ withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    /** When the "first charge tomorrow" e-mail went, so that it goes once. */
    trialReminderSentAt: timestamp({ withTimezone: true }),
    /** While past due: the payment reminder's date plus 7 days, when the membership ends if still unpaid. */
    graceEndsAt: timestamp({ withTimezone: true }),
    endedAt: timestamp({ withTimezone: true }),
    /** The gateway's reusable reference for the card; never the number or CVV. */
    paymentMethodRef: text().notNull(),
    /** Set when the provider bills the membership itself (a Stripe subscription): our billing job leaves it alone. */
    providerSubscriptionRef: text().unique(),
    /**
     * A cancellation decided here that the provider has not confirmed yet (ADR 018): written with
     * the cancellation, cleared once the provider is told, and told again by the follow-up job if
     * the provider failed to answer. 'now' ends its subscription at once, 'period-end' when the
     * period ends, 'notice' at `currentPeriodEnd`, which one month's notice brought forward.
     */
    providerCancel: text().$type<ProviderCancel>(),
    /** The provider's customer that holds the card, with a provider-billed membership. */
    providerCustomerRef: text(),
    cardBrand: text().notNull(),
    cardLast4: text().notNull(),
    /**
     * A membership started at its own checkout: the request to start the trial within the withdrawal
     * period, word for word as the page showed it, and when it was given (ADR 019). One started by a
     * fast track's payment has them on its order.
     */
    consentWording: text(),
    consentedAt: timestamp({ withTimezone: true }),
    /** The membership checkout's form key: the same form sent twice starts one trial, and is answered with it. */
    checkoutKey: text().unique(),
    /** A move to a cheaper plan, asked for and due when the paid quarter ends: the billing job makes it (ADR 030). */
    scheduledPlan: text().$type<MembershipPlan>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index().on(table.createdAt, table.id),
    index().on(table.status, table.createdAt, table.id),
    index().on(table.customerId),
    // The membership an order started: the account's bookings and the confirmation page ask for it.
    index().on(table.orderId),
    // The billing job's two questions: whose period ends now, and whose grace is over.
    index()
      .on(table.currentPeriodEnd)
      .where(sql`${table.status} in ('trialing', 'active')`),
    index()
      .on(table.graceEndsAt)
      .where(sql`${table.status} = 'past_due'`),
    check("memberships_price_positive", sql`${table.price} > 0`),
    check("memberships_currency_known", sql`${table.currency} in (${quotedList(CURRENCY_CODES)})`),
    check("memberships_status_known", sql`${table.status} in (${quotedList(MEMBERSHIP_STATUSES)})`),
    check("memberships_plan_known", sql`${table.plan} in (${quotedList(MEMBERSHIP_PLANS)})`),
    check("memberships_scheduled_plan_known", sql`${table.scheduledPlan} in (${quotedList(MEMBERSHIP_PLANS)})`),
    check("memberships_provider_cancel_known", sql`${table.providerCancel} in (${quotedList(PROVIDER_CANCELS)})`),
    index()
      .on(table.updatedAt)
      .where(sql`${table.providerCancel} is not null`),
  ],
);

/**
 * The dashboard's membership figures, kept by statement-level triggers on `memberships` like
 * `order_totals` (migration 0012, ADR 017): members per status, plan and currency, and the quarterly
 * fees of those that will be charged next, spread over the same slots. The figures are the sums over
 * the slots.
 */
export const membershipTotals = pgTable(
  "membership_totals",
  {
    status: text().$type<MembershipStatus>().notNull(),
    plan: text().$type<MembershipPlan>().notNull(),
    currency: text().$type<CurrencyCode>().notNull(),
    slot: smallint().notNull(),
    members: bigint({ mode: "number" }).notNull(),
    /**
     * Minor units of `currency`: the fees of the members charged at their period's end (trialing or
     * active, not cancelled for then), zero for the others.
     */
    recurring: bigint({ mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.status, table.plan, table.currency, table.slot] })],
);

/**
 * The statistics' daily membership figures, kept by statement-level triggers on `membership_events`
 * like `order_days` (migration 0012, ADR 017): how many entries of the history went from one status
 * to another per day (in Amsterdam), plan and plan before (migration 0032, ADR 030), in the same
 * slots. A trial's start has no `fromStatus`; an entry that changed no plan has no `fromPlan`.
 */
export const membershipDays = pgTable(
  "membership_days",
  {
    day: date().notNull(),
    fromStatus: text().$type<MembershipStatus>(),
    toStatus: text().$type<MembershipStatus>().notNull(),
    slot: smallint().notNull(),
    events: bigint({ mode: "number" }).notNull(),
    plan: text().$type<MembershipPlan>().notNull(),
    fromPlan: text().$type<MembershipPlan>(),
  },
  // A trial's start, or an entry that kept its plan, has a row of its own: nulls count as one value here.
  (table) => [
    unique().on(table.day, table.fromStatus, table.toStatus, table.plan, table.fromPlan, table.slot).nullsNotDistinct(),
  ],
);

/** Every change of a membership: status transitions, renewals, cancellation requests, with who and when. */
export const membershipEvents = pgTable(
  "membership_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    membershipId: uuid()
      .notNull()
      .references(() => memberships.id, { onDelete: "cascade" }),
    fromStatus: text().$type<MembershipStatus>(),
    toStatus: text().$type<MembershipStatus>().notNull(),
    actorUserId: text().references(() => user.id, { onDelete: "set null" }),
    /** "customer", "system", or the admin's e-mail address. */
    actorLabel: text().notNull(),
    note: text(),
    /** The membership's plan after the event. */
    plan: text().$type<MembershipPlan>().notNull(),
    /** The plan before, when the event changed it (ADR 030); null otherwise. */
    fromPlan: text().$type<MembershipPlan>(),
    createdAt: createdAt(),
  },
  (table) => [
    index().on(table.membershipId, table.createdAt),
    index().on(table.toStatus, table.createdAt),
    check("membership_events_plan_changed", sql`${table.fromPlan} is null or ${table.fromPlan} <> ${table.plan}`),
  ],
);

export const PLAN_CHANGE_STATUSES = ["charging", "done", "declined"] as const;
export type PlanChangeStatus = (typeof PLAN_CHANGE_STATUSES)[number];

/**
 * A move to a dearer plan during a paid quarter (ADR 030): the difference for the rest of the quarter
 * is charged at once. The row, with its idempotency key, is written before the gateway is called and
 * settled after: 'charging' until the answer is recorded, then 'done' (the plan changed, `invoiceId`
 * the paid difference) or 'declined' (nothing changed).
 */
export const planChanges = pgTable(
  "plan_changes",
  {
    id: uuid().primaryKey().defaultRandom(),
    membershipId: uuid()
      .notNull()
      .references(() => memberships.id, { onDelete: "cascade" }),
    fromPlan: text().$type<MembershipPlan>().notNull(),
    toPlan: text().$type<MembershipPlan>().notNull(),
    /** The prorated difference, minor units of `currency`. */
    amount: integer().notNull(),
    /**
     * For a membership its provider bills: the instant the provider prorates the difference at, the
     * one its preview priced, sent again with the same key when the change is finished (ADR 030).
     */
    prorationDate: timestamp({ withTimezone: true }),
    currency: text().$type<CurrencyCode>().notNull(),
    /** The form's key: the same request sent twice is one change and one charge. */
    idempotencyKey: text().notNull().unique(),
    status: text().$type<PlanChangeStatus>().notNull().default("charging"),
    invoiceId: uuid().references(() => invoices.id, { onDelete: "set null" }),
    lastOutcome: text(),
    actorUserId: text().references(() => user.id, { onDelete: "set null" }),
    actorLabel: text().notNull(),
    createdAt: createdAt(),
    settledAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index().on(table.membershipId, table.createdAt),
    check("plan_changes_amount_positive", sql`${table.amount} > 0`),
    check("plan_changes_status_known", sql`${table.status} in (${quotedList(PLAN_CHANGE_STATUSES)})`),
  ],
);

export const INVOICE_STATUSES = ["open", "paid", "refunded", "uncollectible", "void"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** One quarter's fee: created when it falls due, charged (and retried) by the billing job. */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid().primaryKey().defaultRandom(),
    membershipId: uuid()
      .notNull()
      .references(() => memberships.id, { onDelete: "restrict" }),
    periodStart: timestamp({ withTimezone: true }).notNull(),
    periodEnd: timestamp({ withTimezone: true }).notNull(),
    /** Minor units of `currency`. */
    amount: integer().notNull(),
    currency: text().$type<CurrencyCode>().notNull(),
    status: text().$type<InvoiceStatus>().notNull().default("open"),
    attempts: integer().notNull().default(0),
    /** When the job tries (again) to charge an open invoice. */
    nextAttemptAt: timestamp({ withTimezone: true }),
    /** Sent to the gateway with the attempt number, so that a retried attempt never charges twice. */
    idempotencyKey: text().notNull().unique(),
    /**
     * Set by the billing job when it takes the invoice to charge its next attempt (`attempts` + 1),
     * before the gateway is asked outside any transaction; cleared when the answer is recorded. Another
     * run leaves a recent one alone; one left by a dead run is charged again under the same key (ADR 016).
     */
    chargingSince: timestamp({ withTimezone: true }),
    /** The gateway's reference of the successful charge. */
    providerRef: text(),
    lastOutcome: text(),
    paidAt: timestamp({ withTimezone: true }),
    /** Its number in the invoice series ("2026-000124", ADR 028), given by the database when it is paid. */
    number: text().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // However many job instances run, one invoice per period.
    unique().on(table.membershipId, table.periodStart),
    index()
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'open'`),
    index()
      .on(table.chargingSince)
      .where(sql`${table.chargingSince} is not null`),
    index().on(table.status, table.paidAt),
    check("invoices_amount_positive", sql`${table.amount} > 0`),
    check("invoices_currency_known", sql`${table.currency} in (${quotedList(CURRENCY_CODES)})`),
    check("invoices_status_known", sql`${table.status} in (${quotedList(INVOICE_STATUSES)})`),
  ],
);

export const REFUND_STATUSES = ["pending", "done"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Money given back through the gateway, for an order or an invoice, with why, who and when. */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid().references(() => orders.id, { onDelete: "restrict" }),
    invoiceId: uuid().references(() => invoices.id, { onDelete: "restrict" }),
    /** Minor units of `currency`. */
    amount: integer().notNull(),
    currency: text().$type<CurrencyCode>().notNull(),
    reason: text().notNull(),
    idempotencyKey: text().notNull().unique(),
    /**
     * 'pending' from before the gateway is asked (the amount already counts against what may be
     * refunded) until its answer is recorded; 'done' then (ADR 004).
     */
    status: text().$type<RefundStatus>().notNull().default("done"),
    /** The charge being refunded, kept so that a pending refund can be finished after a crash. */
    chargeRef: text(),
    /** The gateway's id of this refund, once done: one row per refund, however it reached our ledger (ADR 018). */
    providerRef: text().unique(),
    actorUserId: text().references(() => user.id, { onDelete: "set null" }),
    actorLabel: text().notNull(),
    /** The credit note's number ("C2026-000007", ADR 028), given by the database once the refund is done. */
    creditNoteNumber: text().unique(),
    createdAt: createdAt(),
  },
  (table) => [
    index().on(table.orderId),
    index().on(table.invoiceId),
    check("refunds_amount_positive", sql`${table.amount} > 0`),
    check("refunds_one_target", sql`(${table.orderId} is null) <> (${table.invoiceId} is null)`),
    check("refunds_status_known", sql`${table.status} in (${quotedList(REFUND_STATUSES)})`),
    check("refunds_done_has_provider_ref", sql`${table.status} = 'pending' or ${table.providerRef} is not null`),
    index()
      .on(table.createdAt)
      .where(sql`${table.status} = 'pending'`),
  ],
);

export const REVENUE_KINDS = [
  /** Fees charged: invoices 'paid', and 'refunded' ones, which were paid first (their refunds are `fee_refund`). */
  "fee",
  /** Refunds made ('done') of orders. */
  "order_refund",
  /** Refunds made ('done') of fees. */
  "fee_refund",
] as const;
export type RevenueKind = (typeof REVENUE_KINDS)[number];

/**
 * The money of fees and refunds per kind and currency, kept by statement-level triggers on `invoices`
 * and `refunds` like `order_totals` (migration 0031, ADR 031), in the same slots. With `order_totals`
 * (orders that were charged) it gives the dashboard's fast tracks, fees, refunds and net per currency.
 */
export const revenueTotals = pgTable(
  "revenue_totals",
  {
    kind: text().$type<RevenueKind>().notNull(),
    currency: text().$type<CurrencyCode>().notNull(),
    slot: smallint().notNull(),
    /** Minor units of `currency`, positive for refunds too. */
    amount: bigint({ mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.kind, table.currency, table.slot] })],
);

/**
 * `revenue_totals` per Amsterdam day, for the statistics (migration 0031, ADR 031): a fee counts on the
 * day it was paid, a refund on the day it was asked of the gateway (its row's creation).
 */
export const revenueDays = pgTable(
  "revenue_days",
  {
    day: date().notNull(),
    kind: text().$type<RevenueKind>().notNull(),
    currency: text().$type<CurrencyCode>().notNull(),
    slot: smallint().notNull(),
    /** Minor units of `currency`, positive for refunds too. */
    amount: bigint({ mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.kind, table.currency, table.slot] })],
);

export const WITHDRAWAL_OUTCOMES = [
  /** Matched a contract within its withdrawal period: the membership ended and the refund was made. */
  "withdrawn",
  /** Matched a contract whose withdrawal period had ended: nothing changed, the consumer was told. */
  "late",
  /** Matched nothing: kept for the back office to look into. */
  "unmatched",
] as const;
export type WithdrawalOutcome = (typeof WITHDRAWAL_OUTCOMES)[number];

/**
 * Every statement made through the withdrawal function (CRD Art. 11a, ADR 019), as the consumer
 * typed it, with when it was received and what it did.
 */
export const withdrawals = pgTable(
  "withdrawals",
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    /** The order or membership number as typed. */
    contractNumber: text().notNull(),
    /** Lower-cased. */
    email: text().notNull(),
    outcome: text().$type<WithdrawalOutcome>().notNull(),
    scope: text().$type<WithdrawalScope>().notNull(),
    orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    membershipId: uuid().references(() => memberships.id, { onDelete: "set null" }),
    /** From the confirmation step's form: sending it twice records one withdrawal. */
    idempotencyKey: text().notNull().unique(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index().on(table.receivedAt, table.id),
    // The back office's list filtered by outcome, and the hourly cap on unmatched statements.
    index().on(table.outcome, table.receivedAt, table.id),
    index().on(table.orderId),
    index().on(table.membershipId),
    check("withdrawals_outcome_known", sql`${table.outcome} in (${quotedList(WITHDRAWAL_OUTCOMES)})`),
    check("withdrawals_scope_known", sql`${table.scope} in (${quotedList(WITHDRAWAL_SCOPES)})`),
  ],
);

/**
 * Unmatched withdrawal statements not kept because the hour's cap was reached (a flood of junk
 * statements, ADR 019): counted per hour, for the back office to see.
 */
export const withdrawalOverflow = pgTable("withdrawal_overflow", {
  hour: timestamp({ withTimezone: true }).primaryKey(),
  count: integer().notNull(),
});

// The scheduled jobs' runs (ADR 026), for the back office's system page.

export const JOB_NAMES = ["retention", "billing"] as const;
export type JobName = (typeof JOB_NAMES)[number];

export const JOB_RUN_OUTCOMES = [
  /** The run did its work (maybe finding nothing to do). */
  "done",
  /** Another run (another instance, or the CLI) held the job's lock: this one left the work to it. */
  "skipped",
  "failed",
  /** Under way: a run records itself when it starts, so that one killed midway leaves a trace. */
  "started",
  /** Found still "started" long after it began, at a server's boot: its process died during the run. */
  "interrupted",
] as const;
export type JobRunOutcome = (typeof JOB_RUN_OUTCOMES)[number];

/** One run of a scheduled job; the last few of each job and outcome are kept. */
export const jobRuns = pgTable(
  "job_runs",
  {
    id: uuid().primaryKey().defaultRandom(),
    job: text().$type<JobName>().notNull(),
    outcome: text().$type<JobRunOutcome>().notNull(),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    /** Null while the run is under way (or was when its process died). */
    finishedAt: timestamp({ withTimezone: true }),
    /** What the run did, as counts: never who. */
    counts: jsonb().$type<Record<string, number>>(),
    error: text(),
  },
  (table) => [
    index().on(table.job, table.outcome, table.startedAt),
    index().on(table.job, table.startedAt),
    check("job_runs_job_known", sql`${table.job} in (${quotedList(JOB_NAMES)})`),
    check("job_runs_outcome_known", sql`${table.outcome} in (${quotedList(JOB_RUN_OUTCOMES)})`),
  ],
);

export const DOCUMENT_KINDS = ["invoice", "credit_note"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/**
 * The yearly series invoice and credit-note numbers are drawn from (ADR 028): each kind's last
 * number of each year, in Amsterdam. Drawn by triggers in the transaction that pays or refunds (an
 * order's at its commit), so a rolled-back payment gives its number back and the series has no gaps.
 */
export const documentNumberSeries = pgTable(
  "document_number_series",
  {
    kind: text().$type<DocumentKind>().notNull(),
    year: smallint().notNull(),
    last: integer().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.kind, table.year] }),
    check("document_number_series_kind_known", sql`${table.kind} in (${quotedList(DOCUMENT_KINDS)})`),
  ],
);
