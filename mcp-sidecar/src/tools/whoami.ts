import { whoami as whoamiInDomain } from "@atelier/shared/domain/tokens";
import { WhoamiViewSchema } from "@atelier/shared/schemas/tokens";
import { z } from "zod";
import { defineTool, READ } from "./define";

export const whoami = defineTool({
  name: "whoami",
  title: "Who am I",
  description: "Tells who this connection acts as: the token (its label, scopes, expiry, workspace restriction) and the person it acts for, or that no token was sent (public reads only).",
  access: "read",
  input: z.object({}).strict(),
  output: WhoamiViewSchema,
  annotations: READ,
  run(ctx) {
    return whoamiInDomain(ctx, ctx.principal);
  },
});
