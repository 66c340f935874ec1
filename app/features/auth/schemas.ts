import { z } from "~/lib/zod";

// The /auth forms are in French, so are their messages. Shared by the browser and the server.

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;

export const REQUIRED_MESSAGE = "Ce champ est obligatoire";
export const PASSWORD_TOO_SHORT_MESSAGE = `Le mot de passe doit contenir au moins ${MIN_PASSWORD_LENGTH} caractères`;
export const PASSWORDS_DIFFER_MESSAGE = "Les mots de passe ne correspondent pas";

const requiredText = () => z.string({ error: REQUIRED_MESSAGE }).trim().min(1, REQUIRED_MESSAGE);

export const email = requiredText()
  .max(255, "L'adresse e-mail ne doit pas dépasser 255 caractères")
  .pipe(z.email("Adresse e-mail invalide"));

export const signInSchema = z.object({
  email,
  password: z.string({ error: REQUIRED_MESSAGE }).min(1, REQUIRED_MESSAGE),
});

const newPassword = z
  .string({ error: REQUIRED_MESSAGE })
  .min(MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT_MESSAGE)
  .max(MAX_PASSWORD_LENGTH, `Le mot de passe ne doit pas dépasser ${MAX_PASSWORD_LENGTH} caractères`);

const passwordPair = z.object({ password: newPassword, confirmPassword: z.string({ error: REQUIRED_MESSAGE }) });

export const signUpSchema = z
  .object({
    fullName: requiredText().max(100, "Le nom ne doit pas dépasser 100 caractères"),
    email,
    password: newPassword,
    confirmPassword: z.string({ error: REQUIRED_MESSAGE }),
  })
  .refine((input) => input.password === input.confirmPassword, {
    message: PASSWORDS_DIFFER_MESSAGE,
    path: ["confirmPassword"],
    // Compare as soon as both passwords are there, even while another field is still wrong.
    when: (payload) => passwordPair.safeParse(payload.value).success,
  });

export type SignInInput = z.infer<typeof signInSchema>;
export type SignUpInput = z.infer<typeof signUpSchema>;
