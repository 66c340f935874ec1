import { Body, Button, Container, Head, Html, Img, Preview, Section, Text } from "@react-email/components";
import { plainTextSelectors, render } from "@react-email/render";
import { compile } from "html-to-text";
import { Fragment, type ReactElement, type ReactNode } from "react";
import { hslToRgb, parseHslTriplet } from "~/lib/hsl";
import { siteConfig } from "../../../site.config";

/** A rendered message: the HTML part and its plain-text twin, both from the same React tree. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

function hex(triplet: string, fallback: string): string {
  const hsl = parseHslTriplet(triplet);
  if (!hsl) return fallback;
  return `#${hslToRgb(hsl)
    .map((channel) => channel.toString(16).padStart(2, "0"))
    .join("")}`;
}

/** The brand's colours as e-mail clients need them: hex, since many ignore hsl(). */
export function mailColours() {
  return {
    brand: hex(siteConfig.colors.primaryDark, "#1f2937"),
    brandLight: hex(siteConfig.colors.primaryLight, "#eef2f7"),
    accent: hex(siteConfig.colors.accent, "#f59e0b"),
  };
}

/** Only web links may reach an inbox: a `javascript:` or `data:` URL is refused. */
export function safeHref(href: string): string {
  const protocol = new URL(href).protocol;
  if (protocol !== "https:" && protocol !== "http:") throw new Error(`Refusing a ${protocol} link in an e-mail`);
  return href;
}

const text = { margin: "0 0 16px", fontSize: "16px", lineHeight: "24px", color: "#111827" } as const;

/** The brand's frame: the name as logo, the message, and the company's details at the bottom. */
export function MailLayout({ preview, children }: { preview: string; children: ReactNode }) {
  const { company } = siteConfig;
  const colours = mailColours();
  return (
    <Html lang="en">
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
      </Head>
      <Preview>{preview}</Preview>
      <Body
        style={{
          margin: 0,
          padding: "16px 8px",
          backgroundColor: "#f5f7fa",
          fontFamily: "Arial, Helvetica, sans-serif",
        }}
      >
        <Container style={{ maxWidth: "560px", width: "100%", backgroundColor: "#ffffff", borderRadius: "8px" }}>
          <Section style={{ backgroundColor: colours.brand, borderRadius: "8px 8px 0 0", padding: "20px 24px" }}>
            <Text style={{ margin: 0, fontSize: "22px", lineHeight: "28px", fontWeight: 700, color: "#ffffff" }}>
              {company.name}
            </Text>
          </Section>
          <Section style={{ padding: "24px" }}>{children}</Section>
          <Section style={{ padding: "16px 24px 24px", borderTop: `4px solid ${colours.brandLight}` }}>
            <Text style={{ margin: 0, fontSize: "13px", lineHeight: "20px", color: "#4b5563" }}>
              --
              <br />
              {company.legalName}
              <br />
              {company.address}
              <br />
              {company.phone} · {company.email}
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** Text as typed, line breaks kept: people write messages on several lines. */
function Lines({ value }: { value: string }) {
  return value.split(/\r?\n/).map((line, index) => (
    <Fragment key={index}>
      {index > 0 && <br />}
      {line}
    </Fragment>
  ));
}

export function MailParagraph({ children }: { children: string }) {
  return (
    <Text style={text}>
      <Lines value={children} />
    </Text>
  );
}

export function MailHeading({ children }: { children: string }) {
  return (
    <Text style={{ ...text, fontSize: "22px", lineHeight: "28px", fontWeight: 700, color: mailColours().brand }}>
      {children}
    </Text>
  );
}

export function MailButton({ href, children }: { href: string; children: string }) {
  return (
    <Section style={{ margin: "24px 0" }}>
      <Button
        href={safeHref(href)}
        style={{
          backgroundColor: mailColours().brand,
          color: "#ffffff",
          padding: "12px 20px",
          borderRadius: "6px",
          fontWeight: 600,
          fontSize: "16px",
        }}
      >
        {children}
      </Button>
    </Section>
  );
}

/** Label and value on one line each, so a long value wraps instead of widening the message. */
export function MailFields({ rows }: { rows: [label: string, value: string][] }) {
  return (
    <Section style={{ margin: "0 0 16px" }}>
      {rows.map(([label, value]) => (
        <Text key={label} style={{ ...text, margin: "0 0 6px", overflowWrap: "anywhere" }}>
          <strong>{label}:</strong> <Lines value={value} />
        </Text>
      ))}
    </Section>
  );
}

export function MailQuote({ children }: { children: string }) {
  return (
    <blockquote
      style={{
        margin: "0 0 16px",
        padding: "8px 16px",
        borderLeft: `4px solid ${mailColours().brand}`,
        backgroundColor: "#f5f7fa",
        overflowWrap: "anywhere",
      }}
    >
      <Lines value={children} />
    </blockquote>
  );
}

/** An image sent with the message, referenced by its Content-ID: clients show it where data URIs are blocked. */
export function MailInlineImage({ cid, alt, size }: { cid: string; alt: string; size: number }) {
  return <Img src={`cid:${cid}`} alt={alt} width={size} height={size} style={{ display: "block" }} />;
}

/**
 * React Email's plain-text conversion, compiled once: converting with its options compiles them
 * anew each time, which cost more than rendering the HTML (a billing run renders thousands).
 */
const toPlainText = compile({ wordwrap: false, selectors: plainTextSelectors });

/** Renders a message to HTML and to its plain-text twin (from that HTML: React renders once). */
export async function renderMail(subject: string, element: ReactElement): Promise<MailContent> {
  const html = await render(element);
  return { subject, html, text: toPlainText(html).trim() };
}
