ALTER TABLE "orders" ADD COLUMN "voucher_short_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_voucherShortCode_unique" UNIQUE("voucher_short_code");