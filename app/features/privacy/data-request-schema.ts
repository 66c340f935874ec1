import { z } from "~/lib/zod";
import { DATA_REQUEST_KINDS, type DataRequestKind } from "~/db/enums";
import { email } from "~/features/auth/schemas";

// The back office's data-request forms, in French like the rest of /admin. Shared by browser and server.

export const DATA_REQUEST_KIND_LABELS: Record<DataRequestKind, string> = {
  access: "Accès aux données",
  export: "Portabilité (export)",
  erasure: "Effacement",
};

/** A request as it is recorded; `today` ("YYYY-MM-DD", company time) is the latest day it can have arrived. */
export const dataRequestSchema = (today: string) =>
  z.object({
    email,
    kind: z.enum(DATA_REQUEST_KINDS, { error: "Choisissez le type de demande" }),
    receivedOn: z.iso
      .date({ error: "Indiquez la date de réception (AAAA-MM-JJ)" })
      .refine((day) => day <= today, "La date de réception ne peut pas être dans le futur"),
  });

export type DataRequestInput = z.infer<ReturnType<typeof dataRequestSchema>>;

export const ERASE_CONFIRMATION_MESSAGE = "Cochez la case pour confirmer l'effacement";

export const eraseSchema = z.object({
  confirm: z.literal("on", { error: ERASE_CONFIRMATION_MESSAGE }),
});
