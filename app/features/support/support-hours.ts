/** When customer service answers the phone, e-mail and chat. */
export const SUPPORT_HOURS = "7 days a week, 9 AM to 8 PM";
