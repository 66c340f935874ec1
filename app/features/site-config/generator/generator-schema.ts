import { z } from "~/lib/zod";
import { parseHslTriplet } from "~/lib/hsl";
import type { SiteConfig } from "~/features/site-config/types";

/** The colours the generator's form starts from. */
export const GENERATOR_DEFAULT_COLORS = { primary: "205 85% 45%", accent: "42 95% 55%" } as const;

export const MISSING_COMPANY_NAME = "Please enter at least a company name";

/** "https://www.Example.com/" -> "www.example.com": site.config.ts holds host names without a scheme. */
export function toHostName(value: string): string {
  return value
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
    .replace(/[/?#].*$/, "")
    .toLowerCase();
}

const optionalText = (max: number) => z.string().trim().max(max).default("");
const hostName = z.string().trim().max(253).default("").transform(toHostName);
const hslColour = z
  .string()
  .trim()
  .refine((value) => parseHslTriplet(value) !== undefined, "Enter the colour as H S% L%, for example 205 85% 45%");

/**
 * The generator's form, checked the same way in the browser and by the page's action. Only the
 * company name is required; an empty field keeps the value it has in site.config.ts. The
 * colours must be HSL triplets, or the generated site would not render.
 */
export const generatorFormSchema = z.object({
  companyName: z.string({ error: MISSING_COMPANY_NAME }).trim().min(1, MISSING_COMPANY_NAME).max(100),
  phone: optionalText(40),
  email: optionalText(254),
  address: optionalText(300),
  mainDomain: hostName,
  fastTrackDomain: hostName,
  checkInDomain: hostName,
  primaryColor: hslColour,
  accentColor: hslColour,
});

export type GeneratorForm = z.output<typeof generatorFormSchema>;
export type GeneratorField = keyof GeneratorForm;
/** What was typed, field by field, to show again after a submission. */
export type GeneratorFormValues = Record<GeneratorField, string>;
export type GeneratorFieldErrors = Partial<Record<GeneratorField, string[]>>;

/** Reads a submitted generator form: the checked values, or the field errors and what was typed. */
export function readGeneratorForm(
  formData: FormData,
):
  | { values: GeneratorFormValues; form: GeneratorForm }
  | { values: GeneratorFormValues; fieldErrors: GeneratorFieldErrors } {
  const values = Object.fromEntries(
    generatorFormSchema.keyof().options.map((name) => [name, String(formData.get(name) ?? "")]),
  ) as GeneratorFormValues;
  const parsed = generatorFormSchema.safeParse(values);
  return parsed.success
    ? { values, form: parsed.data }
    : { values, fieldErrors: z.flattenError(parsed.error).fieldErrors };
}

/** What the form shows before anything is typed: the current contact details and domains, the default colours. */
export function generatorFormDefaults(config: SiteConfig): GeneratorFormValues {
  return {
    companyName: "",
    phone: config.company.phone,
    email: config.company.email,
    address: config.company.address,
    mainDomain: config.domains.main,
    fastTrackDomain: config.domains.fastTrack,
    checkInDomain: config.domains.checkIn,
    primaryColor: GENERATOR_DEFAULT_COLORS.primary,
    accentColor: GENERATOR_DEFAULT_COLORS.accent,
  };
}
