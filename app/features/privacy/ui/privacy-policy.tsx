import { Link } from "react-router";
import { CompanyEmailLink, CompanyPhoneLink } from "~/features/legal/ui/company-contact";
import type { LegalSectionContent } from "~/features/legal/ui/legal-document";
import { siteConfig } from "../../../../site.config";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { RETENTION } from "~/features/privacy/retention";
import { formatPeriod } from "~/lib/format-period";

const { company, domains } = siteConfig;
const customerDataPeriod = formatPeriod(RETENTION.customerDataYears, "year");

export const PRIVACY_LAST_UPDATED = "2025-03-21";

/** What is kept and for how long, worded from the same constant the retention job applies. */
const RETENTION_PERIODS = [
  {
    what: "Unpaid applications",
    how: `A booking that has not been paid is deleted within ${formatPeriod(RETENTION.unpaidOrderHours, "hour")} of being made, together with the details entered for it.`,
  },
  {
    what: "Customer data",
    how: `Your bookings, orders and payment records are kept for ${customerDataPeriod} after your last order, as our accounting and tax records require, and then deleted or anonymised.`,
  },
  {
    what: "Your membership",
    how: `Kept while it runs and for ${customerDataPeriod} after it ends, with its fees and refunds, as our accounting and tax records require; your bookings are kept until then too. Then your name and contact details are removed, and the records that remain name no one.`,
  },
  {
    what: "Your consent and your withdrawals",
    how: `Kept as long as the records of the order or membership they concern, ${customerDataPeriod} after your last order, so that we can show what you agreed to and how we handled a withdrawal; then deleted or anonymised with them.`,
  },
  {
    what: "Your account",
    how: "Kept until you ask us to delete it, and then deleted with its sign-in sessions.",
  },
  {
    what: "Contact messages",
    how: `Kept for ${formatPeriod(RETENTION.contactMessageYears, "year")} after we receive them, so that we can follow up on a question, and then deleted.`,
  },
  {
    what: "Unsubscribe requests",
    how: `Kept for ${formatPeriod(RETENTION.unsubscribeRequestYears, "year")}, so that we can honour the request and show that we did, and then deleted.`,
  },
  {
    what: "Security data",
    how: `Your IP address is kept in our counters of repeated attempts for at most ${formatPeriod(RETENTION.rateLimitCounterHours, "hour")} after your last request, and then deleted.`,
  },
];

const COOKIES = [
  {
    name: "Session cookie",
    purpose: "Keeps you signed in while you use your account.",
    lifetime: "Deleted when you sign out or when the session expires.",
  },
  {
    name: "Currency preference cookie",
    purpose: "Remembers the currency you chose for showing prices.",
    lifetime: "One year, or until you choose another currency.",
  },
  {
    name: "One-time notification cookie",
    purpose: "Carries a confirmation message, such as “Message sent”, to the next page you see.",
    lifetime: "Deleted as soon as the message is shown, and after one minute at most.",
  },
];

export const privacyIntro = (
  <p>
    This policy explains which personal data {company.legalName} collects when you use {domains.main}, book a fast
    track, become a member or contact us; why we use it; how long we keep it; and the rights you have. We collect only
    what we need to provide our services, and we never sell your data.
  </p>
);

/** The numbered sections of the privacy policy, in order. */
export const privacySections: LegalSectionContent[] = [
  {
    id: "controller",
    title: "Who is responsible for your data",
    body: (
      <>
        <p>
          The controller of your personal data under the General Data Protection Regulation (GDPR) is{" "}
          <strong>{company.legalName}</strong>, {company.address}.
        </p>
        <p>
          For any question about your data, write to <CompanyEmailLink /> or call <CompanyPhoneLink />.
        </p>
      </>
    ),
  },
  {
    id: "data-we-collect",
    title: "The data we collect",
    body: (
      <ul>
        <li>
          <strong>Booking details:</strong> your first and last name, e-mail address, phone number (if you give it),
          airport, flight date and the number of adult and child passengers.
        </li>
        <li>
          <strong>Payment details:</strong> only the brand of your card and its last 4 digits, with the amount, currency
          and result of the payment. For your membership&rsquo;s fees, our payment provider keeps your card and we keep
          only its reference there. Card numbers and security codes (CVV) are never stored.
        </li>
        <li>
          <strong>Membership details:</strong> your plan and its price, the dates of your free trial and of each{" "}
          {MEMBERSHIP_TERMS.periodMonths}-month period, each fee charged (amount, date, payment attempts and result),
          any refund (amount, reason and date), your cancellation, and the e-mails we send you about your membership.
        </li>
        <li>
          <strong>Your request to start at once:</strong> the exact words of the box you ticked on the payment page, by
          which you asked for your fast track and membership to start within the {MEMBERSHIP_TERMS.changeOfMindDays}-day
          withdrawal period, and when you ticked it, kept with your order.
        </li>
        <li>
          <strong>Withdrawals:</strong> when you withdraw from a contract, online or by e-mail or post, your name, the
          order or membership number and e-mail address you give, when we received your statement and its outcome.
        </li>
        <li>
          <strong>Account data:</strong> your name, e-mail address, your password (stored only as a secure hash, never
          readable) and your sign-in sessions.
        </li>
        <li>
          <strong>Contact messages:</strong> the name, e-mail address, phone number and message you send us through a
          contact form.
        </li>
        <li>
          <strong>Unsubscribe requests:</strong> the e-mail address you enter on our{" "}
          <Link to="/unsubscribe">Unsubscribe</Link> page, when you made the request and whether you confirmed it.
        </li>
        <li>
          <strong>Security data:</strong> your IP address, used briefly to protect our forms and sign-in against abuse
          by limiting repeated attempts.
        </li>
      </ul>
    ),
  },
  {
    id: "purposes",
    title: "Why we use your data, and our legal bases",
    body: (
      <ul>
        <li>
          <strong>To provide your membership and bookings</strong>, take payment, charge your membership&rsquo;s fee{" "}
          every {MEMBERSHIP_TERMS.periodMonths} months to the card you paid with, give you access to the member area and
          send you the e-mails that belong to your order and membership: the start of your free trial, a reminder{" "}
          {formatPeriod(MEMBERSHIP_TERMS.trialReminderHours, "hour")} before the first charge, a receipt for each
          charge, a payment reminder if a payment is declined, and the confirmation of a cancellation or a refund. Legal
          basis: performance of our contract with you (GDPR article 6(1)(b)).
        </li>
        <li>
          <strong>To keep accounting and tax records.</strong> Legal basis: a legal obligation (article 6(1)(c)).
        </li>
        <li>
          <strong>
            To record your request to start within the withdrawal period, and to receive, acknowledge and carry out your
            withdrawals
          </strong>
          , as consumer law requires of us. Legal basis: a legal obligation (article 6(1)(c)).
        </li>
        <li>
          <strong>To answer your messages and honour unsubscribe requests.</strong> Legal basis: our legitimate interest
          in helping you and in respecting your choices (article 6(1)(f)).
        </li>
        <li>
          <strong>To keep the website secure</strong> and prevent fraud and abuse. Legal basis: our legitimate interest
          in protecting our customers and our service (article 6(1)(f)).
        </li>
      </ul>
    ),
  },
  {
    id: "recipients",
    title: "Who receives your data",
    body: (
      <>
        <p>We share your data only with those who need it to provide our service:</p>
        <ul>
          <li>
            <strong>Processors working for us:</strong> our hosting provider, which runs our servers and database; our
            payment provider, which processes your card payments and keeps your card for your membership&rsquo;s fees;
            and our e-mail delivery provider, which sends our e-mails. Each is bound by a data processing agreement and
            may use your data only on our instructions.
          </li>
          <li>
            <strong>Airports, lounges and attractions</strong> receive only what they need to let you in, such as your
            name, airport, flight date and the number of passengers.
          </li>
          <li>
            <strong>Authorities</strong>, when the law requires us to.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "cookies",
    title: "Cookies",
    body: (
      <>
        <p>
          We use only the cookies our website needs to work. We use no tracking, analytics or advertising cookies, so we
          do not ask for your consent to cookies.
        </p>
        <dl className="divide-y rounded-xl border">
          {COOKIES.map((cookie) => (
            <div key={cookie.name} className="space-y-1 p-4">
              <dt className="font-semibold">{cookie.name}</dt>
              <dd>{cookie.purpose}</dd>
              <dd className="text-muted-foreground">{cookie.lifetime}</dd>
            </div>
          ))}
        </dl>
      </>
    ),
  },
  {
    id: "retention",
    title: "How long we keep your data",
    body: (
      <>
        <p>We keep personal data only for as long as we need it:</p>
        <dl className="divide-y rounded-xl border">
          {RETENTION_PERIODS.map((period) => (
            <div key={period.what} className="space-y-1 p-4">
              <dt className="font-semibold">{period.what}</dt>
              <dd>{period.how}</dd>
            </div>
          ))}
        </dl>
        <p>Security data is kept only for the short time needed to limit repeated attempts.</p>
      </>
    ),
  },
  {
    id: "your-rights",
    title: "Your rights",
    body: (
      <>
        <p>Under the GDPR you have the right to:</p>
        <ul>
          <li>
            <strong>access</strong> the personal data we hold about you and receive a copy;
          </li>
          <li>
            <strong>rectification</strong> of data that is wrong or incomplete;
          </li>
          <li>
            <strong>erasure</strong> of your data, unless we must keep it by law: paid orders, membership fees and
            refunds stay in our accounts, without your name or contact details. If your membership is still running,
            erasing your data cancels it at once, and nothing more is charged;
          </li>
          <li>
            <strong>restriction</strong> of our use of your data while a question about it is being resolved;
          </li>
          <li>
            <strong>data portability</strong>: receiving the data you gave us in a machine-readable format;
          </li>
          <li>
            <strong>object</strong> to our use of your data based on our legitimate interests.
          </li>
        </ul>
        <p>
          You may also lodge a complaint with the Dutch data protection authority, the{" "}
          <a href="https://autoriteitpersoonsgegevens.nl" rel="noopener noreferrer">
            Autoriteit Persoonsgegevens
          </a>
          , or with the authority of the EU country where you live. We would appreciate the chance to help you first.
        </p>
      </>
    ),
  },
  {
    id: "exercising-your-rights",
    title: "How to exercise your rights",
    body: (
      <p>
        Send your request by e-mail to <CompanyEmailLink />. We may ask you to confirm that the request comes from you,
        so that we never give your data to someone else. We answer every request within{" "}
        <strong>{formatPeriod(RETENTION.dataRequestResponseMonths, "month")}</strong> of receiving it, free of charge.
      </p>
    ),
  },
  {
    id: "international-transfers",
    title: "International transfers",
    body: (
      <p>
        We store your data within the European Economic Area. If a provider ever has to process it outside the EEA, we
        make sure it is protected as the GDPR requires, by an adequacy decision of the European Commission or by the
        Commission&rsquo;s standard contractual clauses.
      </p>
    ),
  },
  {
    id: "security",
    title: "Security",
    body: (
      <p>
        Our website is served only over an encrypted connection. Passwords are stored only as secure hashes, card
        numbers and security codes are never stored or written to our logs, and only staff who need your data for their
        work can see it. If a data breach ever puts your rights at risk, we will tell you and the Autoriteit
        Persoonsgegevens as the law requires.
      </p>
    ),
  },
  {
    id: "changes",
    title: "Changes to this policy",
    body: (
      <p>
        We update this policy when our services or the law change, and show the date of the latest version at the top of
        this page. If a change affects how we use data we already hold, we tell members by e-mail before it takes
        effect.
      </p>
    ),
  },
];
