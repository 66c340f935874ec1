import { FIXTURE_ORIGIN } from "../../support/integration/memberships-fixtures";
import { addMinutes } from "date-fns";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { orders, refunds, sandboxAnswers } from "~/db/schema";
import { payForOrder } from "~/features/booking/checkout.server";
import { refundOrder } from "~/features/booking/order-refund.server";
import { createBooking } from "~/features/booking/orders.server";
import type { CardFormGateway } from "~/features/payments/gateway";
import { answersInDatabase, createSandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { followUpGatewayWork } from "../../../server/gateway-follow-up";
import { bookingInput, bookingTestDatabase } from "../../support/integration/booking-helpers";
import { rowLockIsFree } from "../../support/integration/row-lock";
import { testDatabaseKind } from "../../support/test-database";

vi.hoisted(() => {
  process.env.APP_SECRET = "gateway-outside-tx-secret-".padEnd(40, "x");
});

const db = bookingTestDatabase();
const ADMIN = { userId: null, label: "admin@example.com" };
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

async function paidOrder(gateway: CardFormGateway) {
  const { orderId } = await createBooking(db(), {
    booking: bookingInput({ email: "ann@example.com" }),
    currency: "EUR",
    userId: null,
  });
  const card = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2099, cvv: "123" };
  expect(
    await payForOrder(db(), gateway, { orderId, card, origin: "https://site.test", consentedAt: new Date() }),
  ).toEqual({ kind: "paid", alreadyPaid: false });
  return orderId;
}

describe(`a refund's gateway call, on ${testDatabaseKind()}`, () => {
  it("is made with nothing locked, after the refund is written pending under its key", async () => {
    const sandbox = createSandboxGateway({ answers: answersInDatabase(db) });
    const orderId = await paidOrder(sandbox);
    const seen: { lockFree: boolean; pending: unknown[] }[] = [];
    const watching: CardFormGateway = {
      ...sandbox,
      async refund(request) {
        seen.push({
          lockFree: await rowLockIsFree(db(), orders, orderId),
          pending: await db()
            .select({ status: refunds.status, key: refunds.idempotencyKey })
            .from(refunds)
            .where(eq(refunds.orderId, orderId)),
        });
        return sandbox.refund(request);
      },
    };
    const idempotencyKey = crypto.randomUUID();
    const outcome = await refundOrder(db(), watching, {
      orderId,
      refund: { amount: 1000, reason: "Lane closed", idempotencyKey },
      actor: ADMIN,
    });
    expect(outcome).toEqual({ kind: "refunded", amount: 1000, refundedTotal: 1000 });
    expect(seen).toEqual([{ lockFree: true, pending: [{ status: "pending", key: idempotencyKey }] }]);
  });

  it("refunds once when the process dies between the gateway's answer and the record: the follow-up job finishes it", async () => {
    const beforeRestart = createSandboxGateway({ answers: answersInDatabase(db) });
    const orderId = await paidOrder(beforeRestart);
    const answered: string[] = [];
    const dying: CardFormGateway = {
      ...beforeRestart,
      async refund(request) {
        answered.push((await beforeRestart.refund(request)).providerRef);
        throw new Error("the process was killed here");
      },
    };
    const refund = { amount: 3300, reason: "Flight cancelled", idempotencyKey: crypto.randomUUID() };
    await expect(refundOrder(db(), dying, { orderId, refund, actor: ADMIN })).rejects.toThrow("killed");
    const ledger = () =>
      db().select({ amount: refunds.amount, status: refunds.status, providerRef: refunds.providerRef }).from(refunds);
    // Counted against what may still be refunded: a second admin cannot refund it again meanwhile.
    expect(await ledger()).toEqual([{ amount: 3300, status: "pending", providerRef: null }]);
    expect(
      await refundOrder(db(), beforeRestart, {
        orderId,
        refund: { ...refund, idempotencyKey: crypto.randomUUID() },
        actor: ADMIN,
      }),
    ).toEqual({ kind: "too-much", refundable: 0 });

    // A new process, whose sandbox finds its first answer in the database.
    const afterRestart = createSandboxGateway({ answers: answersInDatabase(db) });
    const now = new Date();
    expect(await followUpGatewayWork(db(), afterRestart, { now, logger: quiet, origin: FIXTURE_ORIGIN })).toEqual({
      refunds: 0,
      cancellations: 0,
      planChanges: 0,
    });
    expect(
      await followUpGatewayWork(db(), afterRestart, {
        now: addMinutes(now, 10),
        logger: quiet,
        origin: FIXTURE_ORIGIN,
      }),
    ).toEqual({
      refunds: 1,
      cancellations: 0,
      planChanges: 0,
    });
    expect(await ledger()).toEqual([{ amount: 3300, status: "done", providerRef: answered[0] }]);
    const kept = await db()
      .select()
      .from(sandboxAnswers)
      .where(eq(sandboxAnswers.idempotencyKey, `refund:${refund.idempotencyKey}`));
    expect(kept).toMatchObject([{ answer: { providerRef: answered[0] } }]);
    const [order] = await db().select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
    expect(order).toEqual({ status: "refunded" });
    // The admin's form sent again changes nothing.
    expect(await refundOrder(db(), afterRestart, { orderId, refund, actor: ADMIN })).toEqual({
      kind: "already-refunded",
      refundedTotal: 3300,
    });
  });
});
