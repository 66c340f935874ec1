import { Link } from "react-router";

export function NotFoundMessage() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <p className="text-6xl font-bold text-link" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-2xl font-semibold">Oops! Page not found</h1>
      <Link to="/" className="mt-8 inline-block font-medium text-link underline">
        Return to Home
      </Link>
    </section>
  );
}
