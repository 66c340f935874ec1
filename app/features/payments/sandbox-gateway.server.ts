import { randomUUID } from "node:crypto";
import { cardBrand, type CardBrand } from "./card";
import { eq } from "drizzle-orm";
import { database, type Database } from "~/db/client.server";
import { sandboxAnswers } from "~/db/schema";
import type {
  CardFormGateway,
  ChargeOutcome,
  ChargeResult,
  RefundResult,
  SaveCardResult,
  SavedCardChargeResult,
  SavedPaymentMethod,
} from "./gateway";

/**
 * The documented test cards (docs/payments-and-memberships.md, "Test cards"). Any other number is declined, so a real card
 * typed into a sandbox site never looks paid.
 */
export const SANDBOX_TEST_CARDS: Record<string, { outcome: ChargeOutcome; message: string }> = {
  "4242424242424242": { outcome: "succeeded", message: "Payment accepted." },
  "5555555555554444": { outcome: "succeeded", message: "Payment accepted." },
  "4000000000000002": { outcome: "declined", message: "Your card was declined." },
  "4000000000009995": { outcome: "insufficient_funds", message: "Your card has insufficient funds." },
  // They pay the fast track; their saved card then misbehaves at renewal (see SAVED_CARD_BEHAVIOURS).
  "4999990000000346": { outcome: "succeeded", message: "Payment accepted." },
  "4999990000003050": { outcome: "succeeded", message: "Payment accepted." },
  "4000002760003184": { outcome: "succeeded", message: "Payment accepted." },
};

/** How a saved card answers later charges. The behaviour travels in its reference, never the number. */
type SavedCardBehaviour = "pays" | "declines" | "declines-once" | "authenticates";

const SAVED_CARD_BEHAVIOURS: Record<string, SavedCardBehaviour> = {
  "4999990000000346": "declines",
  "4999990000003050": "declines-once",
  // As Stripe's card of that number: the bank checks every payment, so a renewal with nobody there
  // waits for its card holder, and a charge the member asks for on the account passes.
  "4000002760003184": "authenticates",
};

const NOT_A_TEST_CARD = {
  outcome: "declined",
  message: "Your card was declined. This site is in test mode: use one of the documented test cards.",
} as const;

const ACCEPTED = { outcome: "succeeded", message: "Payment accepted." } as const;
const NO_FUNDS = { outcome: "insufficient_funds", message: "Your card has insufficient funds." } as const;

const NEEDS_AUTHENTICATION = {
  outcome: "authentication_required",
  message: "Your bank asks you to confirm this payment.",
} as const;

const SAVED_CARD_REF = /^pm_sandbox_(pays|declines|declines-once|authenticates)_[0-9a-f-]{36}$/;

/** Where the sandbox keeps its answers to charges and refunds, by idempotency key. */
export interface SandboxAnswers {
  /** Stores `answer` under `key` unless one is there already; returns the one that is kept. */
  keep(key: string, answer: unknown): Promise<unknown>;
}

/** Answers kept for the life of the process only, for tests without a database. */
export function answersInMemory(): SandboxAnswers {
  const kept = new Map<string, unknown>();
  return {
    keep: async (key, answer) => {
      if (!kept.has(key)) kept.set(key, answer);
      return kept.get(key);
    },
  };
}

/**
 * Answers kept in the process's database (`sandbox_answers`), as a real provider keeps them: a
 * payment retried after a restart gets the first answer. Only for calls made outside a
 * transaction: on the embedded database a transaction holds the one connection (ADR 021).
 */
export function answersInDatabase(db: () => Database = () => database().db): SandboxAnswers {
  return {
    async keep(key, answer) {
      const [kept] = await db()
        .insert(sandboxAnswers)
        .values({ idempotencyKey: key, answer })
        .onConflictDoNothing()
        .returning({ answer: sandboxAnswers.answer });
      if (kept) return kept.answer;
      // The key has its answer already (a retry, or another process first): that one stands.
      const [first] = await db().select().from(sandboxAnswers).where(eq(sandboxAnswers.idempotencyKey, key));
      return first?.answer;
    },
  };
}

/**
 * A gateway that moves no money. It keeps the answer to every charge (card form and saved card) and
 * refund in `answers` (the database, for the process's sandbox: every call is made outside a
 * transaction) and, for as long as the process lives, the saved cards that already declined once,
 * and how much of each of its charges was refunded, so that it refuses to refund more than it took.
 */
export function createSandboxGateway({
  answers = answersInMemory(),
}: { answers?: SandboxAnswers } = {}): CardFormGateway {
  const inFlight = new Map<string, Promise<unknown>>();
  const declinedOnce = new Set<string>();
  const charges = new Map<string, { amount: number; refunded: number }>();

  function once<T>(key: string, work: () => Promise<T>): Promise<T> {
    const known = inFlight.get(key) as Promise<T> | undefined;
    if (known) return known;
    const answer = work();
    inFlight.set(key, answer);
    answer.catch(() => inFlight.delete(key));
    return answer;
  }

  /**
   * `once`, and the answer kept in `answers`: the first one is what every later call gets. The
   * answer is worked out before it is looked up, so that a first call (nearly every one) is one
   * write; a call whose key has an answer already throws its own away. That call is in another
   * process (or this one after a restart): `once` answers a key this process has answered, so the
   * refunds and declines counted in memory are not counted twice here.
   */
  function keptOnce<T>(key: string, work: () => Promise<T>): Promise<T> {
    return once(key, async () => (await answers.keep(key, await work())) as T);
  }

  function recordCharge(outcome: SavedCardChargeResult["outcome"], amount: number) {
    const providerRef = `sandbox_${randomUUID()}`;
    if (outcome === "succeeded") charges.set(providerRef, { amount, refunded: 0 });
    return providerRef;
  }

  return {
    name: "sandbox",
    kind: "card-form",
    charge({ amount, card, saveCard, idempotencyKey }) {
      return keptOnce(idempotencyKey, async (): Promise<ChargeResult> => {
        assertAmount(amount);
        const brand = cardBrand(card.number);
        if (!brand) throw new Error("The sandbox only takes Visa and Mastercard");
        const { outcome, message } = SANDBOX_TEST_CARDS[card.number] ?? NOT_A_TEST_CARD;
        const paymentMethod = saveCard && outcome === "succeeded" ? savedCard(card.number, brand) : undefined;
        return {
          outcome,
          message,
          brand,
          last4: card.number.slice(-4),
          providerRef: recordCharge(outcome, amount),
          paymentMethod,
        };
      });
    },
    saveCard({ card, idempotencyKey }) {
      return keptOnce(`setup:${idempotencyKey}`, async (): Promise<SaveCardResult> => {
        const brand = cardBrand(card.number);
        if (!brand) throw new Error("The sandbox only takes Visa and Mastercard");
        const { outcome, message } = SANDBOX_TEST_CARDS[card.number] ?? NOT_A_TEST_CARD;
        if (outcome !== "succeeded") return { outcome, message };
        return { outcome, message: "Card saved.", paymentMethod: savedCard(card.number, brand) };
      });
    },
    chargeSaved({ paymentMethodRef, amount, idempotencyKey, customerPresent = false }) {
      return keptOnce(`saved:${idempotencyKey}`, async (): Promise<SavedCardChargeResult> => {
        assertAmount(amount);
        const behaviour = SAVED_CARD_REF.exec(paymentMethodRef)?.[1] as SavedCardBehaviour | undefined;
        if (!behaviour) throw new Error("The sandbox does not know this saved card");
        let answer: Pick<SavedCardChargeResult, "outcome" | "message"> = ACCEPTED;
        if (behaviour === "declines") answer = NO_FUNDS;
        if (behaviour === "authenticates" && !customerPresent) answer = NEEDS_AUTHENTICATION;
        if (behaviour === "declines-once" && !declinedOnce.has(paymentMethodRef)) {
          declinedOnce.add(paymentMethodRef);
          answer = NO_FUNDS;
        }
        return { ...answer, providerRef: recordCharge(answer.outcome, amount) };
      });
    },
    refund({ chargeRef, amount, idempotencyKey }) {
      return keptOnce(`refund:${idempotencyKey}`, async (): Promise<RefundResult> => {
        assertAmount(amount);
        const charge = charges.get(chargeRef);
        // A charge from before a restart is unknown here; the caller's own ledger caps it.
        if (charge) {
          if (charge.refunded + amount > charge.amount)
            throw new Error("The sandbox refuses to refund more than was charged");
          charge.refunded += amount;
        }
        return { providerRef: `sandbox_refund_${randomUUID()}` };
      });
    },
  };
}

/** A kept card's reference: how it answers later charges travels in it, never its number. */
function savedCard(number: string, brand: CardBrand): SavedPaymentMethod {
  const behaviour = SAVED_CARD_BEHAVIOURS[number] ?? "pays";
  return { ref: `pm_sandbox_${behaviour}_${randomUUID()}`, brand, last4: number.slice(-4) };
}

function assertAmount(amount: number) {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`Cannot charge an amount of ${amount}`);
}

/**
 * The process's one sandbox, so that its memory of keys and refunds is shared by every request; its
 * answers to charges and refunds are kept in the process's database.
 */
export const sandboxGateway = createSandboxGateway({ answers: answersInDatabase() });
