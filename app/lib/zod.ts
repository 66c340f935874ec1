import { z } from "zod";

// Zod compiles object parsers with `new Function` when it may; under the Content-Security-Policy
// (no 'unsafe-eval') even its probe for that permission is reported as a violation. Every schema
// imports `z` from here, so the setting comes with the first schema a page loads, and a page
// without one (the root layout included) loads no zod at all.
z.config({ jitless: true });

export { z };
