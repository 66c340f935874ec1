import { Search } from "lucide-react";
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { FieldDescription } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { MAX_SEARCH_LENGTH, type CustomerSearch } from "~/features/admin/customer-search";

/** A GET form: the search lives in the URL, so it can be bookmarked, shared and paged through. */
export function CustomerSearchForm({ search }: { search: CustomerSearch }) {
  return (
    <Form method="get" role="search" className="grid gap-2">
      <Label htmlFor="customer-search">Rechercher un client (nom ou e-mail, 3 caractères au moins)</Label>
      <div className="flex flex-wrap gap-2">
        <Input
          key={search.query}
          id="customer-search"
          name="q"
          type="search"
          defaultValue={search.query}
          maxLength={MAX_SEARCH_LENGTH}
          aria-describedby={search.notice ? "customer-search-notice" : undefined}
          className="min-w-0 flex-1 basis-60"
        />
        <Button type="submit">
          <Search aria-hidden="true" />
          Rechercher
        </Button>
        {search.query ? (
          <Button asChild variant="ghost">
            <Link to="/admin/clients">Effacer</Link>
          </Button>
        ) : null}
      </div>
      {search.notice ? (
        <FieldDescription id="customer-search-notice" role="status" className="text-sm">
          {search.notice}
        </FieldDescription>
      ) : null}
    </Form>
  );
}
