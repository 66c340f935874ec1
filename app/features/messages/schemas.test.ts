import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { firstErrorMessage } from "~/lib/form-result";
import { contactSchema, servicesContactSchema, unsubscribeSchema } from "./schemas";

function formData(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

const validContact = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.org",
  phone: "+31 6 1234 5678",
  message: "When does my trial start?",
};

describe("the contact schema", () => {
  it("keeps a line break posted as CR LF as one LF, and counts it once against the limit", () => {
    const submission = parseWithZod(formData({ ...validContact, message: `First line\r\nSecond\rThird` }), {
      schema: contactSchema,
    });
    expect(submission.status === "success" && submission.value.message).toBe("First line\nSecond\nThird");
    const atLimit = parseWithZod(formData({ ...validContact, message: `${"a".repeat(499)}\r\n${"b".repeat(500)}` }), {
      schema: contactSchema,
    });
    expect(atLimit.status).toBe("success");
  });

  it("trims every text", () => {
    const submission = parseWithZod(
      formData({ ...validContact, firstName: "  Ada ", email: " ada@example.org ", message: "\n Hi \n" }),
      { schema: contactSchema },
    );
    expect(submission.status === "success" && submission.value).toMatchObject({
      firstName: "Ada",
      email: "ada@example.org",
      message: "Hi",
    });
  });

  it.each([
    ["firstName", "", "First name is required"],
    ["firstName", "   ", "First name is required"],
    ["firstName", "x".repeat(101), "First name must be at most 100 characters"],
    ["lastName", "", "Last name is required"],
    ["lastName", "x".repeat(101), "Last name must be at most 100 characters"],
    ["email", "", "Invalid email address"],
    ["email", "not-an-address", "Invalid email address"],
    ["email", `${"x".repeat(250)}@example.org`, "Email must be at most 255 characters"],
    ["phone", "", "Phone number is required"],
    ["phone", "1".repeat(21), "Phone number must be at most 20 characters"],
    ["message", " ", "Message is required"],
    ["message", "x".repeat(1001), "Message must be at most 1000 characters"],
  ])("rejects %s = %j with %j", (field, value, expected) => {
    const submission = parseWithZod(formData({ ...validContact, [field]: value }), { schema: contactSchema });
    expect(submission.status).toBe("error");
    expect(firstErrorMessage(submission.reply().error)).toBe(expected);
  });

  it("accepts values at the limits", () => {
    const atLimits = {
      firstName: "x".repeat(100),
      lastName: "x".repeat(100),
      email: `${"x".repeat(243)}@example.org`,
      phone: "1".repeat(20),
      message: "x".repeat(1000),
    };
    expect(parseWithZod(formData(atLimits), { schema: contactSchema }).status).toBe("success");
  });

  it("reports the first invalid field first, in the form's order", () => {
    const submission = parseWithZod(formData({ ...validContact, lastName: "", message: "", firstName: "" }), {
      schema: contactSchema,
    });
    expect(firstErrorMessage(submission.reply().error)).toBe("First name is required");
  });
});

describe("the services and unsubscribe schemas", () => {
  it("require a full name, a valid email and a message on the services form", () => {
    const submission = parseWithZod(formData({ fullName: " ", email: "x", message: "" }), {
      schema: servicesContactSchema,
    });
    expect(submission.reply().error).toEqual({
      fullName: ["Full name is required"],
      email: ["Invalid email address"],
      message: ["Message is required"],
    });
  });

  it("trims and checks the unsubscribe email", () => {
    const valid = parseWithZod(formData({ email: "  member@example.org " }), { schema: unsubscribeSchema });
    expect(valid.status === "success" && valid.value).toEqual({ email: "member@example.org" });
    const invalid = parseWithZod(formData({ email: "member@" }), { schema: unsubscribeSchema });
    expect(firstErrorMessage(invalid.reply().error)).toBe("Invalid email address");
  });
});
