import { listChanges as listChangesOf } from "@atelier/shared/domain/changes/list-changes";
import { ChangesViewSchema, ListChangesInputSchema } from "@atelier/shared/schemas/changes";
import { defineTool, READ } from "./define";

export const listChanges = defineTool({
  name: "list_changes",
  input: ListChangesInputSchema.strict(),
  output: ChangesViewSchema,
  annotations: READ,
  async run(ctx, input) {
    const { ws: _ws, ...view } = await listChangesOf(ctx, ctx.principal, input);
    return view;
  },
});
