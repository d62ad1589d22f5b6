// The one place plain HTTP routes turn errors into answers: {error, error_description}
// with the status from the shared table; anything unknown is a logged 500 without detail.
import { AppError, translateDbError } from "@atelier/shared/errors";
import type { ErrorRequestHandler, RequestHandler } from "express";

export const notFound: RequestHandler = (_req, res) => {
  res.status(404).json({ error: "not_found", error_description: "Nothing here." });
};

export const errorHandler: ErrorRequestHandler = (rawErr: unknown, req, res, _next) => {
  let err = translateDbError(rawErr);
  const status = (err as { status?: unknown }).status;
  if (!(err instanceof AppError) && typeof status === "number" && status >= 400 && status < 500) {
    if (typeof (err as { type?: unknown }).type === "string") {
      // body-parser's errors (malformed JSON, too large, bad charset) name their `type`.
      // SPEC §7: an invalid body is a 400, whatever is wrong with it.
      err = new AppError(
        "invalid_request",
        status === 413 ? "The request body is too large." : "The request body could not be read as JSON.",
      );
    } else if (status === 404) {
      // A file the SPA's static routes do not have, e.g. an old asset after a deploy.
      err = new AppError("not_found", "Nothing here.");
    } else {
      // The static routes' other refusals (412 precondition failed, 416 range not
      // satisfiable) keep their status and headers.
      const headers = (err as { headers?: unknown }).headers;
      if (headers && typeof headers === "object") res.set(headers as Record<string, string>);
      res.status(status).json({ error: "invalid_request", error_description: "The request cannot be served as asked." });
      return;
    }
  }
  if (err instanceof AppError) {
    if (err.retryAfter !== undefined) res.set("Retry-After", String(err.retryAfter));
    res.status(err.rule.http).json(err.toHttpBody());
    return;
  }
  req.log.error({ err }, "unhandled error");
  if (res.headersSent) return;
  res.status(500).json({ error: "internal_error", error_description: "Something went wrong on our side." });
};
