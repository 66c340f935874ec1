/** Who changed an order or a membership, as its history shows it. */
export interface Actor {
  /** The signed-in user, or null for a guest customer or the system. */
  userId: string | null;
  /** "customer", "system", or the admin's e-mail address. */
  label: string;
}

export const CUSTOMER_ACTOR: Actor = { userId: null, label: "customer" };

/** A job acting on its own: the billing run, for instance. */
export const SYSTEM_ACTOR: Actor = { userId: null, label: "system" };
