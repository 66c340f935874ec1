import { randomUUID } from "node:crypto";

// Accounts for tests, the same in every layer: a new person signs up, is made an admin when the test
// needs one, and signs in. Each layer brings its own three steps: the browser's on the /auth page
// (e2e/auth-page.ts), the server's through better-auth (integration/requests.ts).

/** What a person types into the sign-up form. */
export interface Person {
  fullName: string;
  email: string;
  password: string;
}

/** A person no other test uses. */
export function newPerson(): Person {
  const id = randomUUID().slice(0, 8);
  return { fullName: `Camille ${id}`, email: `camille.${id}@example.com`, password: `motdepasse-${id}` };
}

/** How one layer signs a person up, makes them an admin and signs them in (what it gets back: a session). */
export interface AccountSteps<Session> {
  signUp(person: Person): Promise<void>;
  grantAdmin(email: string): Promise<void>;
  signIn(person: Person): Promise<Session>;
}

/** A new person's account, signed in; an admin when asked. */
export async function createAccount<Session>(
  steps: AccountSteps<Session>,
  { admin = false } = {},
): Promise<Person & { session: Session }> {
  const person = newPerson();
  await steps.signUp(person);
  if (admin) await steps.grantAdmin(person.email);
  return { ...person, session: await steps.signIn(person) };
}
