import { Link } from "react-router";
import { siteConfig } from "../../../site.config";

export function BrandLogo({ className }: { className?: string }) {
  return (
    <Link to="/" className={className} aria-label={`${siteConfig.company.name}, home`}>
      <span className="flex items-center gap-2 text-lg font-bold tracking-tight">
        <svg aria-hidden="true" width="28" height="28" viewBox="0 0 32 32" className="text-link">
          <rect width="32" height="32" rx="8" fill="currentColor" />
          <path d="M7 18.5 25 10l-4.5 13-4-4.2-4.2 2.7.9-4.7z" fill="white" />
        </svg>
        {siteConfig.company.name}
      </span>
    </Link>
  );
}
