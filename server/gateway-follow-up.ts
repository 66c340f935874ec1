import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { orderRefunds } from "~/features/booking/order-refund.server";
import { invoiceRefunds } from "~/features/memberships/invoice-refund.server";
import { CHARGING_LEASE_MS } from "~/features/memberships/billing-job.server";
import { finishPlanChanges } from "~/features/memberships/plan-change.server";
import { tellPendingProviderCancels } from "~/features/memberships/provider-cancel.server";
import type { PaymentGateway } from "~/features/payments/gateway";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { finishPendingRefunds } from "~/features/payments/refunds.server";
import { scheduleJob, type JobSchedule } from "~/lib/job-schedule";

type FollowUpLogger = Pick<Logger, "info" | "warn" | "error">;

/**
 * Finishes the gateway calls that requests decided and left undone (ADR 004): refunds reserved
 * whose gateway answer was never recorded, cancellations Stripe was not told of, and plan changes
 * whose difference Stripe was asked for. Each is asked again under its key, so nothing is done
 * twice. Returns how many of each it finished.
 */
export async function followUpGatewayWork(
  db: Database,
  gateway: PaymentGateway,
  { now, logger, origin }: { now: Date; logger: FollowUpLogger; origin: string },
): Promise<{ refunds: number; cancellations: number; planChanges: number }> {
  const refunds = await finishPendingRefunds(
    db,
    gateway,
    { orders: orderRefunds, invoices: invoiceRefunds },
    { now, logger },
  );
  const cancellations = await tellPendingProviderCancels(db, gateway, { now, logger });
  // The sandbox's plan changes are finished by the billing job, before it closes the quarters.
  const planChanges =
    gateway.kind === "hosted-card"
      ? (await finishPlanChanges(db, gateway, { now, leaseMs: CHARGING_LEASE_MS, origin })).finished
      : 0;
  if (refunds + cancellations + planChanges > 0) {
    logger.info({ refunds, cancellations, planChanges }, "gateway follow-up");
  }
  return { refunds, cancellations, planChanges };
}

export function scheduleGatewayFollowUp(
  db: Database,
  options: { intervalMs: number; firstRunDelayMs: number; logger: FollowUpLogger; origin: string },
): JobSchedule {
  const { logger, origin } = options;
  return scheduleJob(
    () =>
      followUpGatewayWork(db, paymentGateway(), { now: new Date(), logger, origin }).then(
        () => undefined,
        (error: unknown) => logger.error({ err: error }, "gateway follow-up failed"),
      ),
    options,
  );
}
