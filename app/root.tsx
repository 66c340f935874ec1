import { useContext } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  UNSAFE_DataRouterStateContext,
  useLoaderData,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { Footer } from "~/components/layout/footer";
import { Header } from "~/components/layout/header";
import { NotFoundMessage } from "~/components/layout/not-found-message";
import { NoScriptToast, useToastOnArrival } from "~/components/layout/toast-notice";
import { Toaster } from "./components/ui/toaster";
import type { AccountSummary } from "./features/auth/account";
import { accountSummary } from "./features/auth/guards.server";
import { currencyFromRequest } from "~/lib/currency.server";
import { RequestReference } from "~/platform/observability/ui/request-reference";
import { brandCssVariables } from "./features/site-config/brand-style";
import { useNonce } from "./lib/csp-nonce";
import type { Toast } from "./lib/toast";
import { siteOrigin } from "./lib/site-origin.server";
import { takeToast } from "./lib/toast.server";
import { siteConfig } from "../site.config";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const { toast, clearCookie } = takeToast(request);
  return data(
    {
      currency: currencyFromRequest(request),
      toast,
      origin: siteOrigin(),
      ...(await accountSummary(request)),
    },
    clearCookie ? { headers: { "Set-Cookie": clearCookie } } : undefined,
  );
}

/** What a route module may say about its document in its `handle`. */
export interface DocumentHandle {
  /** The document language when not English: `{ lang: "fr" }`. */
  lang?: string;
  /**
   * `false` for a page that works as plain HTML (links, forms that post, native disclosures and
   * popovers): it is sent without React's scripts, so it loads no JavaScript of the framework.
   */
  hydrate?: false;
}

function useDocumentHandles() {
  return useMatches().map((match) => (match.handle ?? {}) as DocumentHandle);
}

/** The deepest route's language, English by default. */
function useDocumentLanguage() {
  return useDocumentHandles().findLast((handle) => handle.lang)?.lang ?? "en";
}

/**
 * Whether to send React's scripts: unless a matched route opts out, or the page is an error page. A
 * page that opted out is still hydrated when it has a toast to show (after a redirect), or when it
 * answers a form post (a refused submission, whose first error is a toast), since toasts are drawn
 * by script. An error page is links only, and it carries the request's id, which the browser could
 * not draw again.
 */
function useHydration() {
  const optedOut = useDocumentHandles().some((handle) => handle.hydrate === false);
  const rootData = useRouteLoaderData<typeof loader>("root");
  // React Router keeps the action data and the errors of every route here.
  const routerState = useContext(UNSAFE_DataRouterStateContext);
  if (routerState?.errors) return false;
  return !optedOut || Boolean(rootData?.toast) || Boolean(routerState?.actionData);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const lang = useDocumentLanguage();
  const hydrate = useHydration();
  const nonce = useNonce();
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={`hsl(${siteConfig.colors.primary})`} />
        <style>{brandCssVariables(siteConfig.colors)}</style>
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col">
        {children}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

function Shell({
  children,
  account,
  toast,
}: {
  children: React.ReactNode;
  account: AccountSummary;
  toast?: Toast | null;
}) {
  useToastOnArrival(toast);
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-4 focus:py-2"
      >
        Skip to content
      </a>
      <Header account={{ signedIn: account.user !== null, isAdmin: account.isAdmin }} />
      <NoScriptToast toast={toast} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer />
      <Toaster />
    </>
  );
}

export default function App() {
  const rootData = useLoaderData<typeof loader>();
  return (
    <Shell account={rootData} toast={rootData.toast}>
      <Outlet />
    </Shell>
  );
}

/** The error page's words, in the page's language (the back office is French). */
const ERROR_TEXTS = {
  en: {
    refused: "We could not accept this request",
    failed: "Something went wrong",
    explanation: "We could not show this page. Please try again in a moment; if it keeps happening, contact us.",
    home: "Return to Home",
  },
  fr: {
    refused: "Nous n'avons pas pu accepter cette demande",
    failed: "Une erreur s'est produite",
    explanation:
      "Nous n'avons pas pu afficher cette page. Réessayez dans un instant\u00a0; si cela se reproduit, contactez-nous.",
    home: "Retour à l'accueil",
  },
};

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const lang = useDocumentLanguage();
  const texts = lang === "fr" ? ERROR_TEXTS.fr : ERROR_TEXTS.en;
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A request refused with a reason (a 4xx carrying its message) says why; anything else stays vague.
  const refusal =
    isRouteErrorResponse(error) && error.status < 500 && typeof error.data === "string" ? error.data : null;
  const body = notFound ? (
    <NotFoundMessage />
  ) : (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{refusal ? texts.refused : texts.failed}</h1>
      <p className="mt-4 text-muted-foreground">{refusal ?? texts.explanation}</p>
      <RequestReference lang={lang} />
      <a href="/" className="mt-8 inline-block font-medium text-link underline">
        {texts.home}
      </a>
    </section>
  );
  return rootData ? <Shell account={rootData}>{body}</Shell> : <main id="main">{body}</main>;
}
