import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { orderRefunds } from "~/features/booking/order-refund.server";
import { invoiceRefunds } from "~/features/memberships/invoice-refund.server";
import { tellPendingProviderCancels } from "~/features/memberships/provider-cancel.server";
import type { PaymentGateway } from "~/features/payments/gateway";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { finishPendingRefunds } from "~/features/payments/refunds.server";
import { scheduleJob, type JobSchedule } from "~/lib/job-schedule";

type FollowUpLogger = Pick<Logger, "info" | "warn" | "error">;

/**
 * Finishes the gateway calls that requests decided and left undone (ADR 004): refunds reserved
 * whose gateway answer was never recorded, and cancellations Stripe was not told of. Both are
 * asked again under the same keys, so nothing is done twice. Returns how many of each it finished.
 */
export async function followUpGatewayWork(
  db: Database,
  gateway: PaymentGateway,
  { now, logger }: { now: Date; logger: FollowUpLogger },
): Promise<{ refunds: number; cancellations: number }> {
  const refunds = await finishPendingRefunds(
    db,
    gateway,
    { orders: orderRefunds, invoices: invoiceRefunds },
    { now, logger },
  );
  const cancellations = await tellPendingProviderCancels(db, gateway, { now, logger });
  if (refunds + cancellations > 0) logger.info({ refunds, cancellations }, "gateway follow-up");
  return { refunds, cancellations };
}

export function scheduleGatewayFollowUp(
  db: Database,
  options: { intervalMs: number; firstRunDelayMs: number; logger: FollowUpLogger },
): JobSchedule {
  const { logger } = options;
  return scheduleJob(
    () =>
      followUpGatewayWork(db, paymentGateway(), { now: new Date(), logger }).then(
        () => undefined,
        (error: unknown) => logger.error({ err: error }, "gateway follow-up failed"),
      ),
    options,
  );
}
