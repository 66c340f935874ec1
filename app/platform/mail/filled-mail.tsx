import { Preview } from "@react-email/components";
import { renderToStaticMarkup } from "react-dom/server";

/**
 * The strings that differ from one message of a kind to the next, by name. A field whose value is a
 * web address may start a longer one (`${origin}/unsubscribe`); `preview` is the inbox's preview line.
 */
export type MailFields = Record<string, string>;

type Rendered = { html: string; text: string };

/** A kind of mail rendered once with marks where its fields go; null when it cannot be filled that way. */
type Mould = { html: string; text: string; marks: Map<string, string> } | null;

const moulds = new Map<string, Promise<Mould>>();
/** Kinds are few (which rows and paragraphs a mail has); the bound only guards against a caller's mistake. */
const MOULDS_KEPT = 200;

const LINK = /^https?:\/\//;
/**
 * Values filled in as they are: no line breaks, tabs or runs of spaces, which the HTML and its plain
 * text would each lay out in their own way, and no character of the marks themselves.
 */
const FILLABLE = /^[^\s\uE000\uE001]+(?: [^\s\uE000\uE001]+)*$/;

const markFor = (index: number, value: string) =>
  LINK.test(value) ? `https://mail-field.invalid/${index}~` : `\uE000${index}\uE001`;

/** How React writes a string into HTML, in text and in attributes alike. */
function escapeLikeReact(value: string): string {
  return value.replace(/["&'<>]/g, (character) => ESCAPES[character as keyof typeof ESCAPES]);
}
const ESCAPES = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };

/** The preview line as the layout writes it: its padding depends on the line's length. */
const previewMarkup = (line: string) => renderToStaticMarkup(<Preview>{line}</Preview>);

async function makeMould<Fields extends MailFields>(
  fields: Fields,
  render: (fields: Fields) => Promise<Rendered>,
): Promise<Mould> {
  const marks = new Map(Object.keys(fields).map((name, index) => [name, markFor(index, fields[name]!)]));
  let html: string;
  let text: string;
  try {
    ({ html, text } = await render(Object.fromEntries(marks) as Fields));
  } catch {
    // The mail computed with a field (a date parsed, say), which a mark is not.
    return null;
  }
  for (const [name, mark] of marks) {
    // A field the mail computed with (a date parsed, a URL resolved) left no mark: it cannot be filled in.
    const found = name === "preview" ? html.includes(previewMarkup(mark)) : html.includes(mark) || text.includes(mark);
    if (!found) return null;
  }
  return { html, text, marks };
}

/**
 * A mail rendered once per `kind` and filled with each message's fields, instead of rendered for
 * every message: React and the plain-text conversion cost milliseconds a mail, filling them costs
 * microseconds. `kind` must name everything else the rendering depends on (which rows, which
 * paragraphs); a test of each mail compares the two ways. Values that cannot be filled as they are
 * (see FILLABLE), and a mail that computes with a field, are rendered the ordinary way.
 */
export async function renderFilledMail<Fields extends MailFields>(
  kind: string,
  fields: Fields,
  render: (fields: Fields) => Promise<Rendered>,
): Promise<Rendered> {
  const values = Object.entries(fields);
  if (!values.every(([, value]) => FILLABLE.test(value) && !value.includes("mail-field.invalid"))) {
    return render(fields);
  }
  const key = `${kind}\u0000${values.map(([name, value]) => `${name}${LINK.test(value) ? ":link" : ""}`).join(",")}`;
  let mould = moulds.get(key);
  if (!mould) {
    if (moulds.size >= MOULDS_KEPT) moulds.clear();
    mould = makeMould(fields, render);
    moulds.set(key, mould);
  }
  const made = await mould;
  if (!made) return render(fields);
  let { html, text } = made;
  for (const [name, value] of values) {
    const mark = made.marks.get(name)!;
    if (name === "preview") {
      html = html.replace(previewMarkup(mark), () => previewMarkup(value));
      continue;
    }
    // As functions: a replacement string would read "$&" in a value ("$33.00") as a pattern.
    const escaped = escapeLikeReact(value);
    html = html.replaceAll(mark, () => escaped);
    text = text.replaceAll(mark, () => value);
  }
  return { html, text };
}
