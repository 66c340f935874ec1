import pino from "pino";
import { env } from "./env.server";

export const logger = pino({
  level: env().LOG_LEVEL,
  redact: {
    paths: ["password", "*.password", "cardNumber", "*.cardNumber", "cvv", "*.cvv", "req.headers.cookie"],
    censor: "[redacted]",
  },
});
