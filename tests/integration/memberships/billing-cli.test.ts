import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoices, memberships } from "~/db/schema";
import { payForOrder } from "~/features/booking/checkout.server";
import { createBooking } from "~/features/booking/orders.server";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { bookingInput } from "../../support/integration/booking-helpers";
import { cliTestDatabase, runNpmScript } from "../../support/integration/npm-script";

const database = cliTestDatabase();

const billingCli = (...args: string[]) => runNpmScript("billing", args, database.env());

const USAGE = "Usage: npm run billing   or   npm run billing -- --at 2027-03-01T09:00:00Z\n";

describe(`npm run billing on ${database.kind}`, () => {
  it("charges the fee due at the instant given, and prints what it did", { timeout: 120_000 }, async () => {
    const { orderId } = await createBooking(database.db(), {
      booking: bookingInput({ email: "member@example.org" }),
      currency: "EUR",
      userId: null,
    });
    const card = { number: "4242424242424242", expiryMonth: 12, expiryYear: new Date().getFullYear() + 2, cvv: "123" };
    await payForOrder(database.db(), sandboxGateway, {
      orderId,
      card,
      origin: "http://localhost",
      consentedAt: new Date(),
    });
    const [trial] = await database.db().select().from(memberships);
    await database.release();

    const at = trial!.trialEndsAt.toISOString();
    expect(await billingCli("--at", at)).toEqual({
      code: 0,
      output: [
        `Billing as of ${at}:`,
        "  first-charge reminders sent: 0",
        "  quarterly invoices created: 1",
        "  fees charged: 1",
        "  fees declined (reminder sent or retry scheduled): 0",
        "  memberships ended at the end of a cancelled period: 0",
        "  memberships ended unpaid after the reminder: 0",
        "  charges the gateway did not answer (tried again next run): 0",
        "  plan changes finished after their request died: 0",
        "",
      ].join("\n"),
    });

    await database.reopen();
    const [member] = await database.db().select().from(memberships);
    expect(member!.status).toBe("active");
    expect(
      await database
        .db()
        .select({ status: invoices.status })
        .from(invoices)
        .where(eq(invoices.membershipId, member!.id)),
    ).toEqual([{ status: "paid" }]);
  });

  it("refuses an instant it cannot read with the usage line", async () => {
    expect(await billingCli("--at", "next tuesday")).toEqual({ code: 1, output: USAGE });
  });
});
