import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import type { MailAttachment } from "~/platform/mail/attachment";
import type { CurrencyCode } from "~/lib/currency";
import { SubscriptionTerms } from "./ui/subscription-terms";
import { TermsAndConditions } from "./ui/terms";

const STYLE =
  "body{font-family:Arial,Helvetica,sans-serif;line-height:1.5;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#111827}nav{display:none}";

function TermsDocuments() {
  return (
    <>
      <TermsAndConditions />
      <SubscriptionTerms />
    </>
  );
}

/** Made once per currency: a site has one public origin, and the texts change only with a deploy. */
const rendered = new Map<CurrencyCode, { origin: string; base64: string }>();

/**
 * The terms and the subscription terms as one HTML file, from the texts the pages show, with the
 * prices in the order's currency, for the confirmation e-mail: the consumer keeps the contract's
 * terms on a durable medium (CRD Art. 8(7)). Links to the site's pages point at `origin`.
 */
export async function termsAttachment(origin: string, currency: CurrencyCode): Promise<MailAttachment> {
  const made = rendered.get(currency);
  let base64 = made?.origin === origin ? made.base64 : undefined;
  if (!base64) {
    // The pages read the visitor's currency from the root route's data (`Price`): here, the order's.
    const handler = createStaticHandler([
      { id: "root", path: "*", loader: () => ({ currency }), Component: TermsDocuments },
    ]);
    const context = await handler.query(new Request(`${origin}/terms`));
    if (context instanceof Response) throw new Error("The terms could not be rendered");
    const router = createStaticRouter(handler.dataRoutes, context);
    const body = renderToStaticMarkup(
      <StaticRouterProvider router={router} context={context} hydrate={false} />,
    ).replaceAll('href="/', `href="${origin}/`);
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Terms and Conditions</title><style>${STYLE}</style></head><body>${body}</body></html>`;
    base64 = Buffer.from(html).toString("base64");
    rendered.set(currency, { origin, base64 });
  }
  return {
    filename: "terms-and-conditions.html",
    contentType: "text/html; charset=utf-8",
    content: base64,
    shared: true,
  };
}
