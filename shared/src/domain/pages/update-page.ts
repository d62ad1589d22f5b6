import type { PartDoc } from "../../db/index";
import { newId } from "../../ids";
import type { PageView, UpdatePageInput } from "../../schemas/pages";
import type { Principal } from "../access";
import type { WriteDeps } from "../versioned-write";
import { changePage, tableParts } from "./page-versions";

/** Replaces the body of the page's first part of `kind` (or its first text part). */
function applyBody(parts: PartDoc[], kind: "markdown" | "html", body: string): PartDoc[] {
  const sorted = [...parts].sort((a, b) => a.position - b.position);
  const target = sorted.find((p) => p.kind === kind) ?? sorted.find((p) => p.kind !== "table_view");
  if (!target) return [...sorted, { id: newId("prt"), kind, body, position: sorted.length }];
  return sorted.map((p) => (p.id === target.id ? { ...p, kind, body } : p));
}

/** Changes a page's title, summary, body or tables (see changePage for versions). */
export async function updatePage(deps: WriteDeps, principal: Principal, input: UpdatePageInput): Promise<PageView> {
  return changePage(deps, principal, input.slug, input.expected_version, "page.updated", (page) => {
    let parts = page.parts;
    if (input.body_markdown !== undefined) parts = applyBody(parts, "markdown", input.body_markdown);
    if (input.body_html !== undefined) parts = applyBody(parts, "html", input.body_html);
    if (input.tables !== undefined) {
      const kept = parts.filter((p) => p.kind !== "table_view");
      parts = [...kept, ...tableParts(input.tables, kept.length)];
    }
    return { title: input.title ?? page.title, summary: input.summary ?? page.summary, parts };
  });
}
