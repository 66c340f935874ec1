import { z } from "~/lib/zod";

export const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]),
  title: z.string().max(200),
  description: z.string().max(500).optional(),
});

export type Toast = z.infer<typeof toastSchema>;
