// tRPC calls made with a browser page's own session (its cookies), for seeding what a
// journey needs through the public API after signing in in the browser.
import type { Page } from "@playwright/test";
import { stack } from "./stack";

export function appApi(page: Page) {
  const call = async <T>(method: "GET" | "POST", proc: string, input: unknown): Promise<T> => {
    const res =
      method === "POST"
        ? await page.request.post(`/api/trpc/${proc}`, { data: input, headers: { origin: stack.baseUrl, "content-type": "application/json" } })
        : await page.request.get(`/api/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`);
    const body = (await res.json()) as { result?: { data?: unknown }; error?: unknown };
    if (!res.ok()) throw new Error(`${proc}: HTTP ${res.status()} ${JSON.stringify(body).slice(0, 400)}`);
    return body.result?.data as T;
  };
  return {
    mutation: <T = unknown>(proc: string, input: unknown) => call<T>("POST", proc, input),
    query: <T = unknown>(proc: string, input: unknown) => call<T>("GET", proc, input),
  };
}
