import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, memberships, type CurrencyCode, type MembershipPlan, type MembershipStatus } from "~/db/schema";
import { isAnonymisedCustomer } from "~/features/privacy/customer-removal.server";
import { ofCustomersMatching } from "../customer-search.server";
import { keysetPaging, type KeysetPage, type PagePosition } from "../keyset.server";
import { NO_MEMBERSHIP_FILTERS, type MembershipFilters } from "./membership-filters";
import { withSearchTimeout } from "../search-timeout.server";

export const MEMBERSHIPS_PAGE_SIZE = 25;

export interface MembershipListRow {
  id: string;
  plan: MembershipPlan;
  status: MembershipStatus;
  /** The fee per quarter, in minor units of `currency`. */
  price: number;
  currency: CurrencyCode;
  trialEndsAt: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  createdAt: Date;
}

/** The membership columns every admin list of memberships shows (MembershipsList). */
const membershipListColumns = {
  id: memberships.id,
  plan: memberships.plan,
  status: memberships.status,
  price: memberships.price,
  currency: memberships.currency,
  trialEndsAt: memberships.trialEndsAt,
  currentPeriodEnd: memberships.currentPeriodEnd,
  cancelAtPeriodEnd: memberships.cancelAtPeriodEnd,
  createdAt: memberships.createdAt,
} satisfies Record<keyof MembershipListRow, unknown>;

export interface AdminMembershipRow extends MembershipListRow {
  customer: { id: string; name: string; email: string | null; anonymised: boolean };
}

export type MembershipsPage = KeysetPage<AdminMembershipRow>;

function filterConditions({ status, plan, search }: MembershipFilters): SQL[] {
  const conditions: SQL[] = [];
  if (status) conditions.push(eq(memberships.status, status));
  if (plan) conditions.push(eq(memberships.plan, plan));
  if (search) conditions.push(ofCustomersMatching(memberships.customerId, search));
  return conditions;
}

/**
 * One page of memberships, newest first, with their member, among those matching `filters`. Keyset
 * pagination on (created_at, id), with the indexes on (created_at, id) and (status, created_at, id).
 */
export async function listMemberships(
  db: Database,
  position: PagePosition,
  filters: MembershipFilters = NO_MEMBERSHIP_FILTERS,
  pageSize = MEMBERSHIPS_PAGE_SIZE,
): Promise<MembershipsPage> {
  const paging = keysetPaging(memberships, position, pageSize);
  const fetched = await db
    .select({
      ...membershipListColumns,
      customer: {
        id: customers.id,
        name: customers.fullName,
        email: customers.email,
        anonymised: sql<boolean>`${isAnonymisedCustomer}`,
      },
      cursor: paging.cursor,
    })
    .from(memberships)
    .innerJoin(customers, eq(customers.id, memberships.customerId))
    .where(and(...filterConditions(filters), paging.where))
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  return paging.page(fetched);
}

/** The page of /admin/memberships: listMemberships, with a name or e-mail search cut short when it would take too long. */
export async function membershipsListPage(
  db: Database,
  position: PagePosition,
  filters: MembershipFilters,
): Promise<MembershipsPage> {
  if (!filters.search) return listMemberships(db, position, filters);
  return withSearchTimeout(db, (tx) => listMemberships(tx, position, filters));
}

/**
 * A customer's memberships, newest first: at most one in practice, as each booking has a customer
 * row of its own and only an address's first paid booking starts a membership.
 */
export async function customerMemberships(db: Database, customerId: string): Promise<MembershipListRow[]> {
  return db
    .select(membershipListColumns)
    .from(memberships)
    .where(eq(memberships.customerId, customerId))
    .orderBy(desc(memberships.createdAt));
}
