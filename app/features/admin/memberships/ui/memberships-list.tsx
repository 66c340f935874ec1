import { Link } from "react-router";
import { cn } from "~/lib/class-names";
import { CardsOrTable } from "../../ui/cards-or-table";
import { formatAmountFr, formatDateFr } from "~/lib/format-fr";
import type { AdminMembershipRow, MembershipListRow } from "~/features/admin/memberships/memberships-admin.server";
import { isLiveMembership, membershipPlanName } from "~/features/memberships/membership-status";
import { CustomerName } from "../../ui/customer-name";
import { MembershipStatusBadge } from "./membership-status-badge";

type Member = AdminMembershipRow["customer"];
type MembershipRow = MembershipListRow & { customer?: Member };

const COLUMNS = [
  { label: "Membre", customer: true },
  { label: "Formule" },
  { label: "Statut" },
  { label: "Cotisation / trimestre", numeric: true },
  { label: "Fin d'essai" },
  { label: "Fin de période" },
];

const pageOf = (membershipId: string) => `/admin/memberships/${membershipId}`;
const linkClass = "font-medium text-link underline-offset-4 hover:underline";

/** The member's name, linked to the membership's page, above their e-mail address. */
const member = (membershipId: string, customer: Member) => (
  <>
    <Link to={pageOf(membershipId)} className={cn(linkClass, "block wrap-anywhere")}>
      <CustomerName customer={customer} />
    </Link>
    {customer.email ? (
      <span className="block text-xs text-muted-foreground wrap-anywhere">{customer.email}</span>
    ) : null}
  </>
);

/** The plan, linked to the membership's page when no member name is. */
const plan = (membership: MembershipRow) =>
  membership.customer ? (
    membershipPlanName(membership.plan)
  ) : (
    <Link to={pageOf(membership.id)} className={linkClass}>
      {membershipPlanName(membership.plan)}
    </Link>
  );

/** "Résiliation demandée" under the period's end, when the membership stops then. */
const periodEnd = (membership: MembershipRow) => (
  <>
    <span className="block">{formatDateFr(membership.currentPeriodEnd)}</span>
    {membership.cancelAtPeriodEnd && isLiveMembership(membership.status) ? (
      <span className="block text-xs font-medium text-destructive">Résiliation demandée</span>
    ) : null}
  </>
);

/**
 * Memberships, each linked to its page in the back office: cards on a phone, a table on wider
 * screens; with the member unless they are all one customer's.
 */
export function MembershipsList({ memberships, label }: { memberships: MembershipRow[]; label: string }) {
  const withCustomer = memberships.some((membership) => membership.customer);
  const columns = COLUMNS.filter((column) => withCustomer || !column.customer);
  return (
    <CardsOrTable
      label={label}
      columns={columns}
      tableClassName={withCustomer ? "min-w-[48rem]" : "min-w-[36rem]"}
      cards={
        <>
          {memberships.map((membership) => (
            <li key={membership.id} className="grid gap-1 rounded-lg border p-4 text-sm">
              <p className="flex flex-wrap items-center justify-between gap-2">
                <span>{membership.customer ? member(membership.id, membership.customer) : plan(membership)}</span>
                <MembershipStatusBadge status={membership.status} />
              </p>
              {membership.customer ? <p>{plan(membership)}</p> : null}
              <p className="flex justify-between gap-2 text-muted-foreground">
                <span>Cotisation / trimestre</span>
                <span className="font-medium text-foreground tabular-nums">
                  {formatAmountFr(membership.price, membership.currency)}
                </span>
              </p>
              <p className="flex justify-between gap-2 text-muted-foreground">
                <span>Fin d'essai</span>
                <span className="tabular-nums">{formatDateFr(membership.trialEndsAt)}</span>
              </p>
              <div className="flex justify-between gap-2 text-muted-foreground">
                <span>Fin de période</span>
                <span className="text-right tabular-nums">{periodEnd(membership)}</span>
              </div>
            </li>
          ))}
        </>
      }
      rows={
        <>
          {memberships.map((membership) => (
            <tr key={membership.id} className="border-b align-top last:border-0">
              {membership.customer ? <td className="py-3 pr-4">{member(membership.id, membership.customer)}</td> : null}
              <td className="py-3 pr-4">{plan(membership)}</td>
              <td className="py-3 pr-4">
                <MembershipStatusBadge status={membership.status} />
              </td>
              <td className="py-3 pr-4 text-right whitespace-nowrap tabular-nums">
                {formatAmountFr(membership.price, membership.currency)}
              </td>
              <td className="py-3 pr-4 whitespace-nowrap tabular-nums">{formatDateFr(membership.trialEndsAt)}</td>
              <td className="py-3 whitespace-nowrap tabular-nums">{periodEnd(membership)}</td>
            </tr>
          ))}
        </>
      }
    />
  );
}
