import type Stripe from "stripe";
import { CURRENCY_CODES } from "~/db/enums";
import { MEMBERSHIP_PLANS } from "~/db/schema";
import { toMinorUnits } from "~/lib/currency";
import { siteConfig } from "../../../../site.config";
import { STATEMENT_DESCRIPTOR } from "../statement-descriptor";
import { priceLookupKey } from "./stripe-prices";

export interface SetupLine {
  lookupKey: string;
  priceId: string;
  /** Whether this run created the price (a first run, or a fee changed in site.config.ts). */
  created: boolean;
}

/**
 * Makes sure Stripe has a product per plan and a quarterly price per plan and currency, at the fee
 * site.config.ts says. Run again, it finds them by their lookup keys and changes nothing; after a
 * fee change it adds the new price and moves the lookup key to it (members keep their old price).
 */
export async function setUpStripeCatalogue(
  stripe: Stripe,
  { periodMonths }: { periodMonths: number },
): Promise<SetupLine[]> {
  const lines: SetupLine[] = [];
  for (const plan of MEMBERSHIP_PLANS) {
    const { name, price } = siteConfig.pricing[plan];
    const productId = `${siteConfig.company.name.toLowerCase().replace(/[^a-z0-9]+/g, "_")}_${plan}`;
    await stripe.products.retrieve(productId).catch(async (error: Stripe.errors.StripeError) => {
      if (error.statusCode !== 404) throw error;
      await stripe.products.create({ id: productId, name: `${siteConfig.company.name} ${name} membership` });
    });
    for (const currency of CURRENCY_CODES) {
      const lookupKey = priceLookupKey(plan, currency);
      const amount = toMinorUnits(price);
      const { data } = await stripe.prices.list({ lookup_keys: [lookupKey], active: true });
      const current = data.find((price) => price.lookup_key === lookupKey);
      if (current?.unit_amount === amount && current.currency === currency.toLowerCase()) {
        lines.push({ lookupKey, priceId: current.id, created: false });
        continue;
      }
      const created = await stripe.prices.create({
        product: productId,
        currency: currency.toLowerCase(),
        unit_amount: amount,
        recurring: { interval: "month", interval_count: periodMonths },
        lookup_key: lookupKey,
        transfer_lookup_key: true,
      });
      lines.push({ lookupKey, priceId: created.id, created: true });
    }
  }
  return lines;
}

export interface DescriptorCheck {
  /** What the payment pages and the terms announce. */
  announced: string;
  /** What Stripe prints on card statements for this account, null when it has none set. */
  atStripe: string | null;
}

/**
 * Our charges carry no suffix, so a card statement shows the account's own statement descriptor,
 * which only Stripe's dashboard sets for one's own account: read it back to compare.
 */
export async function statementDescriptorAtStripe(stripe: Stripe): Promise<DescriptorCheck> {
  const account = await stripe.accounts.retrieveCurrent();
  const atStripe = account.settings?.payments.statement_descriptor?.trim().toUpperCase() || null;
  return { announced: STATEMENT_DESCRIPTOR, atStripe };
}
