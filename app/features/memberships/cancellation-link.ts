/** How long the link that confirms a cancellation asked for at /unsubscribe works. */
export const CANCELLATION_LINK_HOURS = 24;
