// Files for people (docs/security.md#files): the workspace's files with where they are used,
// an upload URL for the browser to PUT to (with progress), and deleting one.
import { deleteFile, listFiles } from "@atelier/shared/domain/files";
import { createUploadUrl } from "@atelier/shared/domain/uploads";
import { CreateUploadUrlInputSchema, DeleteFileInputSchema, FileListViewSchema, ListFilesInputSchema } from "@atelier/shared/schemas/files";
import { SlugSchema } from "@atelier/shared/schemas/common";
import { z } from "zod";
import { protectedProcedure, router } from "../../trpc";

export const filesRouter = router({
  list: protectedProcedure
    .input(ListFilesInputSchema)
    .output(FileListViewSchema)
    .query(({ ctx, input }) => listFiles(ctx, ctx.principal, input)),

  createUploadUrl: protectedProcedure
    .input(CreateUploadUrlInputSchema.extend({ workspace: SlugSchema }))
    .output(z.object({ upload_id: z.string(), upload_url: z.string(), method: z.literal("PUT"), max_bytes: z.number().int(), expires_at: z.string() }))
    .mutation(({ ctx, input }) => createUploadUrl(ctx, ctx.principal, input)),

  delete: protectedProcedure
    .input(DeleteFileInputSchema)
    .output(z.object({ sha256: z.string(), freed_bytes: z.number().int() }))
    .mutation(({ ctx, input }) => deleteFile(ctx, ctx.principal, input)),
});
