import type { Page } from "@playwright/test";

/** A whole new brand for the generator's form, field label -> value. */
export const SKYWAY_BRAND: Record<string, string> = {
  "Company name": "Skyway Travel",
  Phone: "+44 20 7946 0000",
  Email: "hello@skyway.example",
  "Company address": "1 Sky Road, London, United Kingdom",
  "Main domain": "https://www.skyway.example/",
  "Fast-track domain": "fast.skyway.example",
  "Check-in domain": "checkin.skyway.example",
  "Primary colour": "350 70% 50%",
  "Accent colour": "160 60% 40%",
};

export async function fillGeneratorForm(page: Page, fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) {
    await page.getByRole("textbox", { name: label, exact: true }).fill(value);
  }
}
