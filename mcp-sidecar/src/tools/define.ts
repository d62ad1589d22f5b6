// One tool a file. Each declares its input and output schemas (zod), its annotations and
// the access it needs; the JSON schemas are computed once per process, not per request.
import type { Principal } from "@atelier/shared/domain/access";
import type { Deps } from "@atelier/shared/domain/deps";
import { z } from "zod";

/** read: mcp:read (or no token, for public workspaces); write: mcp:write; admin: mcp:write, never an unclaimed sandbox token. */
export type ToolAccess = "read" | "write" | "admin";

/** The process's domain deps and who is asking. */
export interface ToolContext extends Deps {
  principal: Principal;
}

export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDef<I extends z.ZodType = z.ZodType, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  access: ToolAccess;
  input: I;
  output: O;
  annotations: Annotations;
  run(ctx: ToolContext, input: z.output<I>): Promise<z.input<O>>;
}

export function defineTool<I extends z.ZodType, O extends z.ZodObject>(def: ToolDef<I, O>): ToolDef<I, O> {
  return def;
}

export const READ: Annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The `tools/list` entry of a tool, JSON schemas included. */
export function listing(tool: ToolDef) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, { io: "input", target: "draft-7" }) as { type: "object"; [k: string]: unknown },
    outputSchema: z.toJSONSchema(tool.output, { io: "output", target: "draft-7" }) as { type: "object"; [k: string]: unknown },
    annotations: { title: tool.title, ...tool.annotations },
  };
}
