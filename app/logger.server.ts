import pino from "pino";
import { env } from "./env.server";
import { currentRequestId } from "~/platform/observability/request-id.server";
import { errorForLog } from "./log-errors";

export const logger = pino({
  level: env().LOG_LEVEL,
  redact: {
    paths: ["password", "*.password", "cardNumber", "*.cardNumber", "cvv", "*.cvv", "req.headers.cookie"],
    censor: "[redacted]",
  },
  serializers: { err: errorForLog },
  // Every line logged while a request is handled names it (ADR 024), as a child logger per request
  // would, without each call site having to find that child. A fresh object each time: pino merges
  // the line's fields into it.
  mixin() {
    const requestId = currentRequestId();
    return requestId ? { requestId } : {};
  },
});
