import { crc32, deflateSync } from "node:zlib";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, tail]);
}

/**
 * A black-and-white image as a PNG of one bit per pixel. A QR code needs no more: pngjs (through
 * qrcode) wrote 32 bits a pixel and tried five filters on every row, 10–17 ms of a payment's CPU.
 * `sameAsRowAbove` spares asking `isDark` for each pixel of a row known to repeat the one above
 * (a scaled-up image's rows come in runs).
 */
export function blackAndWhitePng(
  width: number,
  height: number,
  isDark: (x: number, y: number) => boolean,
  sameAsRowAbove: (y: number) => boolean = () => false,
): Buffer {
  // Each row: filter type 0 (none), then the pixels, 1 for white, most significant bit first.
  const rowBytes = 1 + Math.ceil(width / 8);
  const rows = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y++) {
    if (y > 0 && sameAsRowAbove(y)) {
      rows.copy(rows, y * rowBytes, (y - 1) * rowBytes, y * rowBytes);
      continue;
    }
    for (let x = 0; x < width; x++) {
      if (!isDark(x, y)) rows[y * rowBytes + 1 + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale; compression, filter method and interlace stay 0
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
