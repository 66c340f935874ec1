import { hslToRgb, parseHslTriplet } from "~/features/site-config/hsl";
import { siteConfig } from "../../../../site.config";

/** The pieces a mail is made of; each renders to plain text and to HTML, so the two never drift apart. */
export type MailBlock =
  | { kind: "paragraph"; text: string }
  | { kind: "button"; label: string; href: string }
  | { kind: "fields"; rows: [label: string, value: string][] }
  | { kind: "quote"; text: string };

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/** Escaped, with line breaks kept: people type messages on several lines. */
function escapeMultiline(value: string): string {
  return escapeHtml(value).replace(/\r?\n/g, "<br>");
}

/** Only web links may become buttons: a `javascript:` or `data:` URL never reaches an inbox. */
function safeHref(href: string): string {
  const protocol = new URL(href).protocol;
  if (protocol !== "https:" && protocol !== "http:") throw new Error(`Refusing a ${protocol} link in an e-mail`);
  return escapeHtml(href);
}

function brandHex(): string {
  const hsl = parseHslTriplet(siteConfig.colors.primaryDark);
  if (!hsl) return "#1f2937";
  return `#${hslToRgb(hsl)
    .map((channel) => channel.toString(16).padStart(2, "0"))
    .join("")}`;
}

function blockText(block: MailBlock): string {
  switch (block.kind) {
    case "paragraph":
      return block.text;
    case "button":
      return `${block.label}:\n${block.href}`;
    case "fields":
      return block.rows.map(([label, value]) => `${label}: ${value}`).join("\n");
    case "quote":
      return block.text
        .split(/\r?\n/)
        .map((line) => `> ${line}`)
        .join("\n");
  }
}

function blockHtml(block: MailBlock, colour: string): string {
  switch (block.kind) {
    case "paragraph":
      return `<p style="margin:0 0 16px">${escapeMultiline(block.text)}</p>`;
    case "button":
      return `<p style="margin:24px 0"><a href="${safeHref(block.href)}" style="display:inline-block;background:${colour};color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(block.label)}</a></p>`;
    case "fields":
      return `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${block.rows
        .map(
          ([label, value]) =>
            `<tr><th scope="row" style="text-align:left;padding:4px 16px 4px 0;vertical-align:top">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeMultiline(value)}</td></tr>`,
        )
        .join("")}</table>`;
    case "quote":
      return `<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:4px solid ${colour};background:#f5f7fa">${escapeMultiline(block.text)}</blockquote>`;
  }
}

/** A complete mail in the brand's frame: a heading, the blocks, and the company's details at the bottom. */
export function composeMail({ subject, blocks }: { subject: string; blocks: MailBlock[] }): MailContent {
  const { company } = siteConfig;
  const signature = `${company.legalName}\n${company.address}\n${company.phone} · ${company.email}`;
  const text = [...blocks.map(blockText), `--\n${signature}`].join("\n\n");
  const colour = brandHex();
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7fa;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;color:#111827">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<p style="margin:0 0 24px;font-size:20px;font-weight:700;color:${colour}">${escapeHtml(company.name)}</p>
${blocks.map((block) => blockHtml(block, colour)).join("\n")}
<p style="margin:32px 0 0;font-size:13px;color:#6b7280">${escapeMultiline(signature)}</p>
</div>
</body>
</html>`;
  return { subject, text, html };
}
