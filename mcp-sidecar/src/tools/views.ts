import { PageSummaryViewSchema, PageViewSchema, RevisionViewSchema } from "@atelier/shared/schemas/pages";

export { PageSummaryViewSchema, PageViewSchema, RevisionViewSchema };

export { WorkspaceViewSchema } from "@atelier/shared/schemas/workspaces";

export { CursorSchema } from "@atelier/shared/schemas/common";
