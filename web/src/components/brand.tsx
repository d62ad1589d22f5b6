import { Link } from "wouter";
import "./brand.css";

/** The Atelier mark: a sheet with a folded corner over a second one, drawn in currentColor. */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg className="brand-mark" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect x="3" y="7" width="18" height="22" rx="3" fill="var(--accent-soft)" />
      <path d="M11 3h12l6 6v16a3 3 0 0 1-3 3H11a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3Z" fill="var(--accent)" />
      <path d="M23 3v4a2 2 0 0 0 2 2h4" fill="none" stroke="var(--surface)" strokeWidth="1.6" strokeLinejoin="round" />
      <path d="M13 15h10M13 19h10M13 23h6" stroke="var(--surface)" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

/** The brand as a link home. */
export function Brand() {
  return (
    <Link href="/" className="brand">
      <BrandMark />
      <span>Atelier</span>
    </Link>
  );
}
