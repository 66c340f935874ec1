import { z } from "~/lib/zod";

// Work that failed for good (ADR 026): mails the outbox gave up on and Stripe events whose handling
// failed. The forms that retry them, shared by the pages and the actions that check them.

export const mailRetrySchema = z.object({
  id: z.guid("Identifiant d'e-mail invalide : rien n'a été renvoyé."),
});

export const eventRetrySchema = z.object({
  id: z.string().regex(/^evt_[A-Za-z0-9]{1,250}$/, "Identifiant d'événement invalide : rien n'a été relancé."),
});

export const FAILED_MAILS_PATH = "/admin/system/failed-emails";
export const FAILED_EVENTS_PATH = "/admin/system/failed-events";
