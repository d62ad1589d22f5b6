// POST /agent/auth and POST /agent/auth/claim (docs/contract.md#registration-and-claim).
import { claim, registerAnonymous, registerVerifiedEmail } from "@atelier/shared/domain/registrations";
import { AppError } from "@atelier/shared/errors";
import { EmailSchema, LabelSchema } from "@atelier/shared/schemas/common";
import { parseInput } from "@atelier/shared/schemas/parse";
import express, { Router, type Request } from "express";
import { z } from "zod";
import type { Deps } from "../../context";

const RegisterSchema = z.object({
  type: z.string().max(64),
  requested_credential_type: z.string().max(64),
  agent_label: LabelSchema(100).optional(),
  assertion: z.string().max(16_384).optional(),
});

const ClaimSchema = z
  .object({
    claim_token: z.string().min(1, "must not be empty").max(200),
    email: EmailSchema.optional(),
    otp: z.string().max(32).optional(),
  })
  .refine((v) => (v.email === undefined) !== (v.otp === undefined), {
    message: "send email to start a claim or otp to complete it, not both and not neither",
    path: ["email"],
  });

const agentJson = express.json({ limit: "32kb", strict: true });

function body(req: Request): unknown {
  if (!req.is("application/json")) throw new AppError("invalid_request", "Send a JSON body with Content-Type: application/json.");
  return req.body;
}

export function agentAuthRoutes(deps: Deps): Router {
  const r = Router();

  r.post("/agent/auth", agentJson, async (req, res) => {
    const input = parseInput(RegisterSchema, body(req));
    if (input.type !== "anonymous" && input.type !== "verified_email") {
      throw new AppError(
        "unsupported_registration_type",
        `Registration type "${input.type}" is not supported; use "anonymous"${deps.config.VERIFIED_EMAIL_REGISTRATION_ENABLED ? ' or "verified_email"' : ""}.`,
      );
    }
    if (input.type === "verified_email" && !deps.config.VERIFIED_EMAIL_REGISTRATION_ENABLED) {
      throw new AppError("unsupported_registration_type", "Verified-email registration is a preview that is switched off on this server.");
    }
    if (input.requested_credential_type !== "mcp_write_token") {
      throw new AppError("invalid_request", 'requested_credential_type: must be "mcp_write_token"');
    }
    res.set("Cache-Control", "no-store");
    if (input.type === "anonymous") {
      res.status(201).json(await registerAnonymous(deps, { agentLabel: input.agent_label, requesterIp: req.ip ?? "unknown" }));
      return;
    }
    if (!input.assertion) throw new AppError("invalid_request", "assertion: is required for verified_email registration");
    res.status(201).json(await registerVerifiedEmail(deps, { assertion: input.assertion, agentLabel: input.agent_label }));
  });

  r.post("/agent/auth/claim", agentJson, async (req, res) => {
    const input = parseInput(ClaimSchema, body(req));
    const out = await claim(deps, { claimToken: input.claim_token, email: input.email, otp: input.otp });
    res.set("Cache-Control", "no-store").status(out.status).json(out.body);
  });

  return r;
}
