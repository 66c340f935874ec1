/** A valid contact form as the page posts it, the honeypot left empty. */
export const CONTACT_FORM_FIELDS = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.org",
  phone: "+31 6 1234 5678",
  message: "When does my trial start?",
  website: "",
};
