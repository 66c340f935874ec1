import { subDays } from "date-fns";
import { confirmationMail } from "~/features/booking/confirmation-mail";
import { bookingPageUrl } from "~/features/booking/flight-day-calendar";
import { consentWording } from "~/features/booking/start-consent";
import { voucherCheckUrl, voucherQrPng } from "~/features/booking/voucher.server";
import type { MailAttachment } from "~/platform/mail/attachment";
import type { MailContent } from "~/platform/mail/layout";
import { contactAcknowledgementMail, contactNotificationMail } from "~/features/messages/contact-mail";
import {
  confirmCancellationMail,
  cancellationConfirmedNoticeMail,
} from "~/features/memberships/cancellation-request-mail";
import {
  firstChargeComingMail,
  membershipCancelledMail,
  membershipEndedMail,
  paymentConfirmationMail,
  paymentFailedMail,
  receiptMail,
  trialStartedMail,
} from "~/features/memberships/membership-mails";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { planChangedMail } from "~/features/memberships/plan-change-mail";
import { trialFee } from "~/features/memberships/trial-offer";
import { refundIssuedMail } from "~/features/payments/refund-mail";
import { membershipContractMail } from "~/features/membership-checkout/contract-mail";
import { checkoutConsentWording } from "~/features/membership-checkout/checkout-terms";
import { manageMembershipLink } from "~/features/auth/sign-in-link.server";
import { withdrawalAcknowledgementMail } from "~/features/withdrawal/withdrawal-mail";

/** Every e-mail the site sends, rendered with made-up data: for the preview page and the rendering test. */
export interface EmailSample {
  id: string;
  /** French, for the back office. */
  label: string;
  sentWhen: string;
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
  /** What the plain-text part must carry as well as the HTML. */
  facts: string[];
}

const SAMPLE_ORDER_ID = "0b8f5c1e-1d2a-4c3b-9e8f-7a6b5c4d3e2f";
const SAMPLE_SIGNED_CODE = "v1.0b8f5c1e1d2a4c3b9e8f7a6b5c4d3e2f.sample-not-a-real-signature-0000000000000";

export async function emailSamples(origin: string): Promise<EmailSample[]> {
  // The trial ends on 4 June 2030 (in Amsterdam), the first quarter on 4 September 2030.
  const trialEnd = new Date("2030-06-04T07:30:00Z");
  const quarterEnd = new Date("2030-09-04T07:30:00Z");
  const booking = {
    to: "ann.lee@example.org",
    customerName: "Ann Lee",
    orderNumber: "FT-1795000000123-QWERTY",
    airport: "Paris Charles de Gaulle - CDG",
    flightDate: "2030-06-14",
    adults: 2,
    children: 1,
    amount: 3300,
    currency: "EUR" as const,
    voucherShortCode: "K7QM-3XPA-TW",
    voucherQrPng: voucherQrPng(voucherCheckUrl(origin, SAMPLE_SIGNED_CODE)),
    bookingUrl: bookingPageUrl(origin, SAMPLE_ORDER_ID),
    origin,
    paidAt: subDays(trialEnd, MEMBERSHIP_TERMS.trialDays),
    consent: consentWording(true),
    invoiceNumber: "2030-000123",
    membership: { trialEndsAt: trialEnd, fee: trialFee() },
  };
  const contact = {
    source: "contact" as const,
    name: "Ann Lee",
    email: "ann.lee@example.org",
    phone: "+33 1 23 45 67 89",
    message: "Hello,\nCan I change the date of my fast track?\nThanks",
  };
  const confirmUrl = new URL("/unsubscribe/confirm?token=sample", origin).toString();
  const member = {
    to: "ann.lee@example.org",
    planName: "Medium",
    price: 4900,
    currency: "EUR" as const,
    origin,
  };
  const card = { cardBrand: "Visa", cardLast4: "4242" };
  const withdrawal = {
    to: booking.to,
    name: booking.customerName,
    contractNumber: booking.orderNumber,
    receivedAt: new Date("2030-06-03T09:30:00Z"),
    origin,
  };
  const rendered: (Omit<EmailSample, "subject" | "html" | "text" | "attachments"> & {
    mail: MailContent & { attachments?: MailAttachment[] };
  })[] = [
    {
      id: "booking-confirmation",
      label: "Confirmation de réservation Fast Track",
      sentWhen: "Au client, dès que le paiement est accepté.",
      facts: [
        booking.orderNumber,
        booking.voucherShortCode,
        "€33",
        booking.airport,
        "Friday 14 June 2030",
        "2030-000123",
      ],
      mail: await confirmationMail(booking),
    },
    {
      id: "contact-acknowledgement",
      label: "Accusé de réception (formulaires contact et services)",
      sentWhen: "À la personne qui a écrit, après un message par la page contact ou services.",
      facts: ["We have received your message"],
      mail: await contactAcknowledgementMail(),
    },
    {
      id: "contact-notification",
      label: "Nouveau message (pour l'entreprise)",
      sentWhen: "À l'adresse de l'entreprise, à chaque message reçu.",
      facts: [contact.name, contact.email, contact.phone, "Can I change the date of my fast track?"],
      mail: await contactNotificationMail(contact),
    },
    {
      id: "unsubscribe-confirmation",
      label: "Confirmation de désinscription",
      sentWhen: "À l'adresse qui demande la désinscription, avec le lien à usage unique.",
      facts: ["Confirm unsubscribe", "expires in 24 hours"],
      mail: await confirmCancellationMail({ confirmUrl, validForHours: 24 }),
    },
    {
      id: "unsubscribe-confirmed",
      label: "Désinscription confirmée (pour l'entreprise)",
      sentWhen: "À l'adresse de l'entreprise, quand le lien a été confirmé.",
      facts: ["ann.lee@example.org", "2030-06-01T09:30:00.000Z"],
      mail: await cancellationConfirmedNoticeMail({
        email: "ann.lee@example.org",
        confirmedAt: new Date("2030-06-01T09:30:00Z"),
      }),
    },
    {
      id: "trial-started",
      label: "Essai gratuit commencé",
      sentWhen: "Au client, avec la confirmation, quand le premier Fast Track payé d'une adresse ouvre l'essai.",
      facts: ["4 June 2030", "€49 every 3 months"],
      mail: await trialStartedMail({ ...member, trialEndsAt: trialEnd }),
    },
    {
      id: "membership-contract",
      label: "Essai commencé au tunnel d'adhésion (contrat)",
      sentWhen: "Au client, quand le tunnel d'adhésion (/membership-checkout) a gardé sa carte et ouvert l'essai.",
      facts: ["4 June 2030", "€79 every 3 months", "Visa ending 4242", "Model withdrawal form"],
      mail: await membershipContractMail({
        ...member,
        planId: "premium",
        planName: "Premium",
        price: 7900,
        fullName: "Ann Lee",
        startedAt: subDays(trialEnd, MEMBERSHIP_TERMS.trialDays),
        trialEndsAt: trialEnd,
        membershipNumber: "2915-77F4-830F",
        card: "Visa ending 4242",
        consent: checkoutConsentWording("premium"),
      }),
    },
    {
      id: "first-charge-coming",
      label: "Premier prélèvement demain",
      sentWhen: "Au membre, la veille de la fin de l'essai, sauf s'il a résilié.",
      facts: ["4 June 2030", "€49", "Visa ending 4242"],
      mail: await firstChargeComingMail({ ...member, ...card, chargeOn: trialEnd }),
    },
    {
      id: "membership-receipt",
      label: "Reçu de cotisation",
      sentWhen: "Au membre, à chaque cotisation trimestrielle payée.",
      facts: ["€49", "4 June 2030 to 4 September 2030", "Visa ending 4242", "2030-000124"],
      mail: await receiptMail({
        ...member,
        ...card,
        amount: 4900,
        paidAt: trialEnd,
        periodStart: trialEnd,
        periodEnd: quarterEnd,
        invoiceNumber: "2030-000124",
      }),
    },
    {
      id: "payment-failed",
      label: "Rappel de paiement (cotisation refusée)",
      sentWhen: `Au membre, au premier refus d'une cotisation : ${MEMBERSHIP_TERMS.reminderGraceDays} jours pour payer avant la fin de l'adhésion.`,
      facts: ["€49", "11 June 2030", "Visa card ending 4242"],
      mail: await paymentFailedMail({ ...member, ...card, amount: 4900, endsOn: new Date("2030-06-11T07:30:00Z") }),
    },
    {
      id: "payment-confirmation",
      label: "Paiement à confirmer (3-D Secure)",
      sentWhen: `Au membre, quand sa banque demande de confirmer une cotisation (Stripe) : ${MEMBERSHIP_TERMS.reminderGraceDays} jours pour la confirmer avant la fin de l'adhésion.`,
      facts: ["€49", "11 June 2030", "Visa card ending 4242", "Nothing has been charged yet."],
      mail: await paymentConfirmationMail({
        ...member,
        ...card,
        amount: 4900,
        endsOn: new Date("2030-06-11T07:30:00Z"),
      }),
    },
    {
      id: "membership-ended",
      label: "Adhésion terminée (cotisation impayée)",
      sentWhen: `Au membre, quand la cotisation reste impayée ${MEMBERSHIP_TERMS.reminderGraceDays} jours après le rappel.`,
      facts: ["€49", "11 June 2030", "Nothing more will be charged"],
      mail: await membershipEndedMail({ ...member, amount: 4900, endedOn: new Date("2030-06-11T07:30:00Z") }),
    },
    {
      id: "membership-cancelled",
      label: "Adhésion résiliée",
      sentWhen: "Au membre, quand il résilie (lien de désinscription) ou qu'un administrateur résilie.",
      facts: ["4 September 2030", "No further fee will be charged."],
      mail: await membershipCancelledMail({ ...member, accessUntil: quarterEnd, neverCharged: false }),
    },
    {
      id: "plan-upgraded",
      label: "Formule changée (vers une formule plus chère)",
      sentWhen:
        "Au membre, quand il passe (ou un administrateur le passe) à une formule plus chère : la différence est prélevée.",
      facts: ["Premium", "€15", "2030-000125", "4 September 2030"],
      mail: await planChangedMail({
        ...member,
        planName: "Premium",
        price: 7900,
        fromPlanName: "Medium",
        freeAccesses: 5,
        change: { kind: "upgrade", charged: 1500, invoiceNumber: "2030-000125", nextCharge: quarterEnd },
      }),
    },
    {
      id: "plan-downgrade-scheduled",
      label: "Passage à une formule moins chère programmé",
      sentWhen: "Au membre, quand il demande une formule moins chère : elle commence à la fin de la période payée.",
      facts: ["Medium", "4 September 2030", "€49"],
      mail: await planChangedMail({
        ...member,
        fromPlanName: "Premium",
        freeAccesses: 2,
        change: { kind: "downgrade", from: quarterEnd },
      }),
    },
    {
      id: "plan-kept",
      label: "Passage programmé annulé (formule conservée)",
      sentWhen: "Au membre, quand il annule (ou un administrateur annule) le passage à une formule moins chère.",
      facts: ["Premium", "Medium", "€79", "4 September 2030"],
      mail: await planChangedMail({
        ...member,
        planName: "Premium",
        price: 7900,
        fromPlanName: "Premium",
        freeAccesses: 5,
        change: { kind: "kept", abandoned: "Medium", nextCharge: quarterEnd },
      }),
    },
    {
      id: "refund-issued",
      label: "Remboursement effectué",
      sentWhen: "Au client, quand un administrateur rembourse une commande ou une cotisation.",
      facts: ["€20", "Medium membership, 4 June 2030 to 4 September 2030", "Visa ending 4242", "14 days"],
      mail: await refundIssuedMail({
        to: member.to,
        amount: 2000,
        currency: "EUR",
        paidFor: "Medium membership, 4 June 2030 to 4 September 2030",
        ...card,
        account: { label: "Manage your membership", href: manageMembershipLink(origin, member.to) },
      }),
    },
    {
      id: "withdrawal-withdrawn",
      label: "Rétractation reçue (dans le délai)",
      sentWhen:
        "Au client, quand une rétractation faite sur /withdraw correspond à une commande payée dans le délai : l'abonnement prend fin et ce qui n'a pas été fourni est remboursé.",
      facts: [
        "3 June 2030 at 11:30 (Amsterdam time)",
        booking.orderNumber,
        "€33",
        "Your membership ended on 3 June 2030.",
      ],
      mail: await withdrawalAcknowledgementMail({
        ...withdrawal,
        result: {
          outcome: "withdrawn",
          membershipEndedAt: withdrawal.receivedAt,
          refunds: [{ paidFor: `Fast Track order ${booking.orderNumber}`, amount: 3300, currency: "EUR" }],
          fastTrackProvided: false,
          refundsPending: false,
        },
      }),
    },
    {
      id: "withdrawal-late",
      label: "Rétractation reçue (hors délai)",
      sentWhen:
        "Au client, quand une rétractation faite sur /withdraw correspond à une commande dont le délai est passé : rien ne change, le lien de résiliation est donné.",
      facts: ["3 June 2030 at 11:30 (Amsterdam time)", "ended on 28 May 2030", "Cancel my membership"],
      mail: await withdrawalAcknowledgementMail({
        ...withdrawal,
        result: { outcome: "late", lastDay: new Date("2030-05-28T10:00:00Z") },
      }),
    },
  ];
  return rendered.map(({ mail, ...sample }) => ({
    ...sample,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    attachments: mail.attachments ?? [],
  }));
}

/**
 * The HTML a browser can show on its own: images sent as attachments (`cid:`) put inline. Only for
 * the preview; the mail itself keeps `cid:`, which mail clients resolve.
 */
export function previewHtml(sample: Pick<EmailSample, "html" | "attachments">): string {
  return sample.html.replace(/src="cid:([^"]+)"/g, (reference, cid: string) => {
    const image = sample.attachments.find((attachment) => attachment.cid === cid);
    return image ? `src="data:${image.contentType};base64,${image.content}"` : reference;
  });
}
