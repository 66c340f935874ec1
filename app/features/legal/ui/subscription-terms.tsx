import { Link } from "react-router";
import { CompanyEmailLink, CompanyPhoneLink } from "~/features/legal/ui/company-contact";
import type { LegalSectionContent } from "~/features/legal/ui/legal-document";
import { Price } from "~/components/ui/price";
import { SUPPORT_HOURS } from "~/features/support/support-hours";
import { siteConfig } from "../../../../site.config";

const { company, pricing, trialDays } = siteConfig;
const plans = [pricing.medium, pricing.premium];

export const subscriptionTermsIntro = (
  <p>
    This page sums up how a {company.name} membership runs, from the free trial to cancellation. It is part of our{" "}
    <Link to="/terms">Terms and Conditions</Link>, which give the full details.
  </p>
);

/** The numbered sections of the subscription terms, consistent with the full terms and conditions. */
export const subscriptionTermsSections: LegalSectionContent[] = [
  {
    id: "free-trial",
    title: "The free trial",
    body: (
      <p>
        Every plan starts with a {trialDays}-day free trial, and your first fast-track purchase includes one too.
        Nothing is charged for the trial. If you cancel before it ends, you pay nothing at all.
      </p>
    ),
  },
  {
    id: "billing",
    title: "Billing every quarter",
    body: (
      <>
        <p>When the trial ends, the fee of your plan is charged to your card for the first period:</p>
        <ul>
          {plans.map((plan) => (
            <li key={plan.id}>
              <strong>{plan.name}</strong>: <Price amount={plan.price} /> {plan.period.toLowerCase()}
            </li>
          ))}
        </ul>
        <p>Charges appear on your bank statement under the name {company.name}. We accept Visa and Mastercard.</p>
      </>
    ),
  },
  {
    id: "renewal",
    title: "Automatic renewal",
    body: (
      <p>
        Your membership renews automatically at the end of each period and the fee is charged again, until you cancel.
        There is no minimum term.
      </p>
    ),
  },
  {
    id: "reminders",
    title: "Payment reminders",
    body: (
      <p>
        If a payment is declined, we send you a payment reminder by e-mail. You then have 7 days to pay. If the payment
        has still not been made after those 7 days, we may end your membership.
      </p>
    ),
  },
  {
    id: "cancelling",
    title: "Cancelling",
    body: (
      <p>
        You can cancel at any time: in the member area, on our <Link to="/unsubscribe">Unsubscribe</Link> page, or by
        contacting customer service. After you cancel, no further fee is charged and you keep access until the end of
        the period you have already paid for.
      </p>
    ),
  },
  {
    id: "change-of-mind",
    title: "Changing your mind within 14 days",
    body: (
      <p>
        You may withdraw within 14 days of receiving your confirmation e-mail, without giving a reason. Your membership
        then ends straight away. The <Link to="/terms#cancellation-form">model cancellation form</Link> in our terms can
        help, but an e-mail is enough.
      </p>
    ),
  },
  {
    id: "refunds",
    title: "Refunds",
    body: (
      <p>
        A fee that has been charged is not refunded, except a confirmed duplicate charge or technical overcharge, which
        we refund to your card within 14 days.
      </p>
    ),
  },
  {
    id: "questions",
    title: "Questions",
    body: (
      <p>
        Our customer service is available {SUPPORT_HOURS}, by phone on <CompanyPhoneLink />, by e-mail to{" "}
        <CompanyEmailLink /> and by chat.
      </p>
    ),
  },
];
