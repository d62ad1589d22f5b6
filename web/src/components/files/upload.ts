// Uploading a file from the browser (docs/security.md#files): an upload URL from the app
// (files.createUploadUrl), then a PUT of the raw bytes with progress. The page editor calls
// `useFileUpload` for pasted, dropped or picked files and inserts the Markdown it answers.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTRPC } from "../../trpc";

export interface UploadedFile {
  sha256: string;
  url: string;
  type: string;
  size: number;
  width: number | null;
  height: number | null;
  name: string;
}

/** `![alt](url)` for an image, `[name](url)` for anything else; brackets in the text escaped. */
export function markdownFor(file: UploadedFile, alt: string): string {
  const text = (file.type.startsWith("image/") ? alt : file.name || "file").replace(/[\r\n]+/g, " ").replace(/([\\[\]])/g, "\\$1");
  return file.type.startsWith("image/") ? `![${text}](${file.url})` : `[${text}](${file.url})`;
}

/** PUTs `file` to `url`, reporting progress from 0 to 1; the answer's `file`, or an Error with the server's sentence. */
export function putFile(url: string, file: Blob, onProgress: (fraction: number) => void): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", new URL(url).pathname);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: { file?: UploadedFile; error_description?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // Not JSON: a proxy's page.
      }
      if (xhr.status === 201 && body.file) resolve(body.file);
      else if (xhr.status === 413) reject(new Error(body.error_description ?? "This file is too large."));
      else reject(new Error(body.error_description ?? `The upload failed (${xhr.status}).`));
    };
    xhr.onerror = () => reject(new Error("The upload failed: no answer from the server. Check your connection and try again."));
    xhr.send(file);
  });
}

export type UploadState =
  { status: "idle" } | { status: "uploading"; name: string; progress: number } | { status: "done"; file: UploadedFile } | { status: "error"; message: string };

/** Uploads files into `workspace`: `upload(file)` answers the stored file; `state` follows the one under way. */
export function useFileUpload(workspace: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const createUrl = useMutation(trpc.files.createUploadUrl.mutationOptions());
  const [state, setState] = useState<UploadState>({ status: "idle" });
  const upload = useCallback(
    async (file: File): Promise<UploadedFile | null> => {
      setState({ status: "uploading", name: file.name, progress: 0 });
      try {
        const target = await createUrl.mutateAsync({ workspace, name: file.name.slice(0, 200) });
        if (file.size > target.max_bytes)
          throw new Error(`This file is ${Math.ceil(file.size / 1048576)} MB; at most ${Math.floor(target.max_bytes / 1048576)} MB can be uploaded.`);
        const stored = await putFile(target.upload_url, file, (progress) => setState({ status: "uploading", name: file.name, progress }));
        setState({ status: "done", file: stored });
        await queryClient.invalidateQueries({ queryKey: trpc.files.list.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.workspaces.get.queryKey() });
        return stored;
      } catch (err) {
        setState({ status: "error", message: err instanceof Error ? err.message : "The upload failed." });
        return null;
      }
    },
    [createUrl, queryClient, trpc, workspace],
  );
  return { upload, state, reset: () => setState({ status: "idle" }) };
}
