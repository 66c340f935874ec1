import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { STRIPE_API_VERSION } from "../../../app/features/payments/stripe/stripe-client.server";
import { FakeStripeState, randomToken, type StripeEvent } from "./fake-stripe-state";
import {
  type FormParams,
  type StripeErrorBody,
  StripeApiError,
  invalidRequest,
  parseFormBody,
  readStrings,
  readText,
} from "./request-params";

export type { StripeEvent };

export interface RecordedRequest {
  method: string;
  path: string;
  /** The parsed body (POST) or query, with any card number and CVC replaced by "[redacted]". */
  params: FormParams;
  idempotencyKey?: string;
  key: "secret" | "publishable" | "none";
  at: Date;
}

export interface WebhookDelivery {
  eventId: string;
  type: string;
  status: number | "error";
}

export interface Outage {
  status?: number;
  delayMs?: number;
  paths?: RegExp;
}

export interface FakeStripeOptions {
  port?: number;
  webhookUrl?: string;
  /** The account's statement descriptor, as its public details in Stripe's dashboard set it; unset, none. */
  statementDescriptor?: string;
}

export interface FakeStripe {
  origin: string;
  jsUrl: string;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  requests: RecordedRequest[];
  setWebhookUrl(url: string | undefined): void;
  deliveries: WebhookDelivery[];
  events: StripeEvent[];
  signedDelivery(
    event: object,
    options?: { secret?: string; timestamp?: number },
  ): { payload: string; signature: string };
  deliver(eventId: string): Promise<number>;
  autoDeliver: boolean;
  /** The account's statement descriptor (`settings.payments.statement_descriptor`), changed as in the dashboard. */
  statementDescriptor: string | null;
  outage: Outage | undefined;
  advance(to: Date): Promise<void>;
  /** Resolves once every event queued for automatic delivery has been sent. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

type Key = "secret" | "publishable";
interface Route {
  method: string;
  pattern: RegExp;
  /** The top-level parameters the fake reads; `expand` is always allowed. */
  params: string[];
  publishable: boolean;
  run(params: FormParams, id: string, key: Key): unknown;
}

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Stripe-Version, Idempotency-Key, Stripe-Account",
  "Access-Control-Max-Age": "600",
};

const stripeJs = readFileSync(new URL("./fake-stripe-v3.js", import.meta.url), "utf8");

function redacted(params: FormParams): FormParams {
  const card = params.card;
  if (typeof card !== "object" || Array.isArray(card)) return params;
  const hidden = Object.fromEntries(["number", "cvc"].filter((key) => key in card).map((key) => [key, "[redacted]"]));
  return { ...params, card: { ...card, ...hidden } };
}

function readBody(request: IncomingMessage) {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** An offline stand-in for api.stripe.com and js.stripe.com/v3, for tests and manual runs. */
export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const secretKey = `sk_test_fake${randomToken(24)}`;
  const publishableKey = `pk_test_fake${randomToken(24)}`;
  const webhookSecret = `whsec_${randomToken(32)}`;
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error("fake Stripe failed to answer", error);
      if (!response.headersSent) send(response, 500, { error: { type: "api_error", message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let webhookUrl = options.webhookUrl;
  let queue = Promise.resolve();
  const state = new FakeStripeState({
    origin,
    pendingWebhooks: () => (webhookUrl ? 1 : 0),
    onEvent(event) {
      if (!fake.autoDeliver || !webhookUrl) return;
      // After the answer to the call that caused it, as Stripe sends events on its own time.
      queue = queue
        .then(() => new Promise((resolve) => setImmediate(resolve)))
        .then(() => deliver(event.id))
        .then(
          () => undefined,
          () => undefined,
        );
    },
  });
  const idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();

  function signedDelivery(event: object, signing: { secret?: string; timestamp?: number } = {}) {
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: signing.secret ?? webhookSecret,
      timestamp: signing.timestamp ?? Math.floor(Date.now() / 1000),
    });
    return { payload, signature };
  }

  async function deliver(eventId: string) {
    const event = state.get("event", eventId);
    if (!webhookUrl) throw new Error("fake Stripe has no webhook URL to deliver to: call setWebhookUrl first");
    const { payload, signature } = signedDelivery(event);
    try {
      const answer = await fetch(webhookUrl, {
        method: "POST",
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "Stripe-Signature": signature,
          "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      await answer.arrayBuffer();
      fake.deliveries.push({ eventId, type: event.type, status: answer.status });
      return answer.status;
    } catch (error) {
      fake.deliveries.push({ eventId, type: event.type, status: "error" });
      throw error;
    }
  }

  const route = (method: string, path: string, params: string, run: Route["run"], publishable = false): Route => ({
    method,
    pattern: new RegExp(`^${path.replace(":id", "([^/]+)")}$`),
    params: params.split(" ").filter(Boolean),
    publishable,
    run,
  });
  const list = "limit starting_after";
  const routes: Route[] = [
    // The account the secret key belongs to (GET /v1/account): only what the site reads of it.
    route("GET", "/v1/account", "", () => ({
      id: `acct_${secretKey.slice(-16)}`,
      object: "account",
      settings: {
        payments: { statement_descriptor: fake.statementDescriptor },
        card_payments: { statement_descriptor_prefix: null },
      },
    })),
    route("POST", "/v1/customers", "email name description metadata payment_method invoice_settings", (p) =>
      state.createCustomer(p),
    ),
    route("GET", "/v1/customers/:id", "", (_, id) => state.get("customer", id)),
    route("POST", "/v1/customers/:id", "email name description metadata invoice_settings", (p, id) =>
      state.updateCustomer(id, p),
    ),
    route(
      "POST",
      "/v1/payment_methods",
      "type card billing_details metadata",
      (p) => state.createPaymentMethod(p),
      true,
    ),
    route("GET", "/v1/payment_methods/:id", "", (_, id) => state.get("payment_method", id)),
    route("POST", "/v1/payment_methods/:id/attach", "customer", (p, id) => state.attachPaymentMethod(id, p)),
    route(
      "POST",
      "/v1/payment_intents",
      "amount currency customer payment_method_types setup_future_usage metadata description payment_method confirm off_session",
      (p) => state.createPaymentIntent(p),
    ),
    route(
      "GET",
      "/v1/payment_intents/:id",
      "client_secret",
      (p, id, key) =>
        key === "publishable"
          ? state.intentForClient(id, readText(p, "client_secret"))
          : state.get("payment_intent", id),
      true,
    ),
    route(
      "POST",
      "/v1/payment_intents/:id",
      "amount currency customer description metadata payment_method setup_future_usage",
      (p, id) => state.updatePaymentIntent(id, p),
    ),
    route(
      "POST",
      "/v1/payment_intents/:id/confirm",
      "payment_method client_secret off_session setup_future_usage",
      (p, id, key) => {
        if (key === "publishable") state.intentForClient(id, readText(p, "client_secret"));
        return state.confirmPaymentIntent(id, p);
      },
      true,
    ),
    route("POST", "/v1/payment_intents/:id/cancel", "cancellation_reason", (_, id) => state.cancelPaymentIntent(id)),
    route(
      "POST",
      "/v1/payment_intents/:id/authenticate",
      "result client_secret",
      (p, id, key) => {
        if (key === "publishable") state.intentForClient(id, readText(p, "client_secret"));
        return state.authenticatePaymentIntent(id, p);
      },
      true,
    ),
    route("POST", "/v1/setup_intents", "customer usage payment_method_types metadata", (p) =>
      state.createSetupIntent(p),
    ),
    route(
      "GET",
      "/v1/setup_intents/:id",
      "client_secret",
      (p, id, key) =>
        key === "publishable"
          ? state.setupIntentForClient(id, readText(p, "client_secret"))
          : state.get("setup_intent", id),
      true,
    ),
    route(
      "POST",
      "/v1/setup_intents/:id/confirm",
      "payment_method client_secret",
      (p, id, key) => {
        if (key === "publishable") state.setupIntentForClient(id, readText(p, "client_secret"));
        return state.confirmSetupIntent(id, p);
      },
      true,
    ),
    route(
      "POST",
      "/v1/setup_intents/:id/authenticate",
      "result client_secret",
      (p, id, key) => {
        if (key === "publishable") state.setupIntentForClient(id, readText(p, "client_secret"));
        return state.authenticateSetupIntent(id, p);
      },
      true,
    ),
    route("GET", "/v1/charges/:id", "", (_, id) => state.get("charge", id)),
    route("POST", "/v1/refunds", "payment_intent charge amount reason metadata", (p) => state.createRefund(p)),
    route("GET", "/v1/refunds", `charge payment_intent ${list}`, (p) => state.listRefunds(p)),
    route("GET", "/v1/refunds/:id", "", (_, id) => state.get("refund", id)),
    route("POST", "/v1/products", "id name description active metadata", (p) => state.createProduct(p)),
    route("GET", "/v1/products/:id", "", (_, id) => state.get("product", id)),
    route(
      "POST",
      "/v1/prices",
      "product product_data unit_amount currency recurring lookup_key transfer_lookup_key nickname active metadata",
      (p) => state.createPrice(p),
    ),
    route("GET", "/v1/prices", `lookup_keys product active ${list}`, (p) => state.listPrices(p)),
    route("GET", "/v1/prices/:id", "", (_, id) => state.get("price", id)),
    route(
      "POST",
      "/v1/subscriptions",
      "customer items trial_period_days trial_end default_payment_method metadata payment_behavior off_session",
      (p) => state.createSubscription(p),
    ),
    route("GET", "/v1/subscriptions/:id", "", (_, id) => state.get("subscription", id)),
    route(
      "POST",
      "/v1/subscriptions/:id",
      "cancel_at_period_end cancel_at proration_behavior proration_date payment_behavior off_session items default_payment_method metadata trial_end",
      (p, id) => state.updateSubscription(id, p),
    ),
    route("DELETE", "/v1/subscriptions/:id", "", (_, id) => state.cancelSubscription(id)),
    route("GET", "/v1/invoices", `subscription customer status ${list}`, (p) => state.listInvoices(p)),
    route("POST", "/v1/invoices/create_preview", "customer subscription subscription_details", (p) =>
      state.previewInvoice(p),
    ),
    route("GET", "/v1/invoices/:id", "", (_, id) => state.get("invoice", id)),
    route("POST", "/v1/invoices/:id/pay", "payment_method off_session", (p, id) => state.payInvoice(id, p)),
    route("GET", "/v1/invoice_payments", `invoice ${list}`, (p) => state.listInvoicePayments(p)),
    route("GET", "/v1/events", `type types ${list}`, (p) => state.listEvents(p)),
    route("GET", "/v1/events/:id", "", (_, id) => state.get("event", id)),
  ];

  function keyOf(authorization: string | undefined): Key | "none" | "wrong" {
    if (!authorization) return "none";
    const [scheme = "", credentials = ""] = authorization.split(" ");
    const given =
      scheme.toLowerCase() === "basic" ? Buffer.from(credentials, "base64").toString().split(":")[0] : credentials;
    return given === secretKey ? "secret" : given === publishableKey ? "publishable" : "wrong";
  }

  /** The status and body of one /v1 call, the resource's work done. */
  function answer(method: string, path: string, params: FormParams, key: ReturnType<typeof keyOf>) {
    if (key === "none" || key === "wrong") {
      const message =
        key === "none"
          ? "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')."
          : "Invalid API Key provided.";
      return { status: 401, body: { error: { type: "invalid_request_error", message } } };
    }
    let id = "";
    const found = routes.find((candidate) => {
      const match = candidate.method === method && candidate.pattern.exec(path);
      if (match) id = decodeURIComponent(match[1] ?? "");
      return match;
    });
    const asSeen = (value: unknown) =>
      key === "publishable" && (value as { object?: string } | null)?.object === "payment_intent"
        ? state.publicView(value as Parameters<typeof state.publicView>[0])
        : value;
    try {
      if (!found) {
        throw new StripeApiError(404, {
          type: "invalid_request_error",
          message: `Unrecognized request URL (${method}: ${path}).`,
        });
      }
      if (key === "publishable" && !found.publishable) {
        throw new StripeApiError(401, {
          type: "invalid_request_error",
          message: "This API call cannot be made with a publishable API key. Please use a secret API key.",
        });
      }
      const unknown = Object.keys(params).find((name) => name !== "expand" && !found.params.includes(name));
      if (unknown) {
        throw invalidRequest(
          `Received unknown parameter: ${unknown} (the fake reads: ${found.params.join(", ") || "none"})`,
          unknown,
        );
      }
      const result = found.run(params, id, key);
      return { status: 200, body: state.expand(asSeen(result), readStrings(params, "expand")) };
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      const body: StripeErrorBody = { ...error.body };
      if (body.payment_intent) body.payment_intent = asSeen(body.payment_intent);
      return { status: error.status, body: { error: body } };
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", origin);
    const method = request.method ?? "GET";
    // Whatever headers the page's browser sends along (the e2e tests add X-Forwarded-For) may come.
    if (method === "OPTIONS") {
      const asked = request.headers["access-control-request-headers"];
      return void response.writeHead(204, { ...CORS, ...(asked && { "Access-Control-Allow-Headers": asked }) }).end();
    }
    if (url.pathname === "/v3" || url.pathname === "/v3/") {
      response.writeHead(200, {
        ...CORS,
        "Content-Type": "application/javascript; charset=utf-8",
        "Cache-Control": "no-store",
      });
      return void response.end(stripeJs);
    }
    const body = await readBody(request);
    let params: FormParams;
    try {
      params = parseFormBody(method === "POST" ? body : url.search.slice(1));
    } catch {
      return send(response, 400, { error: { type: "invalid_request_error", message: "Invalid request body." } });
    }
    const key = keyOf(request.headers.authorization);
    const idempotencyKey = request.headers["idempotency-key"]?.toString();
    fake.requests.push({
      method,
      path: url.pathname,
      params: redacted(params),
      ...(idempotencyKey && { idempotencyKey }),
      key: key === "wrong" ? "none" : key,
      at: new Date(),
    });
    const outage = fake.outage;
    if (url.pathname.startsWith("/v1/") && outage && (!outage.paths || outage.paths.test(url.pathname))) {
      if (outage.delayMs) await new Promise((resolve) => setTimeout(resolve, outage.delayMs));
      if (outage.status) {
        const type = outage.status >= 500 ? "api_error" : "invalid_request_error";
        return send(response, outage.status, { error: { type, message: "Fake Stripe: simulated outage." } });
      }
    }
    const headers: Record<string, string> = idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {};
    const fingerprint = createHash("sha256")
      .update(JSON.stringify([method, url.pathname, redacted(params)]))
      .digest("hex");
    const seen = method === "POST" && idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
    if (seen && seen.fingerprint !== fingerprint) {
      const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
      return send(response, 400, { error: { type: "idempotency_error", message } }, headers);
    }
    if (seen) return send(response, seen.status, seen.body, { ...headers, "Idempotent-Replayed": "true" });
    const requestId = `req_${randomToken(14)}`;
    state.request = { id: requestId, idempotencyKey: idempotencyKey ?? null };
    const result = (() => {
      try {
        return answer(method, url.pathname, params, key);
      } finally {
        state.request = undefined;
      }
    })();
    // Like Stripe, keep answers that did work (a declined card included), not refusals of the request.
    if (method === "POST" && idempotencyKey && (result.status < 400 || result.status === 402)) {
      idempotent.set(idempotencyKey, { fingerprint, ...result });
    }
    send(response, result.status, result.body, { ...headers, "Request-Id": requestId });
  }

  const fake: FakeStripe = {
    origin,
    jsUrl: `${origin}/v3/`,
    secretKey,
    publishableKey,
    webhookSecret,
    requests: [],
    deliveries: [],
    events: state.events,
    autoDeliver: true,
    statementDescriptor: options.statementDescriptor ?? null,
    outage: undefined,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    signedDelivery,
    deliver,
    async advance(to) {
      state.advance(Math.floor(to.getTime() / 1000));
    },
    async settled() {
      let current: Promise<void>;
      do {
        current = queue;
        await current;
      } while (current !== queue);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return fake;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, {
    ...CORS,
    ...headers,
    "Content-Type": "application/json",
    "Stripe-Version": STRIPE_API_VERSION,
  });
  response.end(JSON.stringify(body, null, 2));
}
