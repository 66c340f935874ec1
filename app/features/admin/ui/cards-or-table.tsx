import type { ReactNode } from "react";
import { cn } from "~/lib/class-names";

export interface TableColumn {
  label: string;
  /** Right-aligned, for amounts. */
  numeric?: boolean;
}

/**
 * A back-office list: its records as cards (`<li>`s) on a phone and as table rows on wider
 * screens, both named by `label`; the table scrolls sideways inside its own region when it must.
 */
export function CardsOrTable({
  label,
  columns,
  tableClassName,
  cards,
  rows,
}: {
  label: string;
  columns: readonly TableColumn[];
  /** The table's minimum width, e.g. "min-w-[44rem]". */
  tableClassName: string;
  cards: ReactNode;
  rows: ReactNode;
}) {
  return (
    <>
      <ul className="grid gap-3 md:hidden" aria-label={label}>
        {cards}
      </ul>
      <div className="hidden overflow-x-auto md:block" role="region" aria-label={label} tabIndex={0}>
        <table className={cn("w-full text-left text-sm", tableClassName)}>
          <thead className="border-b text-muted-foreground">
            <tr>
              {columns.map(({ label: column, numeric }) => (
                <th key={column} scope="col" className={cn("py-2 pr-4 font-medium last:pr-0", numeric && "text-right")}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{rows}</tbody>
        </table>
      </div>
    </>
  );
}
