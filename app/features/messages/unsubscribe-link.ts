/** How long an unsubscribe confirmation link works. */
export const UNSUBSCRIBE_LINK_HOURS = 24;
