import { Link } from "react-router";
import { WITHDRAW_PATH, modelWithdrawalForm } from "~/features/legal/model-withdrawal-form";
import { CompanyEmailLink, CompanyPhoneLink } from "~/features/legal/ui/company-contact";
import { LegalDocument, type LegalSectionContent } from "~/features/legal/ui/legal-document";
import { ACCOUNT_PATH, memberAreaUrl } from "~/components/layout/nav-links";
import { Price } from "~/components/ui/price";
import { membershipWording as terms } from "./membership-wording";
import { SUPPORT_HOURS } from "~/features/support/support-hours";
import { STATEMENT_DESCRIPTOR } from "~/features/payments/statement-descriptor";
import { siteConfig } from "../../../../site.config";

const { company, domains, fastTrack } = siteConfig;

const memberAreaName = domains.memberArea ?? `${domains.main}${ACCOUNT_PATH}`;

export const TERMS_LAST_UPDATED = "2025-03-21";

function MemberAreaLink() {
  return (
    <a href={memberAreaUrl(domains.memberArea)} target="_blank" rel="noopener noreferrer">
      {memberAreaName}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

export const termsIntro = (
  <p>
    These terms explain what you can expect from the {company.name} membership and from a fast-track booking, what you
    pay and when, and how to cancel. Please read them before you order. If anything is unclear, our customer service is
    happy to explain.
  </p>
);

/** The fifteen numbered sections of the terms and conditions, in order. */
export const termsSections: LegalSectionContent[] = [
  {
    id: "about-us",
    title: "Who we are",
    body: (
      <>
        <p>
          The {company.name} membership and fast-track bookings are provided by <strong>{company.legalName}</strong>, a
          company registered in the Netherlands (&ldquo;{company.name}&rdquo;, &ldquo;we&rdquo;, &ldquo;us&rdquo;).
        </p>
        <ul>
          <li>Postal address: {company.address}</li>
          <li>
            E-mail: <CompanyEmailLink />
          </li>
          <li>
            Phone: <CompanyPhoneLink />
          </li>
          <li>
            Websites: {domains.main}, {domains.fastTrack}, {domains.checkIn} and the member area {memberAreaName}
          </li>
        </ul>
        <p>
          &ldquo;You&rdquo; means the person who orders the membership or a booking. You must be at least 18 years old
          to order.
        </p>
      </>
    ),
  },
  {
    id: "scope",
    title: "Scope of these terms",
    body: (
      <>
        <p>
          These terms apply to every membership and every fast-track booking ordered through our websites. The{" "}
          <Link to="/subscription-terms">Subscription Terms</Link> summarise the parts about the trial, billing and
          cancellation; where the two ever differ, these terms apply.
        </p>
        <p>
          We may change these terms for the future. We tell you by e-mail before a change takes effect, and you may
          cancel your membership before it applies to you. An order is always governed by the terms that applied when it
          was placed, until the end of the period you have already paid for.
        </p>
      </>
    ),
  },
  {
    id: "membership",
    title: "The membership and its services",
    body: (
      <>
        <p>A membership gives you access, according to your plan, to:</p>
        <ul>
          <li>
            <strong>Fast-track access:</strong> a dedicated lane to the security checkpoint at over 300 connected
            airports.
          </li>
          <li>
            <strong>Automated check-in:</strong> we check you in for your flight as soon as check-in opens and send you
            your boarding pass.
          </li>
          <li>
            <strong>Lounge discounts</strong> at participating airport lounges.
          </li>
          <li>
            <strong>Skip-the-line entry</strong> to participating museums and attractions.
          </li>
          <li>
            <strong>Travel e-books</strong> to read before and during your trip.
          </li>
          <li>
            <strong>Concierge help</strong> with planning and questions about your travels.
          </li>
        </ul>
        <p>
          Airports, lounges, museums and attractions are run by their own operators under their own rules. Which
          partners take part, and their opening times, can vary by airport, terminal and date; the member area shows
          what is available for your trip.
        </p>
      </>
    ),
  },
  {
    id: "plans-and-prices",
    title: "Plans and prices",
    body: (
      <>
        <p>There are two plans:</p>
        <ul>
          {terms.plans.map((plan) => (
            <li key={plan.id}>
              <strong>{plan.name}</strong>: <Price amount={plan.price} />, {terms.everyPeriod}
              <ul className="mt-2">
                {plan.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
        <p>
          Prices are shown and charged in the currency you choose on our website (US dollars, euros or pounds sterling)
          and include any VAT due. The price of your plan is stated again in your order confirmation.
        </p>
      </>
    ),
  },
  {
    id: "trial-and-fees",
    title: "Free trial and recurring fees",
    body: (
      <>
        <p>
          Every membership starts with a <strong>{terms.trialDays}-day free trial</strong>, which your first fast-track
          purchase starts (see <a href="#fast-track-bookings">Fast-track bookings</a>). If you cancel during the trial,
          you pay nothing. {terms.reminderBefore} before the trial ends, we send you an e-mail with the date and the
          amount of the first charge.
        </p>
        <p>
          If you do not cancel, the free trial becomes a paid membership when it ends: on that day, {terms.trialDays}{" "}
          days after your payment, the fee of your plan is charged for the first time to the card you paid with, and
          again {terms.everyPeriod} after that:
        </p>
        <ul>
          {terms.plans.map((plan) => (
            <li key={plan.id}>
              {plan.name}: <Price amount={plan.price} /> {terms.everyPeriod}
            </li>
          ))}
        </ul>
        <p>
          To pay nothing at all, cancel online on our <Link to="/unsubscribe">Unsubscribe</Link> page before the trial
          ends. We send you a receipt by e-mail for each charge. The membership renews automatically each time until it
          ends as described in <a href="#cancellation">Cancelling your membership</a>. There is no minimum term.
        </p>
      </>
    ),
  },
  {
    id: "ordering",
    title: "How an order is made and accepted",
    body: (
      <>
        <p>
          Before you pay, the payment page states what you are buying, the total you pay now and, when the order starts
          a free trial, the membership that follows: its fee, the date of the first charge and how to cancel. The button
          that places the order says that you pay now.
        </p>
        <ol>
          <li>Your order is accepted when you have submitted your details and your payment has been taken.</li>
          <li>We then review the order.</li>
          <li>
            Once the review is done, you get access to the member zone at <MemberAreaLink /> and we send you a
            confirmation e-mail. It sets out your order and, if it started one, your membership, and carries these terms
            and the <a href="#cancellation-form">model withdrawal form</a>, so that you can keep them.
          </li>
        </ol>
        <p>
          We start providing the service within <strong>1 day of payment</strong>. If we do not, you may end the
          contract by telling our customer service, and we will not charge any further fee.
        </p>
      </>
    ),
  },
  {
    id: "fast-track-bookings",
    title: "Fast-track bookings",
    body: (
      <>
        <p>
          You can book fast-track access for one flight on our <Link to="/fast-track-form">booking form</Link>: you
          choose the airport and flight date and the number of passengers (1 to 10 adults and 0 to 10 children). The
          price is <Price amount={fastTrack.adultPrice} /> per adult and <Price amount={fastTrack.childPrice} /> per
          child; the total is shown before you pay.
        </p>
        <p>
          Your first fast-track purchase includes a {terms.trialDays}-day free trial of the {terms.trialPlan.name}{" "}
          membership, which starts when your payment is taken. When the trial ends, the membership becomes paid: it
          costs <Price amount={terms.trialPlan.price} /> {terms.everyPeriod}, charged to the card you paid the booking
          with, the first time on the day the trial ends, unless you cancel before then. An e-mail address gets one free
          trial: a later booking with the same address does not start another. The rest of these terms apply to that
          membership like to any other.
        </p>
        <p>
          A booking is valid for the airport and date you chose. Please allow enough time for your journey: fast track
          shortens the security queue, but does not guarantee that you reach your flight. You may withdraw from a
          booking until your flight day, as described in <a href="#change-of-mind">Your right of withdrawal</a>.
        </p>
      </>
    ),
  },
  {
    id: "payment",
    title: "Payment and payment reminders",
    body: (
      <>
        <p>
          We accept Visa and Mastercard. Charges appear on your bank statement under the name {STATEMENT_DESCRIPTOR}.
          Your card details are handled by our payment provider, which keeps your card for the recurring fees. We keep
          only its brand, its last 4 digits and the payment provider&rsquo;s reference to it; we never store your card
          number or security code.
        </p>
        <p>
          If a payment is declined, we send you a payment reminder by e-mail, with what to do and the date your
          membership ends if the fee stays unpaid. You then have <strong>{terms.reminderGraceDays} days</strong> to pay;
          meanwhile we try your card again every {terms.retryEveryDays} days. If the payment has still not been made{" "}
          {terms.reminderGraceDays} days after the reminder, the contract ends, your membership stops and nothing more
          is charged.
        </p>
      </>
    ),
  },
  {
    id: "change-of-mind",
    title: `Your ${terms.changeOfMindDays}-day right of withdrawal`,
    body: (
      <>
        <p>
          You may withdraw from the contract, that is change your mind about your membership, your fast-track booking or
          both, without giving a reason within <strong>{terms.changeOfMindDays} days</strong> of the day you receive our
          confirmation e-mail. You are in time if you send your statement before the {terms.changeOfMindDays} days are
          over. You can withdraw:
        </p>
        <ul>
          <li>
            online, with our <Link to={WITHDRAW_PATH}>withdrawal function</Link> (&ldquo;Withdraw from contract
            here&rdquo; at the foot of every page): give your name, your order or membership number (a
            membership&rsquo;s number is the order number of the booking that started it) and your e-mail address, then
            confirm. We acknowledge your withdrawal by e-mail straight away, with the date and time we received it;
          </li>
          <li>
            or by sending us a clear statement by e-mail to <CompanyEmailLink /> or by post to {company.legalName},{" "}
            {company.address}. You may use the <a href="#cancellation-form">model withdrawal form</a> below, but you do
            not have to.
          </li>
        </ul>
        <h3>Starting before the {terms.changeOfMindDays} days are over</h3>
        <p>
          On the payment page you ask us expressly, by ticking a box, to provide your fast track and to start your
          membership&rsquo;s free trial within the {terms.changeOfMindDays}-day period, and you acknowledge what that
          means if you then withdraw. We keep the words you agreed to and the time with your order.
        </p>
        <ul>
          <li>
            <strong>Your membership</strong> ends at once and nothing more is charged. If you withdraw during the free
            trial, you pay nothing at all. If a fee has already been charged, you pay only for the time your membership
            ran after that charge, in proportion to the period the fee covers, and we refund the rest.
          </li>
          <li>
            <strong>Your fast track</strong> is refunded in full if you withdraw before your flight day. Once your
            flight day has come, the fast track has been provided in full at your request, and you can no longer
            withdraw from it.
          </li>
        </ul>
        <p>
          We refund what you are owed within <strong>{terms.refundWithinDays} days</strong> of the day we receive your
          withdrawal, to the card you paid with, at no cost to you.
        </p>
      </>
    ),
  },
  {
    id: "cancellation",
    title: "Cancelling your membership",
    body: (
      <>
        <p>You can cancel your membership at any time, without giving a reason:</p>
        <ul>
          <li>
            online, on our <Link to="/unsubscribe">Unsubscribe</Link> page (&ldquo;Cancel membership&rdquo; at the foot
            of every page): enter the e-mail address of your membership and we send you a link; opening it and
            confirming cancels your membership;
          </li>
          <li>
            or by asking our customer service, by e-mail to <CompanyEmailLink />, by phone on <CompanyPhoneLink /> or in
            the chat.
          </li>
        </ul>
        <p>
          If you cancel during the free trial, it ends at the end of the trial and nothing is charged. If you cancel
          during your first paid period, your cancellation takes effect at the end of that period: no further fee is
          charged, and you keep access until then. If a fee is unpaid when you cancel, the membership ends at once and
          that fee is not charged.
        </p>
        <p>
          After your first paid period you never have to give more than {terms.notice}. When you cancel during a later
          period, your membership ends {terms.noticePeriod} after your cancellation, or at the end of that period if it
          ends sooner; no further fee is charged, and you keep access until then. If it ends before the end of the
          period you have paid for, we automatically refund the fee for the rest of that period, in proportion to the
          time, to the card you paid with within {terms.refundWithinDays} days.
        </p>
        <p>
          We confirm your cancellation on screen and by e-mail, with the date until which you keep access and any amount
          we refund.
        </p>
        <p>
          The membership ends when you cancel it, or when a payment is declined and not made within the{" "}
          {terms.reminderGraceDays} days of the payment reminder (see{" "}
          <a href="#payment">Payment and payment reminders</a>).
        </p>
      </>
    ),
  },
  {
    id: "refunds",
    title: "Refunds",
    body: (
      <>
        <p>Once a fee has been charged, it is not refunded, except:</p>
        <ul>
          <li>
            when you withdraw within {terms.changeOfMindDays} days: the part of the fee for the time after your
            withdrawal (see <a href="#change-of-mind">Your right of withdrawal</a>);
          </li>
          <li>
            when, after your first paid period, your cancellation ends your membership {terms.noticePeriod} after you
            cancel: the part of the fee for the time after that, without your asking (see{" "}
            <a href="#cancellation">Cancelling your membership</a>);
          </li>
          <li>a duplicate charge, where you were charged twice for the same period; and</li>
          <li>a technical overcharge, where you were charged more than your plan&rsquo;s price.</li>
        </ul>
        <p>
          A withdrawal, and the rest of a period after a cancellation with {terms.notice}, are refunded without your
          asking. Tell our customer service about any other such charge. Once we have confirmed it, we refund the amount
          to the card you paid with within <strong>{terms.refundWithinDays} days</strong>, and tell you by e-mail how
          much we refunded.
        </p>
      </>
    ),
  },
  {
    id: "customer-service",
    title: "Customer service and complaints",
    body: (
      <>
        <p>
          Our customer service is available {SUPPORT_HOURS}, by phone on <CompanyPhoneLink />, by e-mail to{" "}
          <CompanyEmailLink /> and by chat on our website.
        </p>
        <p>
          If something has gone wrong, please tell us as soon as you can and describe what happened. We look into every
          complaint and reply by e-mail with what we will do about it.
        </p>
      </>
    ),
  },
  {
    id: "liability",
    title: "Liability",
    body: (
      <>
        <p>We provide the membership with reasonable care and skill. We are not liable for:</p>
        <ul>
          <li>
            the services of airports, airlines, lounges, museums and attractions, including closures, queues and changes
            to their opening times or rules;
          </li>
          <li>missed or delayed flights, or the consequences of them;</li>
          <li>indirect or consequential loss, such as lost profit or the cost of a missed connection.</li>
        </ul>
        <p>
          Our liability for anything else is limited to the fee you paid for the membership period in which the damage
          occurred. None of this limits our liability for damage caused intentionally or through gross negligence, for
          death or personal injury, or where Dutch law does not allow liability to be limited.
        </p>
      </>
    ),
  },
  {
    id: "personal-data",
    title: "Personal data",
    body: (
      <p>
        We use your personal data to provide the membership and your bookings, and for nothing you would not expect. Our{" "}
        <Link to="/privacy">Privacy Policy</Link> explains what we collect, why, how long we keep it and how to exercise
        your rights.
      </p>
    ),
  },
  {
    id: "governing-law",
    title: "Governing law and disputes",
    body: (
      <>
        <p>
          These terms and every contract with us are governed by Dutch law. {company.legalName} is registered in the
          Netherlands and its postal address is in Amsterdam. Disputes are brought before the competent court in
          Amsterdam, the Netherlands.
        </p>
        <p>
          If you live in another country of the European Union, you keep the protection of the mandatory consumer law of
          that country, and you may also bring a dispute before the courts where you live.
        </p>
      </>
    ),
  },
];

function FormLine({ label }: { label: string }) {
  return (
    <p className="flex flex-wrap items-end gap-x-2 gap-y-1">
      <span>{label}</span>
      <span aria-hidden="true" className="min-w-32 flex-1 border-b border-dashed border-foreground/40 pb-5" />
    </p>
  );
}

const withdrawalForm = modelWithdrawalForm();

/** The model withdrawal form of EU consumer law (the same text as the confirmation e-mail's), filled in by hand. */
export const cancellationForm: LegalSectionContent = {
  id: "cancellation-form",
  title: withdrawalForm.title,
  body: (
    <>
      <p>{withdrawalForm.instruction}</p>
      <p>
        Copy it into an e-mail, or print it and send it by post. To withdraw online, go to{" "}
        <Link to={WITHDRAW_PATH}>
          {domains.main}
          {WITHDRAW_PATH}
        </Link>
        .
      </p>
      <div
        data-testid="cancellation-form"
        className="space-y-4 rounded-xl border-2 border-dashed bg-muted/40 p-5 text-base sm:p-8"
      >
        <p>{withdrawalForm.to}</p>
        <p>{withdrawalForm.notice}</p>
        {withdrawalForm.blanks.map((label) => (
          <FormLine key={label} label={label} />
        ))}
        <p className="text-sm text-muted-foreground">{withdrawalForm.footnote}</p>
      </div>
    </>
  ),
};

/** The terms as the page shows them and the confirmation e-mail carries them. */
export function TermsAndConditions() {
  return (
    <LegalDocument
      title="Terms and Conditions"
      lastUpdated={TERMS_LAST_UPDATED}
      intro={termsIntro}
      sections={termsSections}
      appendices={[cancellationForm]}
      tableOfContents
    />
  );
}
