// Production entry: serves the build made by `npm run build`.
import { existsSync } from "node:fs";

const serverBuild = "./build/server/index.js";
if (!existsSync(serverBuild)) {
  console.error("No build found: run `npm run build` first (or `npm start`, which builds).");
  process.exit(1);
}

// React and other libraries pick their development or production build from NODE_ENV as they are
// first imported; unset, that would be development, whatever app/env.server.ts defaults to.
process.env.NODE_ENV ??= "production";
try {
  // Importing the build reads the environment, so a bad variable is reported here too.
  const { start } = await import(serverBuild);
  await start();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
