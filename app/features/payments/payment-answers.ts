/** What the payment page says when the provider does not answer: no money moved. */
export const PROVIDER_UNREACHABLE =
  "We could not reach the payment provider, so nothing was charged. Please try again in a moment.";

/** What it says when the bank has not yet said yes or no (the order is paid once it has). */
export const PAYMENT_PENDING =
  "Your bank is still confirming this payment. Reload this page in a minute to see your booking; nothing more will be charged.";

/** When no card has paid the order's payment yet (the page was posted without confirming). */
export const PAYMENT_NOT_MADE = "No payment was made yet. Please enter your card details and press FINISH.";
