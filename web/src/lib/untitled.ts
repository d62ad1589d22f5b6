// One-click "New page": the page is made at once, titled "Untitled", at a placeholder address
// (untitled-<random>), and opened in the editor with the title selected to type over. Its
// first save with a real title gives it the address made from that title (changeable later
// with "Change address"; the placeholder redirects for a while like any old address).
import { slugify } from "./slug";

export const UNTITLED = "Untitled";
const PLACEHOLDER = /^untitled-[a-z0-9]{8}$/;

export function placeholderSlug(random: () => number = Math.random): string {
  let s = "";
  while (s.length < 8) s += Math.floor(random() * 36).toString(36);
  return `untitled-${s}`;
}

export function isPlaceholderSlug(slug: string): boolean {
  return PLACEHOLDER.test(slug);
}

/**
 * The address a page titled `title` takes on its first save; `attempt` > 0 adds a short
 * suffix for when the plain one is taken. Null: the title gives no address (still
 * "Untitled", or only punctuation), so the placeholder stays.
 */
export function addressFromTitle(title: string, attempt = 0, random: () => number = Math.random): string | null {
  const trimmed = title.trim();
  if (!trimmed || trimmed === UNTITLED) return null;
  const base = slugify(trimmed).slice(0, 50).replace(/-+$/g, "");
  if (!base) return null;
  if (attempt === 0) return base;
  let suffix = "";
  while (suffix.length < 4) suffix += Math.floor(random() * 36).toString(36);
  return `${base}-${suffix}`;
}
