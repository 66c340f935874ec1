// The E2E mail sink: a real SMTP server on loopback that the app sends to, and a small JSON endpoint
// tests read the received mail from (GET /messages?to=address, DELETE /messages to forget it all).
import { createServer } from "node:http";
import { startSmtpSink } from "../smtp-sink.mjs";

const smtpPort = Number(process.env.MAIL_SINK_SMTP_PORT);
const httpPort = Number(process.env.MAIL_SINK_HTTP_PORT);
const sink = await startSmtpSink({ port: smtpPort });

function sendJson(response, status, body) {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
}

const api = createServer((request, response) => {
  const url = new URL(request.url ?? "/", `http://${request.headers.host}`);
  if (url.pathname === "/health") return sendJson(response, 200, { status: "ok" });
  if (url.pathname !== "/messages") return sendJson(response, 404, { error: "not found" });
  if (request.method === "DELETE") {
    sink.messages.length = 0;
    return sendJson(response, 200, { deleted: true });
  }
  const to = url.searchParams.get("to")?.toLowerCase();
  const messages = to
    ? sink.messages.filter((message) => message.envelopeTo.some((address) => address.toLowerCase() === to))
    : sink.messages;
  return sendJson(response, 200, messages);
});
api.listen(httpPort, "127.0.0.1");

const stop = async () => {
  api.close();
  await sink.close();
  process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
