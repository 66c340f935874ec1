/** What the page shell knows about the visitor: for showing the right header buttons only, never for access. */
export interface AccountSummary {
  user: { name: string; email: string } | null;
  isAdmin: boolean;
}
