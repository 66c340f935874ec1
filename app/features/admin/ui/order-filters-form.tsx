import { Download, Search } from "lucide-react";
import { Form, Link } from "react-router";
import { FieldError } from "~/components/ui/form-field";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { ORDER_STATUSES } from "~/db/schema";
import { filtersQuery, MIN_SEARCH_LENGTH, type FilterErrors, type FilterField } from "~/features/admin/order-filters";
import { orderStatusLabel } from "~/features/booking/order-status";

/** The props tying a filter field to its error message. */
function fieldProps(name: FilterField, errors: FilterErrors) {
  const error = errors[name];
  return {
    id: `filter-${name}`,
    name,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `filter-${name}-error` : undefined,
  };
}

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
        <div className="grid gap-2">
          <Label htmlFor="filter-q">Recherche</Label>
          <Input
            {...fieldProps("q", errors)}
            type="search"
            defaultValue={values.q}
            placeholder="N° de commande, nom ou e-mail"
          />
          <p className="text-xs text-muted-foreground">
            Numéro complet (FT-…) ou au moins {MIN_SEARCH_LENGTH} caractères du nom ou de l'e-mail.
          </p>
          <FieldError id="filter-q-error" errors={errors.q ? [errors.q] : undefined} />
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor="filter-status">Statut</Label>
          <NativeSelect {...fieldProps("status", errors)} defaultValue={values.status}>
            <option value="">Tous</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {orderStatusLabel(status)}
              </option>
            ))}
          </NativeSelect>
          <FieldError id="filter-status-error" errors={errors.status ? [errors.status] : undefined} />
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor="filter-from">Du</Label>
          <Input {...fieldProps("from", errors)} type="date" defaultValue={values.from} />
          <FieldError id="filter-from-error" errors={errors.from ? [errors.from] : undefined} />
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor="filter-to">Au (inclus)</Label>
          <Input {...fieldProps("to", errors)} type="date" defaultValue={values.to} />
          <FieldError id="filter-to-error" errors={errors.to ? [errors.to] : undefined} />
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit">
          <Search aria-hidden="true" />
          Filtrer
        </Button>
        {query ? (
          <Button asChild variant="ghost">
            <Link to="/admin/orders">Effacer les filtres</Link>
          </Button>
        ) : null}
        {Object.keys(errors).length === 0 ? (
          <Button asChild variant="outline" className="sm:ml-auto">
            <a href={`/admin/orders/export.csv${query ? `?${query}` : ""}`} download>
              <Download aria-hidden="true" />
              Exporter en CSV
            </a>
          </Button>
        ) : null}
      </div>
    </Form>
  );
}
