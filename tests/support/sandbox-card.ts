/**
 * The sandbox's payment form (/fast-track-payment/:id) as a visitor posts it: a card the sandbox
 * gateway takes, and the consent to start at once.
 */
export function sandboxPaymentFields(): Record<string, string> {
  return {
    cardNumber: "4242 4242 4242 4242",
    expiryMonth: "11",
    expiryYear: String(new Date().getFullYear() + 1),
    cvv: "987",
    consent: "on",
  };
}
