import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { Bot, Download, Info, RotateCcw } from "lucide-react";
import { toast } from "~/components/ui/toast";
import { Button } from "~/components/ui/button";
import type { RephraseProvider } from "~/features/site-config/ai/rephrase.server";
import { renderSiteConfig } from "~/features/site-config/generator/render-config";
import type { SiteConfig } from "~/features/site-config/types";

const NEXT_STEPS = [
  <>
    Replace <code>site.config.ts</code> at the root of the project with the downloaded file.
  </>,
  <>
    Run <code>npm run typecheck</code> to check it, then <code>npm run build</code>.
  </>,
  <>
    Restart the server (<code>npm run serve</code>, or your process manager) so that the new brand is served.
  </>,
  <>Open the home page and check the new name, colours and texts.</>,
  <>
    Add the brand&apos;s social links to <code>social</code> in <code>site.config.ts</code> when it has them.
  </>,
];

function ProviderNotice({ provider }: { provider: RephraseProvider }) {
  if (provider === "offline") {
    return (
      <p className="flex gap-3 rounded-md border border-warning/40 bg-warning/10 p-4 text-sm">
        <Info className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
        <span>
          <strong>AI is not configured</strong> on this server (no <code>AI_BASE_URL</code>), so the built-in offline
          rephraser was used: it put the new name in place of the old one, varied the phrasing from a curated list and
          kept every price and number. Review the texts before you publish.
        </span>
      </p>
    );
  }
  return (
    <p className="flex gap-3 rounded-md border bg-muted p-4 text-sm">
      <Bot className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>The texts were rephrased by the configured AI model. Review them before you publish.</span>
    </p>
  );
}

function Swatches({ colors }: { colors: SiteConfig["colors"] }) {
  return (
    <ul className="flex flex-wrap gap-3" aria-label="Colours">
      {Object.entries(colors).map(([name, value]) => (
        <li key={name} className="flex items-center gap-2 text-xs">
          <span className="size-6 rounded-md border" style={{ backgroundColor: `hsl(${value})` }} aria-hidden="true" />
          <span>
            {name} <span className="font-mono text-muted-foreground">{value}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The generated configuration: what AI did, the download, a JSON preview and what to do next. */
export function GeneratedConfig({ config, provider }: { config: SiteConfig; provider: RephraseProvider }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Built here, in the browser (or in the page's HTML without JavaScript): the download needs no call.
  const download = `data:text/typescript;charset=utf-8,${encodeURIComponent(renderSiteConfig(config))}`;

  useEffect(() => {
    heading.current?.scrollIntoView({ block: "start" });
    heading.current?.focus({ preventScroll: true });
  }, [config]);

  return (
    <section aria-labelledby="generated-heading" className="grid gap-6 rounded-xl border bg-card p-6 shadow-sm">
      <div className="grid gap-2">
        <h2 id="generated-heading" ref={heading} tabIndex={-1} className="scroll-mt-24 text-2xl font-bold outline-none">
          Configuration for {config.company.name}
        </h2>
        <p className="text-muted-foreground">Your new site.config.ts is ready.</p>
      </div>
      <ProviderNotice provider={provider} />
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button asChild size="lg">
          <a
            href={download}
            download="site.config.ts"
            onClick={() => toast.success("Success!", { description: "Configuration file downloaded successfully" })}
          >
            <Download aria-hidden="true" />
            Download site.config.ts
          </a>
        </Button>
        <Form method="get">
          <Button type="submit" size="lg" variant="outline" className="w-full">
            <RotateCcw aria-hidden="true" />
            Generate Another
          </Button>
        </Form>
      </div>
      <Swatches colors={config.colors} />
      <div className="grid gap-2">
        <h3 className="font-semibold">Preview</h3>
        <pre
          tabIndex={0}
          aria-label="Configuration preview (JSON)"
          className="max-h-[28rem] overflow-auto rounded-md border bg-muted p-4 font-mono text-xs leading-relaxed"
        >
          {JSON.stringify(config, null, 2)}
        </pre>
      </div>
      <div className="grid gap-2">
        <h3 className="font-semibold">Next steps</h3>
        <ol className="grid list-decimal gap-2 pl-5 text-sm [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:py-0.5">
          {NEXT_STEPS.map((step, index) => (
            <li key={index}>{step}</li>
          ))}
        </ol>
      </div>
    </section>
  );
}
