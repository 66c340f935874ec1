import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("auth", "routes/auth.tsx"),
  route("admin", "routes/admin.tsx"),
  route("pre-checkout", "routes/pre-checkout.tsx"),
  route("services", "routes/services.tsx"),
  route("fast-track", "routes/fast-track.tsx"),
  route("fast-track-form", "routes/fast-track-form.tsx"),
  route("fast-track-payment/:orderId", "routes/fast-track-payment.tsx"),
  route("contact", "routes/contact.tsx"),
  route("unsubscribe", "routes/unsubscribe.tsx"),
  route("terms", "routes/terms.tsx"),
  route("subscription-terms", "routes/subscription-terms.tsx"),
  route("privacy", "routes/privacy.tsx"),
  route("faq", "routes/faq.tsx"),
  route("config-generator", "routes/config-generator.tsx"),

  route("currency", "routes/currency.ts"),
  route("api/regenerate-wordings", "routes/api.regenerate-wordings.ts"),
  route("healthz", "routes/healthz.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
