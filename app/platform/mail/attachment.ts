/**
 * A file sent with a mail. An image shown in the HTML carries a `cid` and is referenced as
 * `cid:<cid>`: mail clients that block data URIs show such images.
 */
export interface MailAttachment {
  filename: string;
  contentType: string;
  /** The file's bytes, base64: the outbox stores mails as JSON. */
  content: string;
  cid?: string;
  /**
   * The same in every mail of its kind (the terms): the outbox worker keeps such a file once, in
   * `mail_files` under its SHA-256, rather than in each mail it composes.
   */
  shared?: boolean;
}

/** A file as an outbox row keeps it: its bytes, or the SHA-256 they are kept under in `mail_files`. */
export type StoredAttachment = Omit<MailAttachment, "content" | "shared"> & ({ content: string } | { sha256: string });
