import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inlineScriptHashes } from "./page-cache";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("inlineScriptHashes", () => {
  it("lists the hash of each inline script's text, and none for scripts with a src or no text", () => {
    const first = 'window.__context = {"a":1};';
    const second = "\n  console.log('<b>');\n";
    const html = [
      '<head><script async type="module" src="/assets/tabs.script-1.js"></script></head>',
      `<body><script nonce="n">${first}</script>`,
      "<script></script>",
      `<script type="module">${second}</script></body>`,
    ].join("");
    expect(inlineScriptHashes(html)).toEqual([sha256(first), sha256(second)]);
  });

  it("finds nothing in a page without inline scripts", () => {
    expect(inlineScriptHashes('<html><script src="/a.js"></script><p>text</p></html>')).toEqual([]);
  });
});
