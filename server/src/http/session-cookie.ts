import { parse, serialize } from "cookie";
import type { Request, Response } from "express";

// __Host- binds the cookie to this exact origin (Secure, Path=/, no Domain); it needs https.
export function sessionCookieName(baseUrl: string): string {
  return baseUrl.startsWith("https:") ? "__Host-atelier_session" : "atelier_session";
}

export function readSessionCookie(req: Request, baseUrl: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  return parse(header)[sessionCookieName(baseUrl)];
}

export function setSessionCookie(res: Response, baseUrl: string, sessionId: string, expiresAt: Date): void {
  res.append(
    "Set-Cookie",
    serialize(sessionCookieName(baseUrl), sessionId, {
      httpOnly: true,
      sameSite: "lax",
      secure: baseUrl.startsWith("https:"),
      path: "/",
      expires: expiresAt,
    }),
  );
}

export function clearSessionCookie(res: Response, baseUrl: string): void {
  res.append(
    "Set-Cookie",
    serialize(sessionCookieName(baseUrl), "", {
      httpOnly: true,
      sameSite: "lax",
      secure: baseUrl.startsWith("https:"),
      path: "/",
      expires: new Date(0),
    }),
  );
}
