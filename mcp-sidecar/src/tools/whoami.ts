import { whoami as whoamiInDomain } from "@atelier/shared/domain/tokens";
import { WhoamiViewSchema } from "@atelier/shared/schemas/tokens";
import { z } from "zod";
import { defineTool, READ } from "./define";

export const whoami = defineTool({
  name: "whoami",
  input: z.object({}).strict(),
  output: WhoamiViewSchema,
  annotations: READ,
  run(ctx) {
    return whoamiInDomain(ctx, ctx.principal);
  },
});
