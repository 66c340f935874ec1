import { z } from "zod";

// Zod compiles object parsers with `new Function` when it may; under the Content-Security-Policy
// (no 'unsafe-eval') even its probe for that permission is reported as a violation.
z.config({ jitless: true });
