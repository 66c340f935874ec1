import type { SiteConfig } from "./app/features/site-config/types";

export const siteConfig: SiteConfig = {
  company: {
    name: "Jetlane",
    legalName: "Jetlane Travel Services B.V.",
    phone: "+31 20 808 4100",
    email: "support@jetlane.example",
    address: "Herengracht 420, 1017 BZ Amsterdam, Netherlands",
    vatNumber: "NL001234567B01",
  },
  invoices: {
    vatRates: [
      {
        since: "2012-10-01",
        percent: 21,
      },
    ],
  },
  domains: {
    main: "www.jetlane.example",
    fastTrack: "fasttrack.jetlane.example",
    checkIn: "checkin.jetlane.example",
    memberArea: null,
  },
  colors: {
    primary: "205 85% 38%",
    primaryLight: "205 85% 92%",
    primaryDark: "205 85% 23%",
    accent: "42 95% 55%",
    secondary: "205 40% 96%",
  },
  pricing: {
    medium: {
      id: "medium",
      name: "Medium",
      price: 49,
      period: "Every 3 months",
      description: "The essentials for travellers who fly a few times a season.",
      features: [
        "3-day free trial",
        "Cancel anytime",
        "Up to 2 free fast-track accesses per month",
        "Automated check-in included",
        "Priority entry to selected museums",
      ],
      highlighted: false,
      productCode: "_3m_49",
      freeFastTracksPerMonth: 2,
    },
    premium: {
      id: "premium",
      name: "Premium",
      price: 79,
      period: "Every 3 months",
      description: "Everything we offer, for frequent flyers who want the airport to disappear.",
      features: [
        "3-day free trial",
        "Up to 5 free fast-track accesses per month",
        "Unlimited automated check-ins",
        "Unlimited museum skip-the-line",
        "Exclusive lounge discounts",
      ],
      highlighted: true,
      freeFastTracksPerMonth: 5,
    },
  },
  fastTrack: {
    fromPrice: 5,
    adultPrice: 11,
    childPrice: 11,
  },
  trialDays: 3,
  content: {
    hero: {
      title: "Simplified Travel, Extraordinary Experiences",
      subtitle:
        "Fast-track security lanes, automated check-in, lounge discounts and skip-the-line museum entry in one membership.",
      cta: "Start Your Journey",
    },
    services: {
      fastTrack: {
        title: "Airport Fast Track",
        description:
          "Skip the long security queues with a dedicated lane at over 300 connected airports and reach your gate relaxed.",
      },
      checkIn: {
        title: "Automated Check-In",
        description:
          "We check you in the moment your flight opens and send your boarding pass, so you never miss the window.",
      },
      museums: {
        title: "Skip-the-Line Attractions",
        description: "Walk straight into museums and attractions at your destination with priority entry for members.",
      },
      lounges: {
        title: "Lounge Discounts",
        description:
          "Wait for boarding in comfort: members get reduced entry to partner airport lounges around the world.",
      },
      ebooks: {
        title: "Travel E-Books",
        description:
          "Download our destination guides and packing checklists, written by frequent flyers, before you go.",
      },
      concierge: {
        title: "Concierge Service",
        description:
          "Ask our team for restaurant tables, transfers, tickets or a change of plan, and we arrange it for you.",
      },
    },
    concierge: {
      title: "A travel concierge in your pocket",
      description:
        "From the moment you book until you are back home, our concierge team takes the small jobs off your hands so you can enjoy the trip.",
      benefits: [
        {
          title: "Reservations made for you",
          description: "Restaurant tables, airport transfers and show tickets, booked and confirmed by a real person.",
        },
        {
          title: "Help when plans change",
          description: "A delayed or cancelled flight? We look for alternatives and rearrange what depends on it.",
        },
        {
          title: "Local knowledge",
          description: "Tips on where to eat, what to see and how to get around, tailored to your trip.",
        },
        {
          title: "One contact for everything",
          description: "Phone, e-mail or chat: tell us once and we keep track of your requests.",
        },
      ],
    },
    whyChooseUs: {
      title: "Why travellers choose Jetlane",
      reasons: [
        {
          title: "One membership, every trip",
          description: "Fast track, check-in, lounges and attractions under a single quarterly fee.",
        },
        {
          title: "Try it free",
          description: "Every plan starts with a 3-day free trial, and you can cancel at any time.",
        },
        {
          title: "People who answer",
          description: "Our team helps you 7 days a week, 9 AM to 8 PM, by phone, e-mail and chat.",
        },
      ],
    },
  },
  seo: {
    defaultTitle: "Jetlane | Airport fast track, check-in and travel perks in one membership",
    defaultDescription:
      "Skip airport security queues, get checked in automatically and enjoy lounge and museum perks. Start with a 3-day free trial.",
    keywords: ["airport fast track", "automated check-in", "lounge discounts", "skip the line", "travel membership"],
  },
  social: {
    facebook: "",
    twitter: "",
    instagram: "",
    linkedin: "",
  },
};
