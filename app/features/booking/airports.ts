/** The airports a fast track can be booked at, in the order the form lists them. */
export const BOOKING_AIRPORTS = [
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
  { code: "LIS", name: "Lisbon Humberto Delgado" },
] as const;

/** How an order stores its airport: "{airport name} - {code}". */
export const AIRPORT_OPTIONS = BOOKING_AIRPORTS.map(({ code, name }) => `${name} - ${code}`);
