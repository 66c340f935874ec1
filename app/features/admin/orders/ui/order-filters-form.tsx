import { Download } from "lucide-react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { ORDER_STATUSES } from "~/db/schema";
import { MIN_SEARCH_LENGTH } from "~/features/admin/customer-search";
import { filterField, filtersQuery } from "~/features/admin/list-filters";
import type { FilterErrors, FilterField } from "~/features/admin/orders/order-filters";
import { orderStatusLabel } from "~/features/booking/order-status";
import { FilterButtons } from "../../ui/filter-buttons";

/**
 * Search, status and dates, sent as a GET form: the filtered list has its own address, and the
 * export link beside it downloads the same orders.
 */
export function OrderFiltersForm({ values, errors }: { values: Record<FilterField, string>; errors: FilterErrors }) {
  const query = filtersQuery(values);
  return (
    // Keyed on the query, so that the fields show the filters of the list they are above.
    <Form method="get" key={query} className="grid gap-4" aria-label="Filtrer les commandes">
      <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)]">
        <Field
          field={filterField("q", errors)}
          label="Recherche"
          description={`Numéro complet (FT-…) ou au moins ${MIN_SEARCH_LENGTH} caractères du nom ou de l'e-mail.`}
        >
          <Input name="q" type="search" defaultValue={values.q} placeholder="N° de commande, nom ou e-mail" />
        </Field>
        <Field field={filterField("status", errors)} label="Statut">
          <NativeSelect name="status" defaultValue={values.status}>
            <option value="">Tous</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {orderStatusLabel(status)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field field={filterField("from", errors)} label="Du">
          <Input name="from" type="date" defaultValue={values.from} />
        </Field>
        <Field field={filterField("to", errors)} label="Au (inclus)">
          <Input name="to" type="date" defaultValue={values.to} />
        </Field>
      </div>
      <FilterButtons list="/admin/orders" filtered={query !== ""}>
        {Object.keys(errors).length === 0 ? (
          <Button asChild variant="outline" className="sm:ml-auto">
            <a href={`/admin/orders/export.csv${query ? `?${query}` : ""}`} download>
              <Download aria-hidden="true" />
              Exporter en CSV
            </a>
          </Button>
        ) : null}
      </FilterButtons>
    </Form>
  );
}
