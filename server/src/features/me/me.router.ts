import { userView } from "@atelier/shared/domain/users";
import { UserViewSchema } from "@atelier/shared/schemas/common";
import { protectedProcedure, router } from "../../trpc";

export const meRouter = router({
  get: protectedProcedure.output(UserViewSchema).query(({ ctx }) => userView(ctx, ctx.principal.user)),
});
