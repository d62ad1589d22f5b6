// Slugs for workspaces and pages (docs/contract.md#resources-and-identifiers): lower-case letters, digits and inner hyphens,
// at most 64 characters — the server's own rule (shared/src/schemas/common.ts), shown while
// typing, with a slug suggested from a name.
import { SLUG_MAX, SLUG_PATTERN } from "@atelier/shared/schemas/common";

export { SLUG_MAX };

export function isValidSlug(slug: string): boolean {
  return SLUG_PATTERN.test(slug);
}

/** What is wrong with a slug, in words, or null when it is fine. */
export function slugProblem(slug: string): string | null {
  if (slug.length === 0) return "Choose an address.";
  if (slug.length > SLUG_MAX) return `Keep it to ${SLUG_MAX} characters or fewer (this one has ${slug.length}).`;
  if (/[A-Z]/.test(slug)) return "Use lower-case letters only.";
  if (/[^a-z0-9-]/.test(slug)) return "Use only letters a–z, digits and hyphens (no spaces or accents).";
  if (slug.startsWith("-") || slug.endsWith("-")) return "An address can’t start or end with a hyphen.";
  return isValidSlug(slug) ? null : "Use lower-case letters, digits and hyphens.";
}

/** "Q3 Research — Notes!" → "q3-research-notes". Accents are folded; may return "". */
export function slugify(name: string): string {
  const folded = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return folded.slice(0, SLUG_MAX).replace(/-+$/g, "");
}
