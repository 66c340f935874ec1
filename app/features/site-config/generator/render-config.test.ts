import { readFileSync } from "node:fs";
import * as prettier from "prettier";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { siteConfig } from "../../../../site.config";
import { renderSiteConfig, stringLiteral } from "./render-config";
import type { SiteConfig } from "~/features/site-config/types";

async function prettierFormat(source: string) {
  const options = await prettier.resolveConfig("site.config.ts");
  return prettier.format(source, { ...options, filepath: "site.config.ts" });
}

function syntaxErrors(source: string) {
  const output = ts.transpileModule(source, { reportDiagnostics: true, fileName: "site.config.ts" });
  return (output.diagnostics ?? []).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

/** Evaluates the object literal of a rendered file, to compare it with what went in. */
function evaluate(source: string): unknown {
  const body = source.slice(source.indexOf("= {") + 2, source.lastIndexOf(";"));
  return new Function(`return (${body});`)();
}

function withTexts(edit: (config: SiteConfig) => void): SiteConfig {
  const config = structuredClone(siteConfig);
  edit(config);
  return config;
}

describe("renderSiteConfig", () => {
  it("renders the committed site.config.ts byte for byte", () => {
    expect(renderSiteConfig(siteConfig)).toBe(readFileSync("site.config.ts", "utf8"));
  });

  const awkward: [string, SiteConfig][] = [
    [
      "quotes, backslashes and template characters",
      withTexts((config) => {
        config.company.name = `O'Brien "Fast" Travel \\ co`;
        config.content.hero.title = 'He said "go" and "now"';
        config.content.hero.subtitle = "It's ${notInterpolated} `backticks` and 'single' quotes";
        config.content.hero.cta = "</script><!-- -->";
      }),
    ],
    [
      "control characters, line separators and non-Latin scripts",
      withTexts((config) => {
        config.company.address = "Line one\nLine two\ttabbed\u2028separated\u0000";
        config.content.hero.title = "快速通道，轻松出行 — Ëxpériences très spéciales 🚀✈️";
        config.seo.keywords = ["東京 fast track", "café", "👍"];
      }),
    ],
    [
      "empty lists and no product code",
      withTexts((config) => {
        config.seo.keywords = [];
        delete config.pricing.medium.productCode;
        config.content.whyChooseUs.reasons = [config.content.whyChooseUs.reasons[0]!];
      }),
    ],
  ];

  it.each(awkward)("writes valid, Prettier-formatted TypeScript with %s", async (_, config) => {
    const source = renderSiteConfig(config);
    expect(syntaxErrors(source)).toEqual([]);
    expect(await prettierFormat(source)).toBe(source);
    expect(evaluate(source)).toEqual(JSON.parse(JSON.stringify(config)));
  });

  it("breaks lines exactly where Prettier does, whatever the length of a text", async () => {
    for (let length = 80; length <= 130; length += 1) {
      const config = withTexts((edit) => {
        edit.content.hero.subtitle = "s".repeat(length);
        edit.content.hero.cta = "c".repeat(length);
        edit.company.address = "日".repeat(Math.floor(length / 2)) + "x";
        edit.seo.keywords = ["k".repeat(length - 60), "é".repeat(40)];
        edit.pricing.premium.features = ["f".repeat(length / 4), "🚀".repeat(length / 8), "g".repeat(length / 3)];
      });
      const source = renderSiteConfig(config);
      expect(await prettierFormat(source), `text length ${length}`).toBe(source);
    }
  });
});

describe("stringLiteral", () => {
  it("uses JSON's escaping and Prettier's choice of quotes", () => {
    expect(stringLiteral("plain")).toBe('"plain"');
    expect(stringLiteral(`it's "one" quote`)).toBe(`'it\\'s "one" quote'`);
    expect(stringLiteral(`"a" and 'b'`)).toBe(`"\\"a\\" and 'b'"`);
    expect(stringLiteral("new\nline")).toBe('"new\\nline"');
  });
});
