import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { data } from "react-router";
import type { Database } from "~/db/client.server";
import { customers, memberships } from "~/db/schema";
import { deriveKey } from "~/lib/secrets.server";
import { isUuid } from "~/lib/uuid";
import { membershipPlanName } from "./membership-status";

/**
 * A digital membership card's code names a membership and proves the site issued it:
 * "m1.<membership id, hex>.<HMAC>", under a key of its own, like a voucher's. The desk's check
 * (/api/vouchers/{code}) recognises it as a member.
 */
const VERSION = "m1";
const CODE_PATTERN = /^m1\.([0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;

const sign = (payload: string) =>
  createHmac("sha256", deriveKey("membership-cards")).update(`${VERSION}.${payload}`).digest("base64url");

export function membershipCardCode(membershipId: string): string {
  const payload = membershipId.replaceAll("-", "").toLowerCase();
  return `${VERSION}.${payload}.${sign(payload)}`;
}

export function isMembershipCardCode(code: string): boolean {
  return code.startsWith(`${VERSION}.`);
}

function verifyMembershipCardCode(code: string): string | null {
  const match = CODE_PATTERN.exec(code);
  if (!match) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  if (!timingSafeEqual(Buffer.from(sign(payload)), Buffer.from(signature))) return null;
  return payload.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
}

/** The number a member reads out and the card shows: the membership id's first twelve digits, "1A2B-3C4D-5E6F". */
export function membershipNumber(membershipId: string): string {
  const digits = membershipId.replaceAll("-", "").slice(0, 12).toUpperCase();
  return digits.replace(/^(.{4})(.{4})(.{4})$/, "$1-$2-$3");
}

/** Statuses whose member gets the benefits now; a fee past due holds them back until it is paid. */
const BENEFITS_STATUSES = new Set(["trialing", "active"]);

/** The desk's answer for a membership card: whose, which plan, and whether its benefits apply now. */
export async function membershipCardCheckResponse(db: Database, code: string) {
  const noStore = { "Cache-Control": "no-store" };
  const membershipId = verifyMembershipCardCode(code);
  const [found] =
    membershipId && isUuid(membershipId)
      ? await db
          .select({ id: memberships.id, plan: memberships.plan, status: memberships.status, name: customers.fullName })
          .from(memberships)
          .innerJoin(customers, eq(customers.id, memberships.customerId))
          .where(eq(memberships.id, membershipId))
      : [];
  if (!found) {
    return data(
      { valid: false, kind: "membership", reason: "This membership card is not genuine." },
      { status: 404, headers: noStore },
    );
  }
  const details = {
    kind: "membership",
    membershipNumber: membershipNumber(found.id),
    plan: membershipPlanName(found.plan),
    status: found.status,
    name: found.name,
  };
  if (!BENEFITS_STATUSES.has(found.status)) {
    return data(
      { valid: false, reason: `This membership is ${found.status}: no member benefits now.`, ...details },
      { headers: noStore },
    );
  }
  return data({ valid: true, ...details }, { headers: noStore });
}
