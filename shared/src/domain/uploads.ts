// Upload URLs for files larger than a tool call carries (docs/security.md#files): an agent asks
// for one (create_upload_url), PUTs the raw bytes to it (at most FILE_MAX_BYTES), then asks
// for the result (finish_upload). The URL's secret is the whole credential for the PUT, kept
// only as its SHA-256, good for one file and UPLOAD_URL_TTL_SECONDS; the bytes are written
// for whoever asked for the URL, with their rights as they are at the PUT.
import { AppError } from "../errors";
import { newSecret, sha256 } from "../ids";
import { actorOf, assertCan, type Principal, readerIn } from "./access";
import { addSeconds, now } from "./clock";
import type { StoreDeps } from "./deps";
import { addFile, fileBytes, fileIdOf, fileView, imageMarkdown, imagePreview, type FileView } from "./files";
import { findWorkspace, resolveWorkspaceForWrite } from "./workspaces";

export interface UploadUrl {
  upload_id: string;
  upload_url: string;
  method: "PUT";
  max_bytes: number;
  expires_at: string;
}

/** An upload URL into the named workspace (or the caller's default), for a caller who may write there. */
export async function createUploadUrl(deps: StoreDeps, principal: Principal, input: { workspace?: string; name?: string }): Promise<UploadUrl> {
  const ws = await resolveWorkspaceForWrite(deps, principal, input.workspace);
  assertCan(principal, ws, "write");
  const secret = newSecret(32);
  const t = now();
  const expiresAt = addSeconds(t, deps.config.UPLOAD_URL_TTL_SECONDS);
  await deps.database.c.uploads.insertOne({
    _id: sha256(secret),
    workspaceId: ws._id,
    actor: actorOf(principal),
    name: (input.name ?? "").slice(0, 200),
    fileId: null,
    expiresAt,
    createdAt: t,
  });
  return {
    upload_id: secret,
    upload_url: `${deps.config.BASE_URL}/files/uploads/${secret}`,
    method: "PUT",
    max_bytes: deps.config.FILE_MAX_BYTES,
    expires_at: expiresAt.toISOString(),
  };
}

/** Who asked for the upload, as they are now: a revoked token or a removed member writes nothing. */
async function principalOf(deps: StoreDeps, actor: { kind: "user" | "agent"; userId: string | null; tokenId?: string }): Promise<Principal | null> {
  if (actor.kind === "agent" && actor.tokenId) {
    const token = await deps.database.c.tokens.findOne({ _id: actor.tokenId });
    if (!token || token.revokedAt || token.expiresAt <= now()) return null;
    return { kind: "token", token };
  }
  if (actor.userId) {
    const user = await deps.database.c.users.findOne({ _id: actor.userId });
    return user ? { kind: "user", user } : null;
  }
  return null;
}

const SECRET = /^[A-Za-z0-9_-]{32,64}$/;

/** The PUT: stores the bytes once for the URL (a second PUT is refused: `conflict`); unknown or expired URLs are `not_found`. */
export async function receiveUpload(deps: StoreDeps, secret: string, data: Buffer): Promise<{ file: FileView }> {
  const upload = SECRET.test(secret) ? await deps.database.c.uploads.findOne({ _id: sha256(secret) }) : null;
  if (!upload || upload.expiresAt <= now()) throw new AppError("not_found", "No such upload URL, or it has expired: ask for a new one with create_upload_url.");
  if (upload.fileId) throw new AppError("conflict", "Something was uploaded to this URL already: ask for a new one for another file.");
  const principal = await principalOf(deps, upload.actor);
  const ws = await findWorkspace(deps, upload.workspaceId);
  if (!principal || !ws) throw new AppError("not_found", "No such upload URL, or it has expired: ask for a new one with create_upload_url.");
  const pushed = await addFile(deps, principal, { workspace: ws.slug, data, name: upload.name, imageOnly: false });
  await deps.database.c.uploads.updateOne({ _id: upload._id, fileId: null }, { $set: { fileId: fileIdOf(ws._id, pushed.file.sha256) } });
  return { file: pushed.file };
}

/** What finish_upload answers: the stored file and the Markdown that shows or links it. */
export async function finishUpload(
  deps: StoreDeps,
  principal: Principal,
  input: { upload_id: string; alt?: string },
): Promise<{ file: FileView; markdown: string; preview: { data: Buffer; mimeType: string } | null }> {
  const upload = SECRET.test(input.upload_id) ? await deps.database.c.uploads.findOne({ _id: sha256(input.upload_id) }) : null;
  const mine = upload && actorOf(principal).tokenId === upload.actor.tokenId && actorOf(principal).userId === upload.actor.userId;
  if (!upload || !mine) throw new AppError("not_found", "No such upload: use the upload_id create_upload_url gave you.");
  if (!upload.fileId) throw new AppError("not_found", "Nothing was uploaded to this URL yet: PUT the file's bytes to upload_url first.");
  const ws = await findWorkspace(deps, upload.workspaceId);
  const file = ws ? await deps.database.c.files.findOne({ _id: upload.fileId }) : null;
  if (!ws || !file) throw new AppError("not_found", "The uploaded file is gone (deleted since).");
  assertCan(principal, ws, "write");
  const view = fileView(deps.config, file, readerIn(principal, ws));
  if (file.type.startsWith("image/") && !input.alt?.trim()) {
    throw new AppError("invalid_request", "An image needs alt text: say in `alt` what it shows, for those who cannot see it.");
  }
  const markdown = file.type.startsWith("image/")
    ? imageMarkdown(input.alt ?? "", view.url)
    : `[${(file.name || `file.${file.ext}`).replace(/([\\[\]])/g, "\\$1")}](${view.url})`;
  // An image goes back to the agent as stored (or a smaller copy), as push_image's does.
  const preview = file.type.startsWith("image/") ? await imagePreview(await fileBytes(deps, file), file.type) : null;
  return { file: view, markdown, preview };
}
