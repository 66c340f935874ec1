import type { Route } from "./+types/privacy";
import type { DocumentHandle } from "~/root";
import { LegalDocument } from "~/features/legal/ui/legal-document";
import { PRIVACY_LAST_UPDATED, privacyIntro, privacySections } from "~/features/privacy/ui/privacy-policy";
import { pageMeta } from "~/platform/seo/page-meta";
import { siteConfig } from "../../site.config";

/** Links, native disclosures and forms that post: nothing here needs React in the browser. */
export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(
    {
      title: "Privacy Policy",
      description: `How ${siteConfig.company.legalName} collects, uses and protects your personal data, how long it is kept, and how to exercise your rights under the GDPR.`,
    },
    args,
  );

export default function PrivacyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      lastUpdated={PRIVACY_LAST_UPDATED}
      intro={privacyIntro}
      sections={privacySections}
      tableOfContents
    />
  );
}
