// A real SMTP server on loopback that keeps what it receives, decoded: for integration and E2E tests.
import { SMTPServer } from "smtp-server";

/** Unfolds and reads the header block of a MIME entity into lower-cased names. */
function parseHeaders(block) {
  const headers = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const separator = line.indexOf(":");
    if (separator > 0) headers[line.slice(0, separator).trim().toLowerCase()] = line.slice(separator + 1).trim();
  }
  return headers;
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) in a header value. */
function decodeWords(value = "") {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, _charset, encoding, text) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

function decodeQuotedPrintable(text) {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-Fa-f]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function decodeBytes(body, encoding = "7bit") {
  switch (encoding.toLowerCase()) {
    case "quoted-printable":
      return Buffer.from(decodeQuotedPrintable(body), "utf8");
    case "base64":
      return Buffer.from(body, "base64");
    default:
      return Buffer.from(body, "utf8");
  }
}

function decodeBody(body, encoding = "7bit") {
  switch (encoding.toLowerCase()) {
    case "quoted-printable":
      return decodeQuotedPrintable(body);
    case "base64":
      return Buffer.from(body, "base64").toString("utf8");
    default:
      return body;
  }
}

/**
 * The text/plain and text/html bodies of a MIME entity, walking multipart containers, and its
 * attachments (a part with a file name or a Content-ID), content in base64.
 */
function collectBodies(raw, found = { attachments: [] }) {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = parseHeaders(split === -1 ? raw : raw.slice(0, split));
  const body = split === -1 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const type = headers["content-type"] ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith("multipart/") && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith("--")) break;
      collectBodies(part.replace(/^\r?\n/, ""), found);
    }
  } else if (/name=/i.test(type) || headers["content-disposition"]?.includes("attachment") || headers["content-id"]) {
    const filename = /name="?([^";]+)"?/i.exec(headers["content-disposition"] ?? type)?.[1];
    found.attachments.push({
      filename: filename ? decodeWords(filename) : undefined,
      contentType: type.split(";")[0].trim().toLowerCase(),
      cid: headers["content-id"]?.replace(/^<|>$/g, ""),
      disposition: headers["content-disposition"]?.split(";")[0].trim().toLowerCase(),
      content: decodeBytes(body.replace(/\r?\n$/, ""), headers["content-transfer-encoding"]).toString("base64"),
    });
  } else {
    const key = type.toLowerCase().startsWith("text/html") ? "html" : "text";
    found[key] ??= decodeBody(body.replace(/\r?\n$/, ""), headers["content-transfer-encoding"]).replace(/\r\n/g, "\n");
  }
  return found;
}

/** Reads one raw message into the fields tests look at. */
export function parseMessage(raw, envelopeTo) {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = parseHeaders(raw.slice(0, split));
  const { text = "", html = "", attachments } = collectBodies(raw);
  return {
    envelopeTo,
    from: decodeWords(headers.from),
    to: decodeWords(headers.to),
    subject: decodeWords(headers.subject),
    text,
    html,
    attachments,
    receivedAt: new Date().toISOString(),
  };
}

/**
 * Starts the sink on 127.0.0.1 (`port` 0 picks a free one). `accept(message)` may return an Error
 * with a `responseCode` to refuse that message, as a real server does when it is in trouble. With
 * `keep: false` it only counts what it receives, reading no message: a relay for a benchmark.
 */
export async function startSmtpSink({ port = 0, accept = () => undefined, keep = true } = {}) {
  const messages = [];
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      if (!keep) {
        stream.on("end", () => {
          received++;
          callback();
        });
        stream.resume();
        return;
      }
      const chunks = [];
      stream.on("data", (chunk) => chunks.push(chunk));
      stream.on("end", () => {
        const message = parseMessage(
          Buffer.concat(chunks).toString("utf8"),
          session.envelope.rcptTo.map((recipient) => recipient.address),
        );
        const refusal = accept(message);
        if (refusal) return callback(refusal);
        messages.push(message);
        received++;
        callback();
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    port: server.server.address().port,
    messages,
    get received() {
      return received;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
