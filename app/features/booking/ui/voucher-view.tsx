export interface Voucher {
  /** The signed code the QR carries. */
  code: string;
  /** The code to read out at the lane, as the e-mail gives it; null for orders paid before there were short codes. */
  shortCode: string | null;
  /** The QR code as an SVG document, rendered on the server. */
  qrSvg: string;
}

/** A voucher's QR code, and under it the code to read out (the long signed one for older orders). */
export function VoucherView({ voucher, label, size = "w-56" }: { voucher: Voucher; label: string; size?: string }) {
  return (
    <div className="grid justify-items-center gap-3">
      <div
        role="img"
        aria-label={label}
        data-testid="voucher-qr"
        className={`${size} max-w-full [&>svg]:h-auto [&>svg]:w-full`}
        dangerouslySetInnerHTML={{ __html: voucher.qrSvg }}
      />
      <p className="text-xs text-muted-foreground">Voucher code</p>
      {voucher.shortCode ? (
        <p data-testid="voucher-short-code" className="font-mono text-lg font-semibold tracking-wider">
          {voucher.shortCode}
        </p>
      ) : (
        <p data-testid="voucher-code" className="text-center font-mono text-xs break-all">
          {voucher.code}
        </p>
      )}
    </div>
  );
}
