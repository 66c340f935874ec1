import { describe, expect, it } from "vitest";
import { signInSchema, signUpSchema } from "./schemas";

function errorsOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));
}

const valid = { fullName: "Jeanne Martin", email: "jeanne@example.com", password: "secret", confirmPassword: "secret" };

describe("signUpSchema", () => {
  it("accepts a complete sign-up with a 6-character password, trimming name and e-mail", () => {
    const parsed = signUpSchema.parse({ ...valid, fullName: "  Jeanne Martin ", email: " jeanne@example.com " });
    expect(parsed).toMatchObject({ fullName: "Jeanne Martin", email: "jeanne@example.com" });
  });

  it("says the passwords do not match, on the confirmation field", () => {
    expect(errorsOf(signUpSchema.safeParse({ ...valid, confirmPassword: "secreT" }))).toEqual({
      confirmPassword: "Les mots de passe ne correspondent pas",
    });
  });

  it("wants at least 6 characters", () => {
    expect(errorsOf(signUpSchema.safeParse({ ...valid, password: "12345", confirmPassword: "12345" }))).toEqual({
      password: "Le mot de passe doit contenir au moins 6 caractères",
    });
  });

  it("compares the passwords even while another field is wrong", () => {
    expect(errorsOf(signUpSchema.safeParse({ ...valid, fullName: undefined, confirmPassword: "other!" }))).toEqual({
      fullName: "Ce champ est obligatoire",
      confirmPassword: "Les mots de passe ne correspondent pas",
    });
  });

  it("requires every field, and a real e-mail address", () => {
    expect(errorsOf(signUpSchema.safeParse({}))).toEqual({
      fullName: "Ce champ est obligatoire",
      email: "Ce champ est obligatoire",
      password: "Ce champ est obligatoire",
      confirmPassword: "Ce champ est obligatoire",
    });
    expect(errorsOf(signUpSchema.safeParse({ ...valid, email: "jeanne" }))).toEqual({
      email: "Adresse e-mail invalide",
    });
  });
});

describe("signInSchema", () => {
  it("requires the e-mail and the password, and accepts any non-empty password", () => {
    expect(errorsOf(signInSchema.safeParse({ email: "  " }))).toEqual({
      email: "Ce champ est obligatoire",
      password: "Ce champ est obligatoire",
    });
    expect(signInSchema.safeParse({ email: "a@b.co", password: "x" }).success).toBe(true);
  });
});
