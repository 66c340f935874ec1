/**
 * The airports the /fast-track landing page offers in its dropdown (spec §2: these ten). The
 * choice only invites the visitor in; it is not passed on to the booking form.
 */
export const LANDING_AIRPORTS = [
  { code: "CDG", name: "Paris Charles de Gaulle" },
  { code: "ORY", name: "Paris Orly" },
  { code: "LHR", name: "London Heathrow" },
  { code: "AMS", name: "Amsterdam Schiphol" },
  { code: "FRA", name: "Frankfurt" },
  { code: "MAD", name: "Madrid" },
  { code: "BCN", name: "Barcelona" },
  { code: "FCO", name: "Rome Fiumicino" },
  { code: "DXB", name: "Dubai" },
  { code: "JFK", name: "New York JFK" },
] as const;
