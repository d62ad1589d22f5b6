// One tool a file. Each declares its input and output schemas (zod) and its annotations; its
// title, description and the access it needs come from the one catalog of what agents are
// told (shared/src/domain/agent-catalog.ts). The JSON schemas are computed once per process.
import type { Principal } from "@atelier/shared/domain/access";
import type { Deps } from "@atelier/shared/domain/deps";
import { TOOL_CATALOG, type ToolAccess, type ToolName } from "@atelier/shared/domain/agent-catalog";
import { z } from "zod";

export type { ToolAccess };

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
  name: ToolName;
  title: string;
  description: string;
  access: ToolAccess;
  input: I;
  output: O;
  annotations: Annotations;
  run(ctx: ToolContext, input: z.output<I>): Promise<z.input<O> | WithContent<z.input<O>>>;
}

/** An image a tool result carries beside its JSON text (MCP `image` content: base64 and its type). */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/** A tool's output together with content a client may show (an image it stored); the output alone is the structured result. */
export class WithContent<T> {
  constructor(
    readonly output: T,
    readonly content: ImageContent[],
  ) {}
}

/** A tool: its code and schemas here, its words and access from the catalog entry of its name. */
export function defineTool<I extends z.ZodType, O extends z.ZodObject>(def: Omit<ToolDef<I, O>, "title" | "description" | "access">): ToolDef<I, O> {
  const { title, description, access } = TOOL_CATALOG[def.name];
  return { ...def, title, description, access };
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
