import type { Database } from "~/db/client.server";
import { csvLine, UTF8_BOM } from "./csv";
import type { OrderFilters } from "./order-filters";
import { orderStatusLabel } from "~/features/booking/order-status";
import { allOrdersMatching, type AdminOrderRow } from "./orders-admin.server";

const COLUMNS: [string, (order: AdminOrderRow) => string | number | null][] = [
  ["N° de commande", (order) => order.orderNumber],
  ["Date (UTC)", (order) => order.createdAt.toISOString().slice(0, 19).replace("T", " ")],
  ["Statut", (order) => orderStatusLabel(order.status)],
  ["Client", (order) => order.customerName],
  ["E-mail", (order) => order.customerEmail],
  ["Service", (order) => order.serviceType],
  ["Aéroport", (order) => order.airport],
  ["Date du vol", (order) => order.flightDate],
  ["Adultes", (order) => order.adults],
  ["Enfants", (order) => order.children],
  // Every currency the site sells in has two decimals.
  ["Montant", (order) => (order.amount / 100).toFixed(2)],
  ["Devise", (order) => order.currency],
];

/** The export's file name, dated: "commandes-2025-06-24.csv". */
export function ordersCsvFileName(now: Date): string {
  return `commandes-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * The orders matching `filters` as CSV, produced as the reader takes it: one batch of rows is read
 * from the database only when the previous one has been sent, so memory stays flat however many
 * orders there are.
 */
export function ordersCsvStream(db: Database, filters: OrderFilters): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = allOrdersMatching(db, filters);
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(UTF8_BOM + csvLine(COLUMNS.map(([title]) => title))));
      },
      async pull(controller) {
        const batch = await batches.next();
        if (batch.done) {
          controller.close();
          return;
        }
        controller.enqueue(
          encoder.encode(batch.value.map((order) => csvLine(COLUMNS.map(([, cell]) => cell(order)))).join("")),
        );
      },
      async cancel() {
        await batches.return(undefined);
      },
    },
    // Pull the next batch only once the previous one has gone out.
    { highWaterMark: 1 },
  );
}
