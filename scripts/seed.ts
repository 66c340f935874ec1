// Fills the database with realistic fake data, for trying the back office and measuring it at scale:
// `npm run db:seed -- --orders 1000000` (customers: half the orders, unless `--customers N`; memberships:
// half the customers, unless `--memberships N`).
// Uses the database the server uses (DATABASE_URL, or the embedded one in DATA_DIR while the server
// is stopped). It adds to what is already there.
import { runWithDatabase } from "./database-cli";
import { seedDatabase, type SeedOptions } from "./seed-database";

const USAGE =
  "Usage: npm run db:seed -- [--orders N] [--customers N] [--memberships N]   " +
  "(default 10000 orders, customers half of them, memberships half the customers)";
const FLAGS = ["orders", "customers", "memberships"] as const;
const DEFAULT_ORDERS = 10_000;
const MAX_ORDERS = 20_000_000;

/** The options the arguments ask for, or the message that says what is wrong with them. */
function parseSeedArguments(args: string[]): SeedOptions | string {
  const values: Partial<Record<(typeof FLAGS)[number], number>> = {};
  for (let index = 0; index < args.length; index += 2) {
    const [flag, value] = [args[index], args[index + 1]];
    const name = FLAGS.find((known) => flag === `--${known}`);
    if (!name) return `Unknown argument ${flag}.\n${USAGE}`;
    // Orders and customers there must be; memberships may be left out.
    const least = name === "memberships" ? 0 : 1;
    if (value === undefined || !/^\d+$/.test(value) || Number(value) < least || Number(value) > MAX_ORDERS) {
      return `${flag} needs a whole number from ${least} to ${MAX_ORDERS.toLocaleString("en")}, not ${value ?? "nothing"}.\n${USAGE}`;
    }
    values[name] = Number(value);
  }
  const orders = values.orders ?? DEFAULT_ORDERS;
  const customers = values.customers ?? Math.ceil(orders / 2);
  const { memberships } = values;
  if (customers > orders) {
    return `--customers (${customers}) may not exceed --orders (${orders}): every customer has at least one order.`;
  }
  if (memberships !== undefined && memberships > customers) {
    return `--memberships (${memberships}) may not exceed the customers (${customers}): a membership belongs to one customer.`;
  }
  return { orders, customers, memberships };
}

const options = parseSeedArguments(process.argv.slice(2));
if (typeof options === "string") {
  console.error(options);
  process.exitCode = 1;
} else {
  await runWithDatabase(async (db) => {
    await seedDatabase(db, options, (line) => console.log(line));
    return 0;
  }, "The seed failed:");
}
