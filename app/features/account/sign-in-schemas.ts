import { emailAddress } from "~/features/messages/schemas";
import { SIGN_IN_CODE_RULES } from "~/features/auth/sign-in-code-rules";
import { z } from "~/lib/zod";

const CODE_FORMAT = `Enter the ${SIGN_IN_CODE_RULES.digits}-digit code from the e-mail`;

/** The member area's first step: the address to mail a sign-in code to. */
export const sendCodeSchema = z.object({ intent: z.literal("send-code"), email: emailAddress });

/** Its second: the code from the e-mail, typed or carried by the e-mail's link. */
export const signInWithCodeSchema = z.object({
  intent: z.literal("sign-in"),
  email: emailAddress,
  code: z
    .string({ error: CODE_FORMAT })
    // People paste codes with spaces in them ("123 456").
    .transform((code) => code.replace(/\s+/g, ""))
    .pipe(z.string().regex(new RegExp(`^\\d{${SIGN_IN_CODE_RULES.digits}}$`), CODE_FORMAT)),
});
