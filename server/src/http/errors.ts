// Plain HTTP routes answer errors through the one shared mapping (@atelier/shared/http-errors).
import type { RequestHandler } from "express";

export const notFound: RequestHandler = (_req, res) => {
  res.status(404).json({ error: "not_found", error_description: "Nothing here." });
};
