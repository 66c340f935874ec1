import { Fragment, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { siteConfig } from "../../../../site.config";
import type * as SiteConfigModule from "../../../../site.config";
import { privacySections } from "~/features/privacy/ui/privacy-policy";
import { subscriptionTermsSections } from "./subscription-terms";
import { WITHDRAW_PATH, modelWithdrawalForm } from "../model-withdrawal-form";
import { cancellationForm, termsSections } from "./terms";

// Terms unlike the real ones (3-day trial, every 3 months, 24 hours, 7 days, every 2 days, 14 days, one month's notice)
// and prices unlike the plans' (49, 79): every number on the pages must move with them.
vi.mock("~/features/memberships/membership-terms", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  MEMBERSHIP_TERMS: {
    trialDays: 5,
    periodMonths: 6,
    trialReminderHours: 36,
    reminderGraceDays: 9,
    retryEveryDays: 4,
    changeOfMindDays: 21,
    refundWithinDays: 11,
    noticeMonths: 2,
  },
}));

vi.mock("../../../../site.config", async (importOriginal) => {
  const { siteConfig } = await importOriginal<typeof SiteConfigModule>();
  const { medium, premium } = siteConfig.pricing;
  return {
    siteConfig: {
      ...siteConfig,
      pricing: { medium: { ...medium, price: 51 }, premium: { ...premium, price: 83 } },
    },
  };
});

/** The sections as a visitor reads them, without markup and without the plans' own feature lists (site.config.ts text). */
function text(sections: { title: string; body: ReactNode }[]) {
  const Page = () =>
    sections.map((section) => (
      <Fragment key={section.title}>
        {section.title} {section.body}
      </Fragment>
    ));
  const Stub = createRoutesStub([{ path: "/", Component: Page }]);
  let read = renderToStaticMarkup(<Stub />)
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&rsquo;|’/g, "'")
    .replace(/\s+/g, " ")
    .replace(/ ([:,.;])/g, "$1");
  for (const feature of [...siteConfig.pricing.medium.features, ...siteConfig.pricing.premium.features]) {
    read = read.replaceAll(feature, "");
  }
  return read;
}

/** The real terms' numbers, which must not appear once the constants say otherwise. */
const STALE =
  /\b3-day\b|\b7 days(?! a week)|\b14 days\b|\b14-day\b|every 3 months|every 2 days|24 hours before|\$49\b|\$79\b|one month's notice|one month after|more than a month/;

describe("the legal pages read the membership's numbers from MEMBERSHIP_TERMS and site.config.ts", () => {
  it("the terms and conditions", () => {
    const terms = text([...termsSections, cancellationForm]);
    for (const phrase of [
      "Medium: $51, every 6 months",
      "Premium: $83, every 6 months",
      "5-day free trial",
      "36 hours before the trial ends",
      "5 days after your payment, the fee of your plan is charged for the first time",
      "When the trial ends, the membership becomes paid: it costs $51 every 6 months",
      "You then have 9 days to pay; meanwhile we try your card again every 4 days",
      "9 days after the reminder, the contract ends",
      "Your 21-day right of withdrawal",
      "within 21 days of the day you receive our confirmation e-mail",
      "Starting before the 21 days are over",
      "within the 21-day period",
      "when you withdraw within 21 days",
      "within 11 days of the day we receive your withdrawal",
      "within 11 days",
      "wish to withdraw from the contract, within 21 days",
      "After your first paid period you never have to give more than 2 months' notice",
      "your membership ends 2 months after your cancellation, or at the end of that period if it ends sooner",
      "we automatically refund the fee for the rest of that period, in proportion to the time, to the card you paid with within 11 days",
      "your cancellation ends your membership 2 months after you cancel",
    ]) {
      expect(terms, phrase).toContain(phrase);
    }
    expect(terms).not.toMatch(STALE);
  });

  it("the subscription terms", () => {
    const subscription = text(subscriptionTermsSections);
    for (const phrase of [
      "starts a 5-day free trial",
      "36 hours before it ends",
      "Medium: $51 every 6 months",
      "You then have 9 days to pay, and we try your card again every 4 days",
      "Changing your mind within 21 days",
      "You may withdraw within 21 days of receiving your confirmation e-mail",
      "(for Medium, $51) is charged on that day and then every 6 months",
      "membership checkout starts a 5-day free trial of that plan",
      "except the unused part when you withdraw within 21 days or your membership ends with 2 months' notice",
      "After your first paid period you never have to give more than 2 months' notice",
      "your membership ends 2 months after your cancellation, or at the end of the period if that comes sooner, and we automatically refund",
      "within 11 days",
    ]) {
      expect(subscription, phrase).toContain(phrase);
    }
    expect(subscription).not.toMatch(STALE);
  });

  it("the privacy policy", () => {
    const privacy = text(privacySections);
    for (const phrase of [
      "each 6-month period",
      "every 6 months",
      "a reminder 36 hours before the first charge",
      "within the 21-day withdrawal period",
    ]) {
      expect(privacy, phrase).toContain(phrase);
    }
    expect(privacy).not.toMatch(STALE);
  });
});

describe("the legal pages lead to the withdrawal function and the model withdrawal form", () => {
  const markup = (sections: { title: string; body: ReactNode }[]) => {
    const Page = () => sections.map((section) => <Fragment key={section.title}>{section.body}</Fragment>);
    const Stub = createRoutesStub([{ path: "/", Component: Page }]);
    return renderToStaticMarkup(<Stub />);
  };

  it("the terms link the withdrawal function and show the model form with the company's details", () => {
    const { company } = siteConfig;
    const form = modelWithdrawalForm();
    expect(markup(termsSections)).toContain(`href="${WITHDRAW_PATH}"`);
    expect(cancellationForm.title).toBe(form.title);
    const formText = text([cancellationForm]);
    expect(formText).toContain(`To: ${company.legalName}, ${company.address}, ${company.email}`);
    for (const line of [form.notice, ...form.blanks, form.footnote]) {
      expect(formText, line).toContain(line.replace(/ ([:,.;])/g, "$1"));
    }
    expect(markup([cancellationForm])).toContain(`href="${WITHDRAW_PATH}"`);
  });

  it("the subscription terms link the withdrawal function and the model form", () => {
    const html = markup(subscriptionTermsSections);
    expect(html).toContain(`href="${WITHDRAW_PATH}"`);
    expect(html).toContain('href="/terms#cancellation-form"');
  });
});
