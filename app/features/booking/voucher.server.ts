import { createHmac, timingSafeEqual } from "node:crypto";
import QRCode from "qrcode";
import { data } from "react-router";
import type { Database } from "~/db/client.server";
import { deriveKey } from "~/lib/secrets.server";
import { formatFlightDate } from "./flight-date";
import { QR_LEVEL, qrSymbol } from "./qr-symbol.server";
import { blackAndWhitePng } from "./voucher-png.server";
import { findOrder } from "./orders.server";
import { findOrderIdByShortCode } from "./voucher-short-code.server";
import { describePassengers } from "./passengers";
import type { OrderDetails } from "./order-details";
import type { Voucher } from "./ui/voucher-view";

/**
 * A voucher code names a paid order and proves the site issued it: "v1.<order id, hex>.<HMAC>".
 * Only the server holds the key, so a changed character anywhere makes the check fail.
 */
const VERSION = "v1";
const CODE_PATTERN = /^v1\.([0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;

function sign(payload: string): string {
  return createHmac("sha256", deriveKey("vouchers")).update(`${VERSION}.${payload}`).digest("base64url");
}

export function voucherCode(orderId: string): string {
  const payload = orderId.replaceAll("-", "").toLowerCase();
  return `${VERSION}.${payload}.${sign(payload)}`;
}

/** The order id a genuine voucher code names, or null for a malformed or tampered one. */
export function verifyVoucherCode(code: string): string | null {
  const match = CODE_PATTERN.exec(code);
  if (!match) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  if (!timingSafeEqual(Buffer.from(sign(payload)), Buffer.from(signature))) return null;
  return payload.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
}

/** What the QR code holds: the check URL an airport desk opens by scanning it. */
export function voucherCheckUrl(origin: string, code: string): string {
  return new URL(`/api/vouchers/${code}`, origin).toString();
}

const QR_OPTIONS = { errorCorrectionLevel: QR_LEVEL, margin: 2 } as const;

export function voucherQrSvg(text: string): Promise<string> {
  const { input, maskPattern } = qrSymbol(text);
  return QRCode.toString(input, { ...QR_OPTIONS, maskPattern, type: "svg" });
}

const QR_PNG_WIDTH = 240;

/**
 * The QR code as PNG bytes, base64: e-mail clients do not show inline SVG. Drawn as qrcode draws
 * it (modules scaled to the width, quiet zone of `margin` modules), one bit per pixel.
 */
export function voucherQrPng(text: string): string {
  const { modules } = qrSymbol(text);
  const scale = QR_PNG_WIDTH / (modules.size + QR_OPTIONS.margin * 2);
  const side = Math.floor((modules.size + QR_OPTIONS.margin * 2) * scale);
  const quietZone = QR_OPTIONS.margin * scale;
  // The module each pixel column (and row) falls in, -1 in the quiet zone: worked out once, not per pixel.
  const moduleAt = Int16Array.from({ length: side }, (_, pixel) =>
    pixel >= quietZone && pixel < side - quietZone ? Math.floor((pixel - quietZone) / scale) : -1,
  );
  return blackAndWhitePng(
    side,
    side,
    (x, y) => {
      const row = moduleAt[y]!;
      const column = moduleAt[x]!;
      return row >= 0 && column >= 0 && modules.data[row * modules.size + column] !== 0;
    },
    (y) => moduleAt[y] === moduleAt[y - 1],
  ).toString("base64");
}

/**
 * The answer of GET /api/vouchers/{code}, for the signed code in the QR or the short code read out
 * at the lane: whether the voucher is genuine and good for a fast
 * track now (its order is paid), and for which order, date and passengers.
 */
export async function voucherCheckResponse(db: Database, code: string) {
  const noStore = { "Cache-Control": "no-store" };
  const orderId = code.startsWith(`${VERSION}.`) ? verifyVoucherCode(code) : await findOrderIdByShortCode(db, code);
  if (!orderId) {
    return data({ valid: false, reason: "This voucher code is not genuine." }, { status: 404, headers: noStore });
  }
  const order = await findOrder(db, orderId);
  if (!order) {
    return data({ valid: false, reason: "This voucher's order no longer exists." }, { status: 404, headers: noStore });
  }
  const details = {
    orderNumber: order.orderNumber,
    status: order.status,
    name: order.customerName,
    airport: order.airport,
    flightDate: order.flightDate,
    flightDateText: order.flightDate ? formatFlightDate(order.flightDate) : null,
    passengers: describePassengers(order),
  };
  if (order.status !== "paid") {
    return data(
      { valid: false, reason: `This voucher's order is ${order.status}, not paid.`, ...details },
      { headers: noStore },
    );
  }
  return data({ valid: true, ...details }, { headers: noStore });
}

/** The voucher of a paid order as its confirmation page and the member area show it: its codes and QR code. */
export async function voucherFor(
  origin: string,
  order: Pick<OrderDetails, "id" | "voucherShortCode">,
): Promise<Voucher> {
  const code = voucherCode(order.id);
  return { code, shortCode: order.voucherShortCode, qrSvg: await voucherQrSvg(voucherCheckUrl(origin, code)) };
}
