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
}
