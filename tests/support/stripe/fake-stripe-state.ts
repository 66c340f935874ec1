import { DAY, type Subscription, nextBillingDate } from "./fake-stripe-objects";
import { type FormParams, readStrings, readText } from "./request-params";
import { BillingState } from "./fake-stripe-billing";

export { billingCycleDate, randomToken, type StripeEvent, type StateHooks } from "./fake-stripe-objects";

/**
 * The fake's state: one class per resource, each extending the one before (store, customers, payments,
 * billing), and this last one, the events and the clock.
 */
export class FakeStripeState extends BillingState {
  listEvents(params: FormParams) {
    const type = readText(params, "type");
    const types = readStrings(params, "types");
    const events = this.events.filter(
      (event) => (!type || event.type === type) && (!types.length || types.includes(event.type)),
    );
    return this.list("/v1/events", events, params);
  }

  /** Moves the clock to `target` (Unix seconds), running everything due on the way at its own time. */
  advance(target: number) {
    for (let step = 0; step < 10_000; step++) {
      const due = this.nextDue(target);
      if (!due) break;
      this.setClock(due.at);
      due.run();
    }
    this.setClock(target);
  }

  protected setClock(seconds: number) {
    this.offsetMs = Math.max(this.offsetMs, seconds * 1000 - Date.now());
  }

  protected nextDue(target: number) {
    let next: { at: number; run: () => void } | undefined;
    const consider = (at: number, run: () => void) => {
      if (at <= target && (!next || at < next.at)) next = { at, run };
    };
    for (const subscription of this.all("subscription")) {
      if (subscription.status === "trialing" && subscription.trial_end && !this.trialWarned.has(subscription.id)) {
        consider(subscription.trial_end - 3 * DAY, () => this.warnTrialEnd(subscription));
      }
      if (["trialing", "active", "past_due"].includes(subscription.status)) {
        const periodEnd = subscription.items.data[0]!.current_period_end;
        const cancelAt = subscription.cancel_at;
        if (cancelAt !== null && cancelAt < periodEnd) consider(cancelAt, () => this.end(subscription, cancelAt));
        else consider(periodEnd, () => this.renew(subscription));
      }
    }
    for (const invoice of this.all("invoice")) {
      const retryAt = invoice.status === "open" ? invoice.next_payment_attempt : null;
      if (retryAt) consider(retryAt, () => this.collect(invoice, { offSession: true }));
    }
    return next;
  }

  protected renew(subscription: Subscription) {
    const item = subscription.items.data[0]!;
    const ended = { start: item.current_period_start, end: item.current_period_end };
    if (subscription.cancel_at_period_end) return this.end(subscription, ended.end);
    this.trackSubscription(subscription, () => {
      item.current_period_start = ended.end;
      item.current_period_end = nextBillingDate(subscription.billing_cycle_anchor, ended.end, item.price.recurring!);
      if (subscription.status === "trialing") subscription.status = "active";
      const service = { start: item.current_period_start, end: item.current_period_end };
      const invoice = this.openInvoice(subscription, "subscription_cycle", ended, service);
      if (invoice.status === "open") this.collect(invoice, { offSession: true });
    });
  }
}
