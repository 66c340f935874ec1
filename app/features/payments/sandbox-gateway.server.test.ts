import { describe, expect, it } from "vitest";
import { sandboxGateway } from "./sandbox-gateway.server";

const charge = (number: string, amount = 3300) =>
  sandboxGateway.charge({
    orderId: "7f0c7e52-3f59-4a55-9a3e-1f7d0c4c1a11",
    amount,
    currency: "EUR",
    card: { number, expiryMonth: 12, expiryYear: 2030, cvv: "123" },
  });

describe("the sandbox gateway", () => {
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
