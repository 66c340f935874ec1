export interface ReceivedMail {
  /** The addresses of the SMTP envelope (RCPT TO). */
  envelopeTo: string[];
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

export interface SmtpSink {
  port: number;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

export function parseMessage(raw: string, envelopeTo: string[]): ReceivedMail;

export function startSmtpSink(options?: {
  port?: number;
  accept?: (message: ReceivedMail) => (Error & { responseCode?: number }) | undefined;
}): Promise<SmtpSink>;
