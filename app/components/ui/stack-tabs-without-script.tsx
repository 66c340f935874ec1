/** Marks a Tabs root whose panels should all show, one after another, when JavaScript is off. */
export const STACK_WITHOUT_SCRIPT = { "data-stack-without-script": "" } as const;

/**
 * Without JavaScript tabs cannot switch, so on a page that renders this, every tab panel of a Tabs
 * root marked with STACK_WITHOUT_SCRIPT is shown (panels are force-mounted and hidden only by
 * their inactive state) and the tab list, which would do nothing, is hidden.
 */
export function StackTabsWithoutScript() {
  return (
    <noscript>
      <style>
        {
          "[data-stack-without-script] [data-slot=tabs-list]{display:none}[data-stack-without-script] [data-slot=tabs-content]{display:block!important}"
        }
      </style>
    </noscript>
  );
}
