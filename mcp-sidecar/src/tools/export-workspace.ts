import { exportWorkspace as exportWorkspaceInDomain } from "@atelier/shared/domain/workspace-archive/export-workspace";
import { AppError } from "@atelier/shared/errors";
import { ARCHIVE_TOOL_MAX_BYTES, ExportWorkspaceInputSchema, ExportedWorkspaceViewSchema } from "@atelier/shared/schemas/workspace-archive";
import { defineTool, READ } from "./define";

export const exportWorkspace = defineTool({
  name: "export_workspace",
  input: ExportWorkspaceInputSchema,
  output: ExportedWorkspaceViewSchema,
  // It changes nothing; it is an owner's tool because the whole workspace leaves with it.
  annotations: READ,
  async run(ctx, input) {
    const out = await exportWorkspaceInDomain(ctx, ctx.principal, { workspace: input.workspace, history: input.history === true });
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of out.stream) {
      const b = chunk as Buffer;
      bytes += b.length;
      if (bytes > ARCHIVE_TOOL_MAX_BYTES) {
        out.stream.destroy();
        throw new AppError(
          "limit_exceeded",
          `The export is larger than ${ARCHIVE_TOOL_MAX_BYTES / 1024 / 1024} MB, more than a tool answer carries; download it from the workspace's Settings in the app.`,
        );
      }
      chunks.push(b);
    }
    return { workspace: input.workspace, filename: out.filename, bytes, archive_base64: Buffer.concat(chunks).toString("base64") };
  },
});
