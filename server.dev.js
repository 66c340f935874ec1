// Development entry: Vite compiles on the fly and reloads changed modules.
import { createServer } from "vite";

const vite = await createServer({ server: { middlewareMode: true } });
const { start } = await vite.ssrLoadModule("./server/app.ts");
await start({ devMiddleware: vite.middlewares });
