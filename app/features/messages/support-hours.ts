/** When customer service answers (spec §1, §9); shown on the contact pages and in e-mails. */
export const SUPPORT_HOURS = "7 days a week, 9 AM to 8 PM";
