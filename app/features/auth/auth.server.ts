import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { emailOTP } from "better-auth/plugins/email-otp";
import { database, type DatabaseHandle } from "~/db/client.server";
import { account, rateLimit, session, user, verification } from "~/db/schema";
import { env } from "~/env.server";
import { CLIENT_ADDRESS_HEADER } from "~/lib/client-address.server";
import { CONTROL_CHARACTER, CONTROL_CHARACTER_REFUSED_FR } from "~/lib/form-data.server";
import { secureCookies } from "~/lib/cookies.server";
import { siteOrigin } from "~/lib/site-origin.server";
import { deriveKey } from "~/lib/secrets.server";
import { logger } from "~/logger.server";
import { enqueueMail } from "~/platform/mail/outbox.server";
import { siteConfig } from "../../../site.config";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./schemas";
import { addressConfirmationMail, VERIFICATION_LINK_HOURS } from "./verification-mail";
import { SIGN_IN_CODE_RULES } from "./sign-in-code-rules";
import { signInCodeMail } from "./sign-in-code-mail";

/** Sign-in and sign-up attempts allowed per client address and minute; every other auth call gets 100. */
export const AUTH_RATE_LIMITS = {
  "/sign-in/email": { window: 60, max: 5 },
  "/sign-up/email": { window: 60, max: 3 },
} as const;

function createAuth(handle: DatabaseHandle) {
  return betterAuth({
    appName: siteConfig.company.name,
    // Without SITE_URL, better-auth takes the origin of each request.
    baseURL: env().SITE_URL,
    secret: deriveKey("auth").toString("base64url"),
    database: drizzleAdapter(handle.db, {
      provider: "pg",
      schema: { user, session, account, verification, rateLimit },
      transaction: true,
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      // People sign in after signing up. This also makes a sign-up with a registered e-mail answer
      // exactly like a new one (nothing is created), so the form never reveals who has an account.
      autoSignIn: false,
    },
    // A new account's address is confirmed by a link e-mailed at sign-up; signing in does not wait
    // for it, but the admin role does (`grantAdmin`): an address someone signed up with before its
    // owner never becomes an admin's.
    emailVerification: {
      sendOnSignUp: true,
      expiresIn: VERIFICATION_LINK_HOURS * 3600,
      sendVerificationEmail: async ({ user: created, url }) => {
        // better-auth builds the link on the request's origin when SITE_URL is unset: the site's instead.
        const link = new URL(url);
        const atSite = new URL(`${link.pathname}${link.search}`, siteOrigin()).href;
        await enqueueMail(handle.db, { to: created.email, ...(await addressConfirmationMail(atSite)) });
      },
    },
    user: { additionalFields: { fullName: { type: "string", required: false } } },
    plugins: [
      // The member area's sign-in (ADR 027): a code e-mailed to the address, which any address can
      // ask for, so that the answer never says whom the site knows. The first sign-in creates the
      // account, its address proven by the code.
      emailOTP({
        otpLength: SIGN_IN_CODE_RULES.digits,
        expiresIn: SIGN_IN_CODE_RULES.minutes * 60,
        allowedAttempts: SIGN_IN_CODE_RULES.triesPerCode,
        storeOTP: "hashed",
        rateLimit: { window: 60, max: SIGN_IN_CODE_RULES.perClientAddressPerMinute },
        sendVerificationOTP: async ({ email, otp, type }, context) => {
          if (type !== "sign-in") return;
          if (!context?.request) throw new Error("sign-in codes are asked for through the site's forms only");
          const origin = siteOrigin();
          await enqueueMail(handle.db, { to: email, ...(await signInCodeMail({ email, code: otp, origin })) });
        },
      }),
    ],
    rateLimit: {
      enabled: true,
      // In the database, so that every instance sharing it counts the same attempts.
      storage: "database",
      window: 60,
      max: 100,
      customRules: AUTH_RATE_LIMITS,
    },
    advanced: {
      useSecureCookies: secureCookies(),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    logger: {
      log: (level, message, ...args) => {
        const err = args.find((arg) => arg instanceof Error);
        logger[level](err ? { err } : {}, `auth: ${message}`);
      },
    },
    telemetry: { enabled: false },
    hooks: {
      // The JSON API refuses what the /auth form refuses (readFormData): PostgreSQL cannot store NUL,
      // and a 500 for a new address against a 200 for a known one would tell who has an account.
      before: createAuthMiddleware(async (context) => {
        const texts = Object.values((context.body ?? {}) as Record<string, unknown>);
        if (texts.some((value) => typeof value === "string" && CONTROL_CHARACTER.test(value))) {
          throw new APIError("BAD_REQUEST", { message: CONTROL_CHARACTER_REFUSED_FR });
        }
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const instances = new WeakMap<DatabaseHandle, Auth>();

/**
 * better-auth on the process's database. Created on first use, not at import time: the build
 * imports this module, and tests install a database of their own.
 */
export function getAuth(): Auth {
  const handle = database();
  let auth = instances.get(handle);
  if (!auth) {
    auth = createAuth(handle);
    instances.set(handle, auth);
  }
  return auth;
}

/**
 * Calls one of better-auth's endpoints the way a browser would, with the headers of the person's
 * request (cookies, origin, client address), so its origin check and rate limits apply to the
 * server-side forms exactly as to its JSON API. (`auth.api.*` skips the rate limiter.)
 */
export function callAuthEndpoint(request: Request, path: string, body: Record<string, unknown> = {}) {
  const headers = new Headers(request.headers);
  headers.set("Content-Type", "application/json");
  headers.delete("Content-Length");
  const url = new URL(`/api/auth${path}`, request.url);
  return getAuth().handler(new Request(url, { method: "POST", headers, body: JSON.stringify(body) }));
}
