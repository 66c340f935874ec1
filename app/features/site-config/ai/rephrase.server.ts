import type { Wordings } from "~/features/site-config/generator/wordings";

export type RephraseProvider = "openai-compatible" | "offline";

export interface RephraseRequest {
  wordings: Wordings;
  companyName: string;
  /** The brand the wordings currently name, replaced everywhere by `companyName`. */
  previousCompanyName: string;
  tone: string;
}

/** Rewrites every wording of the site for a new brand; answers the same shape or throws a RephraseError. */
export interface Rephraser {
  readonly provider: RephraseProvider;
  rephrase(request: RephraseRequest): Promise<Wordings>;
}

/** A rephrasing that failed; its message is meant for the person who asked. */
export class RephraseError extends Error {
  override name = "RephraseError";
}
