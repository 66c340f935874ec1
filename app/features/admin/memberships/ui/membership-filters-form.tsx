import { Form } from "react-router";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { MEMBERSHIP_PLANS, MEMBERSHIP_STATUSES } from "~/db/schema";
import { MAX_SEARCH_LENGTH, MIN_SEARCH_LENGTH } from "~/features/admin/customer-search";
import { filterField, filtersQuery } from "~/features/admin/list-filters";
import type { MembershipFilterErrors, MembershipFilterField } from "~/features/admin/memberships/membership-filters";
import { membershipPlanName, membershipStatusLabel } from "~/features/memberships/membership-status";
import { FilterButtons } from "../../ui/filter-buttons";

/** Search, status and plan, sent as a GET form: the filtered list has its own address. */
export function MembershipFiltersForm({
  values,
  errors,
}: {
  values: Record<MembershipFilterField, string>;
  errors: MembershipFilterErrors;
}) {
  const query = filtersQuery(values);
  return (
    // Keyed on the query, so that the fields show the filters of the list they are above.
    <Form method="get" key={query} className="grid gap-4" aria-label="Filtrer les abonnements">
      <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
        <Field
          field={filterField("q", errors)}
          label="Recherche"
          description={`Au moins ${MIN_SEARCH_LENGTH} caractères du nom ou de l'e-mail du membre.`}
        >
          <Input
            name="q"
            type="search"
            defaultValue={values.q}
            maxLength={MAX_SEARCH_LENGTH}
            placeholder="Nom ou e-mail"
          />
        </Field>
        <Field field={filterField("status", errors)} label="Statut">
          <NativeSelect name="status" defaultValue={values.status}>
            <option value="">Tous</option>
            {MEMBERSHIP_STATUSES.map((status) => (
              <option key={status} value={status}>
                {membershipStatusLabel(status)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field field={filterField("plan", errors)} label="Formule">
          <NativeSelect name="plan" defaultValue={values.plan}>
            <option value="">Toutes</option>
            {MEMBERSHIP_PLANS.map((plan) => (
              <option key={plan} value={plan}>
                {membershipPlanName(plan)}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <FilterButtons list="/admin/memberships" filtered={query !== ""} />
    </Form>
  );
}
