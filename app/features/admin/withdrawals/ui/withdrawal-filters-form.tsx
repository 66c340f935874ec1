import { Form } from "react-router";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { WITHDRAWAL_OUTCOMES } from "~/db/schema";
import { MAX_SEARCH_LENGTH, MIN_SEARCH_LENGTH } from "~/features/admin/customer-search";
import { filterField, filtersQuery } from "~/features/admin/list-filters";
import type { WithdrawalFilterErrors, WithdrawalFilterField } from "~/features/admin/withdrawals/withdrawal-filters";
import { withdrawalOutcomeLabel } from "~/features/withdrawal/withdrawal-outcome";
import { FilterButtons } from "../../ui/filter-buttons";

/** Search and outcome, sent as a GET form: the filtered list has its own address. */
export function WithdrawalFiltersForm({
  values,
  errors,
}: {
  values: Record<WithdrawalFilterField, string>;
  errors: WithdrawalFilterErrors;
}) {
  const query = filtersQuery(values);
  return (
    <Form method="get" key={query} className="grid gap-4" aria-label="Filtrer les rétractations">
      <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Field
          field={filterField("q", errors)}
          label="Recherche"
          description={`Au moins ${MIN_SEARCH_LENGTH} caractères du nom, de l'e-mail ou du numéro indiqués.`}
        >
          <Input
            name="q"
            type="search"
            defaultValue={values.q}
            maxLength={MAX_SEARCH_LENGTH}
            placeholder="Nom, e-mail ou numéro"
          />
        </Field>
        <Field field={filterField("outcome", errors)} label="Résultat">
          <NativeSelect name="outcome" defaultValue={values.outcome}>
            <option value="">Tous</option>
            {WITHDRAWAL_OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {withdrawalOutcomeLabel(outcome)}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <FilterButtons list="/admin/withdrawals" filtered={query !== ""} />
    </Form>
  );
}
