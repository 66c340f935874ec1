import { Link } from "react-router";
import { WITHDRAW_PATH } from "~/features/legal/model-withdrawal-form";
import { CompanyEmailLink, CompanyPhoneLink } from "~/features/legal/ui/company-contact";
import { LegalDocument, type LegalSectionContent } from "~/features/legal/ui/legal-document";
import { Price } from "~/components/ui/price";
import { membershipWording as terms } from "./membership-wording";
import { monthlyFreeAccesses } from "~/features/memberships/fast-track-allowance";
import { STATEMENT_DESCRIPTOR } from "~/features/payments/statement-descriptor";
import { SUPPORT_HOURS } from "~/features/support/support-hours";
import { siteConfig } from "../../../../site.config";

const { company } = siteConfig;

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
        Choosing a plan and giving a card at our membership checkout starts a {terms.trialDays}-day free trial of that
        plan; your first fast-track purchase also starts one, of the {terms.trialPlan.name} plan. There is one trial per
        e-mail address. Nothing is charged for the trial, and {terms.reminderBefore} before it ends we e-mail you the
        date and the amount of the first charge. If you do not cancel, the trial becomes a paid membership when it ends:
        your plan's fee (for {terms.trialPlan.name}, <Price amount={terms.trialPlan.price} />) is charged on that day
        and then {terms.everyPeriod}. If you cancel online before the trial ends, you pay nothing at all.
      </p>
    ),
  },
  {
    id: "billing",
    title: "Billing every quarter",
    body: (
      <>
        <p>
          When the trial ends, the fee of your plan is charged to the card you gave us, and then {terms.everyPeriod}:
        </p>
        <ul>
          {terms.plans.map((plan) => (
            <li key={plan.id}>
              <strong>{plan.name}</strong>: <Price amount={plan.price} /> {terms.everyPeriod}
            </li>
          ))}
        </ul>
        <p>
          Our payment provider keeps your card for these charges; we keep only its brand, its last 4 digits and the
          provider&rsquo;s reference to it, never the card number or security code. Charges appear on your bank
          statement under the name {STATEMENT_DESCRIPTOR}, and each one is confirmed by an e-mail receipt. We accept
          Visa and Mastercard.
        </p>
      </>
    ),
  },
  {
    id: "free-fast-tracks",
    title: "Free fast-track accesses",
    body: (
      <>
        <p>Each calendar month (Amsterdam time), your plan gives you free fast-track accesses, one per passenger:</p>
        <ul>
          {terms.plans.map((plan) => (
            <li key={plan.id}>
              <strong>{plan.name}</strong>: {monthlyFreeAccesses(plan.id)} a month
            </li>
          ))}
        </ul>
        <p>
          They start with your first paid quarter, not during the free trial, and pause while a fee is overdue. They
          apply when you book signed in to your account under your own e-mail address: the booking form shows how many
          are left, and the passengers they cover are not charged. A booking they cover in full needs no card. Accesses
          you do not use in a month do not carry over; a cancelled or refunded booking gives back the accesses it used,
          for the month it was made in.
        </p>
      </>
    ),
  },
  {
    id: "changing-plan",
    title: "Changing plan",
    body: (
      <p>
        You can change plan at any time, in your account or by contacting us. During the free trial the change is
        immediate and nothing is charged: your first charge is the new plan&rsquo;s fee. Moving to a dearer plan in a
        paid quarter is immediate: we charge the difference between the two fees for the days of the quarter still to
        come, today included, and e-mail you the receipt. Moving to a cheaper plan takes effect when your paid quarter
        ends: you keep your plan until then, and the next fee is the new plan&rsquo;s. Until that day you can call the
        move off in your account and keep your plan.
      </p>
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
        If a payment is declined, we send you a payment reminder by e-mail. You then have {terms.reminderGraceDays} days
        to pay, and we try your card again every {terms.retryEveryDays} days. If the payment has still not been made{" "}
        {terms.reminderGraceDays} days after the reminder, your membership ends and nothing more is charged.
      </p>
    ),
  },
  {
    id: "cancelling",
    title: "Cancelling",
    body: (
      <>
        <p>
          You can cancel at any time online on our <Link to="/unsubscribe">Unsubscribe</Link> page: we e-mail you a
          link, and opening it and confirming cancels your membership. Customer service can also cancel it for you. No
          further fee is charged. During the free trial it simply ends, without any charge; during your first paid
          period you keep access until its end.
        </p>
        <p>
          After your first paid period you never have to give more than {terms.notice}: your membership ends{" "}
          {terms.noticePeriod} after your cancellation, or at the end of the period if that comes sooner, and we
          automatically refund the fee for the rest of the period in proportion to the time. We confirm on screen and by
          e-mail until when you keep access and any amount we refund.
        </p>
      </>
    ),
  },
  {
    id: "change-of-mind",
    title: `Changing your mind within ${terms.changeOfMindDays} days`,
    body: (
      <>
        <p>
          You may withdraw within {terms.changeOfMindDays} days of receiving your confirmation e-mail, without giving a
          reason: online with our <Link to={WITHDRAW_PATH}>withdrawal function</Link>, by e-mail, or with the{" "}
          <Link to="/terms#cancellation-form">model withdrawal form</Link> in our terms. Your membership then ends
          straight away and nothing more is charged.
        </p>
        <p>
          Because you asked for your membership to start at once, withdrawing during the free trial costs nothing, and
          after the first charge you pay only for the time your membership ran since that charge: we refund the rest of
          the fee. A fast track is refunded in full if you withdraw before your flight day; once the flight day has come
          it has been provided, and you can no longer withdraw from it.
        </p>
      </>
    ),
  },
  {
    id: "refunds",
    title: "Refunds",
    body: (
      <p>
        A fee that has been charged is not refunded, except the unused part when you withdraw within{" "}
        {terms.changeOfMindDays} days or your membership ends with {terms.notice} as above, and a confirmed duplicate
        charge or technical overcharge. We refund to the card you paid with within {terms.refundWithinDays} days.
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

/** The subscription terms as the page shows them and the confirmation e-mail carries them. */
export function SubscriptionTerms() {
  return (
    <LegalDocument
      title="Subscription Terms"
      lead="How the free trial, the quarterly fee and cancellation work."
      intro={subscriptionTermsIntro}
      sections={subscriptionTermsSections}
    />
  );
}
