export interface ReceivedMail {
  /** The addresses of the SMTP envelope (RCPT TO). */
  envelopeTo: string[];
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Every part with a file name or a Content-ID, its content in base64. */
  attachments: ReceivedAttachment[];
  receivedAt: string;
}

export interface ReceivedAttachment {
  filename?: string;
  contentType: string;
  cid?: string;
  disposition?: string;
  content: string;
}

export interface SmtpSink {
  port: number;
  messages: ReceivedMail[];
  /** How many messages it took. */
  readonly received: number;
  close(): Promise<void>;
}

export function parseMessage(raw: string, envelopeTo: string[]): ReceivedMail;

export function startSmtpSink(options?: {
  port?: number;
  accept?: (message: ReceivedMail) => (Error & { responseCode?: number }) | undefined;
  /** False: count the messages without reading or keeping them. */
  keep?: boolean;
}): Promise<SmtpSink>;
