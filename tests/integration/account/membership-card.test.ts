import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberships } from "~/db/schema";
import { membershipCardCode, membershipNumber } from "~/features/memberships/membership-card.server";
import { loader as accountLoader } from "~/routes/account";
import { loader as voucherCheck } from "~/routes/api.vouchers.$code";
import { book, membershipOf } from "../../support/integration/personal-data-fixtures";
import { createSignedInAccount, databaseWithAdmin, pageRequest } from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";

const { db, admin } = databaseWithAdmin();

const check = (code: string, cookie = admin().cookie) =>
  routeResult(() => voucherCheck(routeArgs(pageRequest(`/api/vouchers/${code}`, { cookie }), { code })));

describe(`the digital membership card, on ${testDatabaseKind()}`, () => {
  it("shows on the member's account, and the desk's check recognises it as a member", async () => {
    const member = await createSignedInAccount(db());
    const order = await book(db(), { email: member.email, firstName: "Lena", lastName: "Card", pay: "paid" });
    const membership = await membershipOf(db(), order.id);

    const page = await routeResult(() => accountLoader(routeArgs(pageRequest("/account", { cookie: member.cookie }))));
    const card = (page.data as { membership: { card: { number: string; qrSvg: string } } }).membership.card;
    expect(card.number).toBe(membershipNumber(membership.id));
    expect(card.number).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}$/);
    expect(card.qrSvg).toMatch(/^<svg/);

    const answer = await check(membershipCardCode(membership.id));
    expect(answer).toMatchObject({
      status: 200,
      data: { valid: true, kind: "membership", membershipNumber: card.number, plan: "Medium", name: "Lena Card" },
    });
    // Only the desk (an admin) may ask.
    expect((await check(membershipCardCode(membership.id), member.cookie)).status).toBe(403);
  });

  it("refuses a changed code, and says an ended membership gives no benefits", async () => {
    const order = await book(db(), { pay: "paid" });
    const membership = await membershipOf(db(), order.id);
    const code = membershipCardCode(membership.id);
    const changed = `${code.slice(0, -1)}${code.endsWith("A") ? "B" : "A"}`;
    expect(await check(changed)).toMatchObject({ status: 404, data: { valid: false, kind: "membership" } });
    expect(await check("m1.not-a-code")).toMatchObject({ status: 404 });

    await db()
      .update(memberships)
      .set({ status: "ended", endedAt: new Date() })
      .where(eq(memberships.id, membership.id));
    expect(await check(code)).toMatchObject({ status: 200, data: { valid: false, status: "ended" } });
  });
});
