import { describe, expect, it, vi } from "vitest";
import { renderFilledMail } from "./filled-mail";
import { MailButton, MailLayout, MailParagraph, renderMail } from "./layout";

type Greeting = { preview: string; name: string; link: string };

async function greeting(fields: Greeting) {
  const { html, text } = await renderMail(
    "Hello",
    <MailLayout preview={fields.preview}>
      <MailParagraph>{`Dear ${fields.name},`}</MailParagraph>
      <MailButton href={fields.link}>Open</MailButton>
    </MailLayout>,
  );
  return { html, text };
}

const greetingOf = (name: string): Greeting => ({
  preview: `Hi ${name}`,
  name,
  link: `https://site.test/${encodeURIComponent(name)}`,
});

describe("renderFilledMail", () => {
  it("renders a kind once, and fills every message of it as rendering it would", async () => {
    const render = vi.fn(greeting);
    const names = ["Ann", "Bo <Lee> & 'Co'", "Cé $& $1 Dee", "A much longer name that makes the preview line longer"];
    const filled = [];
    for (const name of names) filled.push(await renderFilledMail("greeting", greetingOf(name), render));
    expect(render).toHaveBeenCalledTimes(1);
    for (const [index, name] of names.entries()) expect(filled[index]).toEqual(await greeting(greetingOf(name)));
  });

  it("renders as usual a message whose values would lay out differently, and a mail that computes with a field", async () => {
    const render = vi.fn(greeting);
    const twoLines = { ...greetingOf("Ann"), name: "Ann\nLee" };
    expect(await renderFilledMail("greeting, again", twoLines, render)).toEqual(await greeting(twoLines));
    expect(await renderFilledMail("greeting, again", twoLines, render)).toEqual(await greeting(twoLines));
    expect(render).toHaveBeenCalledTimes(2);

    const computing = vi.fn(async ({ day }: { day: string }) => ({ html: new Date(day).toISOString(), text: day }));
    for (const day of ["2030-01-02", "2030-02-28"]) {
      expect(await renderFilledMail("computing", { day }, computing)).toEqual({
        html: `${day}T00:00:00.000Z`,
        text: day,
      });
    }
  });
});
