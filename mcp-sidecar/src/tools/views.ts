import { PageSummaryViewSchema, PageViewSchema, RevisionViewSchema } from "@atelier/shared/schemas/pages";
import { z } from "zod";

export { PageSummaryViewSchema, PageViewSchema, RevisionViewSchema };

export { WorkspaceViewSchema } from "@atelier/shared/schemas/workspaces";

export { CursorSchema } from "@atelier/shared/schemas/common";
export const LimitSchema = z.number().int().min(1).max(200).describe("How many results at most (default 50).");
