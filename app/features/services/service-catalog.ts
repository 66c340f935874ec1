import {
  Armchair,
  BookOpen,
  ConciergeBell,
  Landmark,
  PlaneTakeoff,
  Sparkles,
  TicketCheck,
  type LucideIcon,
} from "lucide-react";
import { PRICING_SECTION_ID } from "~/features/plans/ui/pricing-highlight";
import { lowestPlanPrice } from "~/features/plans/plans";
import { SUPPORT_HOURS } from "~/features/support/support-hours";
import type { SiteConfig, TitledText } from "~/features/site-config/types";
import { siteConfig } from "../../../site.config";
import type { ServiceTabId } from "./service-tabs";

type ServiceKey = keyof SiteConfig["content"]["services"];

export interface ServiceCard extends TitledText {
  icon: LucideIcon;
  /** The /services tab that tells more. */
  tab: ServiceTabId;
}

const CARDS: { key: ServiceKey; icon: LucideIcon; tab: ServiceTabId }[] = [
  { key: "fastTrack", icon: PlaneTakeoff, tab: "fast-track" },
  { key: "checkIn", icon: TicketCheck, tab: "checkin" },
  { key: "lounges", icon: Armchair, tab: "subscription" },
  { key: "museums", icon: Landmark, tab: "ticketline" },
  { key: "ebooks", icon: BookOpen, tab: "ebooks" },
  { key: "concierge", icon: ConciergeBell, tab: "concierge" },
];

/** The six services of the membership, as the home page presents them. */
export function serviceCards(services: SiteConfig["content"]["services"] = siteConfig.content.services): ServiceCard[] {
  return CARDS.map(({ key, icon, tab }) => ({ ...services[key], icon, tab }));
}

export interface ServiceTab {
  id: ServiceTabId;
  label: string;
  icon: LucideIcon;
  title: string;
  intro: string;
  highlights: string[];
  link?: { label: string; to: string };
}

/** What each /services tab says; `price` formats an amount in the visitor's currency. */
export function serviceTabs(price: (amount: number) => string): ServiceTab[] {
  const { company, content, trialDays, fastTrack } = siteConfig;
  const { services } = content;
  return [
    {
      id: "subscription",
      label: "Membership",
      icon: Sparkles,
      title: "One membership for the whole journey",
      intro: `${company.name} bundles everything that makes airports and city trips easier into a single membership. Every plan starts with a ${trialDays}-day free trial, then one fee every three months from ${price(lowestPlanPrice())}. Cancel anytime.`,
      highlights: [
        "Fast-track access at over 300 connected airports",
        "Automated check-in for every flight you add",
        "Lounge discounts and skip-the-line entry to attractions",
        "Travel e-books and a personal concierge team",
      ],
      link: { label: "Compare the plans", to: `#${PRICING_SECTION_ID}` },
    },
    {
      id: "fast-track",
      label: "Fast Track",
      icon: PlaneTakeoff,
      title: services.fastTrack.title,
      intro: services.fastTrack.description,
      highlights: [
        "A dedicated lane to the security checkpoint",
        "Available at over 300 connected airports",
        `Single passes from ${price(fastTrack.fromPrice)}, or use the free accesses in your plan`,
        "Your voucher on your phone: show it at the fast-track entrance",
      ],
      link: { label: "Book a Fast Track", to: "/fast-track" },
    },
    {
      id: "ticketline",
      label: "Attractions",
      icon: Landmark,
      title: services.museums.title,
      intro: services.museums.description,
      highlights: [
        "Priority entry at partner museums and attractions",
        "Discounts that can extend to the people travelling with you",
        "Tickets on your phone, nothing to print",
        "Unlimited skip-the-line entry with the Premium plan",
      ],
    },
    {
      id: "ebooks",
      label: "E-Books",
      icon: BookOpen,
      title: services.ebooks.title,
      intro: services.ebooks.description,
      highlights: [
        "City guides with the sights, food and transport that matter",
        "Packing checklists for short breaks and long hauls",
        "Airport tips: connections, lounges and quiet corners",
        "Read offline on your phone, tablet or e-reader",
      ],
    },
    {
      id: "concierge",
      label: "Concierge",
      icon: ConciergeBell,
      title: services.concierge.title,
      intro: services.concierge.description,
      highlights: [
        "Restaurant tables, shows and events reserved for you",
        "Airport transfers and car hire arranged",
        "Help with delays, cancellations and rebooking",
        `Reachable ${SUPPORT_HOURS}, by phone, e-mail and chat`,
      ],
    },
    {
      id: "checkin",
      label: "Check-In",
      icon: TicketCheck,
      title: services.checkIn.title,
      intro: services.checkIn.description,
      highlights: [
        "Checked in the moment online check-in opens",
        "Your boarding pass sent by e-mail, ready for your wallet app",
        "Seat preferences passed on where the airline allows it",
        "Included in every plan, unlimited with Premium",
      ],
    },
  ];
}
