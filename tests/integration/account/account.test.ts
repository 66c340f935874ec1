import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dataRequests, memberships, orders, outbox, withdrawals } from "~/db/schema";
import { action as accountAction, loader as accountLoader } from "~/routes/account";
import { loader as dataLoader } from "~/routes/account.data[.json]";
import { book, membershipOf } from "../../support/integration/personal-data-fixtures";
import { installedTestDatabase } from "../../support/integration/installed-database";
import { createSignedInAccount, formRequest, pageRequest, toastOf } from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";

const db = installedTestDatabase();

/** A signed-in person whose address booked and paid a fast track: a member in their trial. */
async function signedInMember() {
  const account = await createSignedInAccount(db());
  const order = await book(db(), { email: account.email, pay: "paid" });
  return { ...account, order, membership: await membershipOf(db(), order.id) };
}

const post = (fields: Record<string, string>, cookie?: string) =>
  routeResult(() => accountAction(routeArgs(formRequest("/account", fields, { cookie }))));

describe(`the member area's own actions, on ${testDatabaseKind()}`, () => {
  it("asks before cancelling: ?confirm=cancel shows the step, the button cancels the trial at its end", async () => {
    const member = await signedInMember();
    const page = await routeResult(() =>
      accountLoader(routeArgs(pageRequest("/account?confirm=cancel", { cookie: member.cookie }))),
    );
    expect(page.data).toMatchObject({ confirm: "cancel", membership: { status: "Free trial", cancellable: true } });

    const cancelled = await post({ intent: "cancel" }, member.cookie);
    expect(cancelled).toMatchObject({ status: 302, location: "/account" });
    expect(toastOf(cancelled.headers)).toMatchObject({ type: "success", title: "Your membership is cancelled" });
    const [after] = await db().select().from(memberships).where(eq(memberships.id, member.membership.id));
    expect(after).toMatchObject({ status: "trialing", cancelAtPeriodEnd: true });
    const mails = await db().select({ subject: outbox.subject }).from(outbox).where(eq(outbox.to, member.email));
    expect(mails.map((mail) => mail.subject)).toContainEqual(expect.stringMatching(/membership is cancelled$/));

    // Pressed again: the same answer, and no second e-mail.
    const again = await post({ intent: "cancel" }, member.cookie);
    expect(toastOf(again.headers)).toEqual(toastOf(cancelled.headers));
    const mailsAfter = await db().select({ id: outbox.id }).from(outbox).where(eq(outbox.to, member.email));
    expect(mailsAfter).toHaveLength(mails.length);
    const shown = await routeResult(() => accountLoader(routeArgs(pageRequest("/account", { cookie: member.cookie }))));
    expect(shown.data).toMatchObject({ membership: { status: "Cancelled", cancellable: false } });
  });

  it("records one erasure request however often it is asked, for the back office to carry out", async () => {
    const member = await signedInMember();
    for (let ask = 0; ask < 2; ask++) {
      const asked = await post({ intent: "erase" }, member.cookie);
      expect(toastOf(asked.headers)).toMatchObject({ title: "We have your request to erase your data" });
    }
    const requests = await db().select().from(dataRequests).where(eq(dataRequests.email, member.email));
    expect(requests).toMatchObject([{ kind: "erasure", completedAt: null }]);
    // Nothing is erased until the back office does it.
    expect(await membershipOf(db(), member.order.id)).toMatchObject({ email: member.email });
  });

  it("hands the signed-in person their data as a file, and no one else's", async () => {
    const member = await signedInMember();
    const other = await book(db(), { pay: "paid" });
    const response = (await dataLoader(
      routeArgs(pageRequest("/account/data.json", { cookie: member.cookie })),
    )) as Response;
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="my-data.json"');
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const file = await response.text();
    expect(JSON.parse(file)).toMatchObject({ email: member.email });
    expect(file).toContain(member.order.orderNumber);
    expect(file).not.toContain(other.orderNumber);
  });

  it("withdraws from a booking and the membership it started, once, without retyping who the person is", async () => {
    const member = await signedInMember();
    const page = await routeResult(() => accountLoader(routeArgs(pageRequest("/account", { cookie: member.cookie }))));
    const [booking] = (
      page.data as { bookings: { id: string; withdrawUntil: string | null; startedMembership: boolean }[] }
    ).bookings;
    expect(booking).toMatchObject({ id: member.order.id, startedMembership: true });
    const [paid] = await db()
      .select({ number: orders.invoiceNumber })
      .from(orders)
      .where(eq(orders.id, member.order.id));
    expect((booking as unknown as { rows: [string, string][] }).rows).toContainEqual(["Invoice number", paid!.number]);
    expect(booking!.withdrawUntil).toMatch(/^\d{1,2} \w+ \d{4}$/);

    for (let press = 0; press < 2; press++) {
      const withdrawn = await post({ intent: "withdraw", orderId: member.order.id, scope: "both" }, member.cookie);
      expect(toastOf(withdrawn.headers)).toMatchObject({ type: "success", title: "We have your withdrawal" });
    }
    const statements = await db().select().from(withdrawals).where(eq(withdrawals.orderId, member.order.id));
    expect(statements).toMatchObject([{ outcome: "withdrawn", scope: "both", email: member.email }]);
    expect(await membershipOf(db(), member.order.id)).toMatchObject({ status: "cancelled" });
    const [order] = await db().select().from(orders).where(eq(orders.id, member.order.id));
    expect(order!.status).toBe("refunded");
  });

  it("refuses to withdraw from someone else's booking, and records nothing", async () => {
    const member = await signedInMember();
    const other = await book(db(), { pay: "paid" });
    const refused = await post({ intent: "withdraw", orderId: other.id, scope: "fast-track" }, member.cookie);
    expect(toastOf(refused.headers)).toMatchObject({ type: "error" });
    expect(await db().select().from(withdrawals).where(eq(withdrawals.orderId, other.id))).toEqual([]);
    const junk = await post({ intent: "withdraw", orderId: "not-an-id", scope: "everything" }, member.cookie);
    expect(toastOf(junk.headers)).toMatchObject({ type: "error" });
  });

  it("sends anyone not signed in to the sign-in, and changes nothing for them", async () => {
    const cancelled = await post({ intent: "cancel" });
    expect(cancelled).toMatchObject({ status: 302, location: "/account/sign-in" });
    const data = await routeResult(() => dataLoader(routeArgs(pageRequest("/account/data.json"))));
    expect(data).toMatchObject({ status: 302, location: "/account/sign-in" });
  });
});
