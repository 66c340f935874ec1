import { Link } from "react-router";

export function OrderNotFound() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">Order not found</h1>
      <p className="mt-4 text-muted-foreground">
        We could not find this order. Check the link you followed, or book your Fast Track again.
      </p>
      <Link to="/fast-track-form" className="mt-8 inline-block font-medium text-link underline">
        Book Your Fast Track
      </Link>
    </section>
  );
}
