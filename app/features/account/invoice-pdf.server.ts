import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { currencyByCode } from "~/lib/currency";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { siteConfig } from "../../../site.config";
import type { InvoiceDocument } from "./invoice-documents.server";

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.38, 0.42, 0.48);
const RULE = rgb(0.82, 0.84, 0.87);

/** "€49.00", "-€5.50": an invoice always shows the cents. */
export function documentAmount(minorUnits: number, currency: InvoiceDocument["currency"]): string {
  const sign = minorUnits < 0 ? "-" : "";
  return `${sign}${currencyByCode(currency).symbol}${(Math.abs(minorUnits) / 100).toFixed(2)}`;
}

export function documentTitle(document: Pick<InvoiceDocument, "kind">): string {
  return document.kind === "invoice" ? "Invoice" : "Credit note";
}

/** Letters that Unicode does not decompose into a base letter and a mark. */
const STROKED_LETTERS: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", Ħ: "H", ħ: "h", ı: "i" };

/**
 * The standard PDF fonts only know Windows-1252's characters: a name in another script keeps its
 * Latin letters without their accents where the font lacks them, and a "?" for the rest, rather
 * than failing the whole document.
 */
function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return Array.from(text, (character) => {
    if (known.has(character.codePointAt(0)!)) return character;
    const bare = (STROKED_LETTERS[character] ?? character).normalize("NFKD").replace(/\p{M}/gu, "");
    return bare !== "" && Array.from(bare).every((part) => known.has(part.codePointAt(0)!)) ? bare : "?";
  }).join("");
}

/** Breaks `text` into lines no wider than `width` at `size`. */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    const candidate = line === "" ? word : `${line} ${word}`;
    if (line !== "" && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

class Writer {
  y = A4[1] - MARGIN;
  constructor(
    private readonly page: PDFPage,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
  ) {}

  text(text: string, options: { size?: number; bold?: boolean; color?: typeof INK; x?: number; right?: number } = {}) {
    const font = options.bold ? this.bold : this.regular;
    const size = options.size ?? 10;
    const safe = printable(font, text);
    const x = options.right === undefined ? (options.x ?? MARGIN) : options.right - font.widthOfTextAtSize(safe, size);
    this.page.drawText(safe, { x, y: this.y, size, font, color: options.color ?? INK });
  }

  /** Writes `text` wrapped to `width`, moving down one line per line written. */
  paragraph(text: string, width: number, options: { size?: number; x?: number; bold?: boolean } = {}) {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.regular;
    for (const line of wrap(font, printable(font, text), size, width)) {
      this.text(line, options);
      this.down(size * 1.4);
    }
  }

  rule() {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4[0] - MARGIN, y: this.y },
      thickness: 0.75,
      color: RULE,
    });
  }

  down(points: number) {
    this.y -= points;
  }
}

/**
 * The invoice or credit note as a one-page A4 PDF: the seller's legal name, address and VAT number,
 * the customer, the lines, the total with the VAT it includes, and the currency.
 */
export async function invoicePdf(document: InvoiceDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const title = `${documentTitle(document)} ${document.number}`;
  pdf.setTitle(title);
  pdf.setAuthor(siteConfig.company.legalName);
  pdf.setCreationDate(document.issuedAt);
  pdf.setModificationDate(document.issuedAt);
  const page = pdf.addPage(A4);
  const writer = new Writer(
    page,
    await pdf.embedFont(StandardFonts.Helvetica),
    await pdf.embedFont(StandardFonts.HelveticaBold),
  );
  const right = A4[0] - MARGIN;
  const { company } = siteConfig;
  const amount = (minorUnits: number) => documentAmount(minorUnits, document.currency);

  writer.text(company.legalName, { size: 16, bold: true });
  writer.text(documentTitle(document), { size: 16, bold: true, right });
  writer.down(22);
  for (const [line, detail] of [
    [company.address, `No. ${document.number}`],
    [company.email, `Date: ${formatMemberDay(document.issuedAt)}`],
    [`VAT number: ${company.vatNumber}`, document.correctsNumber ? `Corrects invoice ${document.correctsNumber}` : ""],
  ] as const) {
    writer.text(line, { color: MUTED });
    writer.text(detail, { right });
    writer.down(14);
  }

  writer.down(24);
  writer.text("Billed to", { bold: true, color: MUTED, size: 9 });
  writer.down(14);
  writer.text(document.customer.name);
  writer.down(14);
  writer.text(document.customer.email, { color: MUTED });
  writer.down(36);

  writer.text("Description", { bold: true, color: MUTED, size: 9 });
  writer.text(`Amount (${document.currency})`, { bold: true, color: MUTED, size: 9, right });
  writer.down(8);
  writer.rule();
  writer.down(16);
  for (const line of document.lines) {
    const top = writer.y;
    writer.paragraph(line.description, right - MARGIN - 110);
    const bottom = writer.y;
    writer.y = top;
    writer.text(amount(line.amount), { right });
    writer.y = bottom;
  }
  writer.down(2);
  writer.rule();
  writer.down(18);

  const totals: [string, string, boolean][] = [
    ["Amount excluding VAT", amount(document.total - document.vat), false],
    [`VAT ${document.vatPercent}%`, amount(document.vat), false],
    [`Total (VAT included)`, amount(document.total), true],
  ];
  for (const [label, value, strong] of totals) {
    writer.text(label, { x: right - 240, bold: strong });
    writer.text(value, { right, bold: strong });
    writer.down(16);
  }

  writer.down(28);
  writer.paragraph(
    document.kind === "invoice"
      ? `Paid by card on ${formatMemberDay(document.issuedAt)}. Amounts in ${document.currency}, VAT included.`
      : `Refunded to the card that paid invoice ${document.correctsNumber}. Amounts in ${document.currency}, VAT included.`,
    right - MARGIN,
    { size: 9 },
  );
  return pdf.save({ useObjectStreams: false });
}
