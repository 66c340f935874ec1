import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { CardFormGateway } from "./gateway";
import { answersInMemory, createSandboxGateway } from "./sandbox-gateway.server";

const payFastTrack = (
  gateway: CardFormGateway,
  number: string,
  {
    amount = 3300,
    saveCard,
    idempotencyKey = randomUUID(),
  }: { amount?: number; saveCard?: boolean; idempotencyKey?: string } = {},
) =>
  gateway.charge({
    idempotencyKey,
    orderId: "7f0c7e52-3f59-4a55-9a3e-1f7d0c4c1a11",
    amount,
    currency: "EUR",
    card: { number, expiryMonth: 12, expiryYear: 2030, cvv: "123" },
    saveCard,
  });

const sandbox = createSandboxGateway();
const charge = (number: string, amount = 3300) => payFastTrack(sandbox, number, { amount });

describe("the sandbox gateway", () => {
  it("answers a card charge's key with its first answer, also after a restart on the same answers", async () => {
    const answers = answersInMemory();
    const idempotencyKey = randomUUID();
    const first = await payFastTrack(createSandboxGateway({ answers }), "4242424242424242", {
      idempotencyKey,
    });
    // The process restarts: a new gateway on the kept answers.
    const again = await payFastTrack(createSandboxGateway({ answers }), "4242424242424242", {
      idempotencyKey,
    });
    expect(again).toEqual(first);
    const other = await payFastTrack(createSandboxGateway({ answers }), "4242424242424242");
    expect(other.providerRef).not.toBe(first.providerRef);
  });

  it("answers a renewal's and a refund's key with their first answers after a restart on the same answers", async () => {
    const answers = answersInMemory();
    const before = createSandboxGateway({ answers });
    const { paymentMethod, providerRef } = await payFastTrack(before, "4242424242424242", { saveCard: true });
    const renewal = { paymentMethodRef: paymentMethod!.ref, amount: 4900, currency: "EUR" as const };
    const refund = { chargeRef: providerRef, amount: 1000, currency: "EUR" as const, idempotencyKey: randomUUID() };
    const charged = await before.chargeSaved({ ...renewal, idempotencyKey: "invoice-key:1" });
    const refunded = await before.refund(refund);

    const after = createSandboxGateway({ answers });
    expect(await after.chargeSaved({ ...renewal, idempotencyKey: "invoice-key:1" })).toEqual(charged);
    expect(await after.refund(refund)).toEqual(refunded);
    const next = await after.chargeSaved({ ...renewal, idempotencyKey: "invoice-key:2" });
    expect(next.providerRef).not.toBe(charged.providerRef);
  });

  it("accepts the two success test cards", async () => {
    expect(await charge("4242424242424242")).toMatchObject({ outcome: "succeeded", brand: "Visa", last4: "4242" });
    expect(await charge("5555555555554444")).toMatchObject({
      outcome: "succeeded",
      brand: "Mastercard",
      last4: "4444",
    });
  });

  it("declines 4000 0000 0000 0002 and fails 4000 0000 0000 9995 for insufficient funds", async () => {
    expect(await charge("4000000000000002")).toMatchObject({
      outcome: "declined",
      message: "Your card was declined.",
    });
    expect(await charge("4000000000009995")).toMatchObject({
      outcome: "insufficient_funds",
      message: "Your card has insufficient funds.",
    });
  });

  it("declines any card that is not a test card", async () => {
    const result = await charge("4012888888881881");
    expect(result.outcome).toBe("declined");
    expect(result.message).toMatch(/test mode/);
  });

  it("gives every attempt its own reference", async () => {
    const [first, second] = await Promise.all([charge("4242424242424242"), charge("4242424242424242")]);
    expect(first.providerRef).toMatch(/^sandbox_/);
    expect(first.providerRef).not.toBe(second.providerRef);
  });

  it("refuses to charge nothing or a fraction", async () => {
    await expect(charge("4242424242424242", 0)).rejects.toThrow(/Cannot charge/);
    await expect(charge("4242424242424242", 10.5)).rejects.toThrow(/Cannot charge/);
  });
});

describe("the sandbox's saved cards", () => {
  const saving = (gateway: CardFormGateway, number: string, saveCard = true) =>
    payFastTrack(gateway, number, { saveCard });
  const renew = (gateway: CardFormGateway, paymentMethodRef: string, idempotencyKey = randomUUID(), amount = 4900) =>
    gateway.chargeSaved({ paymentMethodRef, amount, currency: "EUR", idempotencyKey });
  async function savedCard(gateway: CardFormGateway, number: string) {
    const { paymentMethod } = await saving(gateway, number);
    return paymentMethod!.ref;
  }

  it("keeps a card only when asked and paid, as a reference that holds neither the number nor the CVV", async () => {
    const gateway = createSandboxGateway();
    const saved = await saving(gateway, "4242424242424242");
    expect(saved.paymentMethod).toEqual({
      ref: expect.stringMatching(/^pm_sandbox_pays_/),
      brand: "Visa",
      last4: "4242",
    });
    // Nothing in it but the behaviour and a random id: neither the number nor the CVV.
    expect(saved.paymentMethod!.ref).toMatch(
      /^pm_sandbox_pays_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect((await saving(gateway, "4242424242424242", false)).paymentMethod).toBeUndefined();
    expect((await saving(gateway, "4000000000009995")).paymentMethod).toBeUndefined();
    const [first, second] = await Promise.all([
      savedCard(gateway, "5555555555554444"),
      savedCard(gateway, "5555555555554444"),
    ]);
    expect(first).not.toBe(second);
  });

  it("charges a saved good card at every renewal", async () => {
    const gateway = createSandboxGateway();
    const ref = await savedCard(gateway, "4242424242424242");
    for (let renewal = 0; renewal < 3; renewal++) {
      expect(await renew(gateway, ref)).toMatchObject({
        outcome: "succeeded",
        providerRef: expect.stringMatching(/^sandbox_/),
      });
    }
  });

  it("pays the fast track with 4999 9900 0000 0346, then declines every renewal for insufficient funds", async () => {
    const gateway = createSandboxGateway();
    const paid = await saving(gateway, "4999990000000346");
    expect(paid.outcome).toBe("succeeded");
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await renew(gateway, paid.paymentMethod!.ref)).toMatchObject({
        outcome: "insufficient_funds",
        message: "Your card has insufficient funds.",
      });
    }
  });

  it("declines the first renewal attempt of 4999 9900 0000 3050, then pays the retries", async () => {
    const gateway = createSandboxGateway();
    const ref = await savedCard(gateway, "4999990000003050");
    expect((await renew(gateway, ref)).outcome).toBe("insufficient_funds");
    expect((await renew(gateway, ref)).outcome).toBe("succeeded");
    expect((await renew(gateway, ref)).outcome).toBe("succeeded");
    // Each saved card declines once, not each card number.
    expect((await renew(gateway, await savedCard(gateway, "4999990000003050"))).outcome).toBe("insufficient_funds");
  });

  it("pays the fast track with 4000 0027 6000 3184, then holds each renewal for its card holder, whose own charge passes", async () => {
    const gateway = createSandboxGateway();
    const ref = await savedCard(gateway, "4000002760003184");
    expect(await renew(gateway, ref)).toMatchObject({
      outcome: "authentication_required",
      message: "Your bank asks you to confirm this payment.",
    });
    const present = await gateway.chargeSaved({
      paymentMethodRef: ref,
      amount: 4900,
      currency: "EUR",
      idempotencyKey: randomUUID(),
      customerPresent: true,
    });
    expect(present.outcome).toBe("succeeded");
    expect((await renew(gateway, ref)).outcome).toBe("authentication_required");
  });

  it("gives the first answer again for a key it has seen, without charging again", async () => {
    const gateway = createSandboxGateway();
    const ref = await savedCard(gateway, "4999990000003050");
    const key = randomUUID();
    const [declined, repeated] = await Promise.all([renew(gateway, ref, key), renew(gateway, ref, key)]);
    expect(repeated).toEqual(declined);
    expect(declined.outcome).toBe("insufficient_funds");
    // A new key is a new attempt, which pays; the old key keeps its decline.
    const retry = await renew(gateway, ref);
    expect(retry.outcome).toBe("succeeded");
    expect(await renew(gateway, ref, key)).toEqual(declined);
    expect(retry.providerRef).not.toBe(declined.providerRef);
  });

  it("refuses a reference it never gave, and forgets the key of a request it refused", async () => {
    const gateway = createSandboxGateway();
    const key = randomUUID();
    await expect(renew(gateway, "pm_sandbox_pays_not-a-uuid", key)).rejects.toThrow(/does not know this saved card/);
    await expect(renew(gateway, "4242424242424242", key)).rejects.toThrow(/does not know/);
    const ref = await savedCard(gateway, "4242424242424242");
    expect((await renew(gateway, ref, key)).outcome).toBe("succeeded");
    await expect(renew(gateway, ref, randomUUID(), 0)).rejects.toThrow(/Cannot charge/);
  });
});

describe("the sandbox's refunds", () => {
  const refund = (gateway: CardFormGateway, chargeRef: string, amount: number, idempotencyKey = randomUUID()) =>
    gateway.refund({ chargeRef, amount, currency: "EUR", idempotencyKey });

  it("refunds in parts up to what was charged, and refuses a cent more", async () => {
    const gateway = createSandboxGateway();
    const { providerRef } = await payFastTrack(gateway, "4242424242424242");
    expect((await refund(gateway, providerRef, 1000)).providerRef).toMatch(/^sandbox_refund_/);
    await expect(refund(gateway, providerRef, 2301)).rejects.toThrow(/more than was charged/);
    await refund(gateway, providerRef, 2300);
    await expect(refund(gateway, providerRef, 1)).rejects.toThrow(/more than was charged/);
  });

  it("counts a repeated key once and answers it the same", async () => {
    const gateway = createSandboxGateway();
    const { providerRef } = await payFastTrack(gateway, "4242424242424242");
    const key = randomUUID();
    const first = await refund(gateway, providerRef, 3300, key);
    expect(await refund(gateway, providerRef, 3300, key)).toEqual(first);
    await expect(refund(gateway, providerRef, 1)).rejects.toThrow(/more than was charged/);
  });

  it("caps the refund of a renewal at the renewal's amount", async () => {
    const gateway = createSandboxGateway();
    const { paymentMethod } = await payFastTrack(gateway, "4242424242424242", { saveCard: true });
    const renewal = await gateway.chargeSaved({
      paymentMethodRef: paymentMethod!.ref,
      amount: 4900,
      currency: "EUR",
      idempotencyKey: randomUUID(),
    });
    await expect(refund(gateway, renewal.providerRef, 4901)).rejects.toThrow(/more than was charged/);
    await refund(gateway, renewal.providerRef, 4900);
    await expect(refund(gateway, renewal.providerRef, 1)).rejects.toThrow(/more than was charged/);
  });

  it("leaves the cap of a charge it does not know (from before a restart) to the caller's ledger", async () => {
    const gateway = createSandboxGateway();
    expect((await refund(gateway, "sandbox_from_an_earlier_process", 4900)).providerRef).toMatch(/^sandbox_refund_/);
  });
});
