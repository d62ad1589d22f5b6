// What the consent screen says of a client (issue 23 item 7) and which client metadata a
// registration may carry (item 6): the rules, without a server.
import { describe, expect, it } from "vitest";
import { inertText } from "./display-text";
import { clientMetadataProblem } from "./oauth-clients";
import { clientDisplayName, clientIdentity, redirectDestination, unknownScopes } from "./oauth-grants";

describe("inertText", () => {
  it("removes bidi controls, zero-width and other invisible characters, and collapses white space", () => {
    expect(inertText("Cl\u200baude\u202e \u2066Desk\u2069top\ufeff\u00ad")).toBe("Claude Desktop");
    expect(inertText("a\u200d\u200c\u2060b\u{E0041}c\u061cd")).toBe("abcd");
    expect(inertText("  one\n\ttwo\u0007  ")).toBe("one two");
    expect(inertText("x".repeat(50), 10)).toBe(`${"x".repeat(9)}…`);
    expect(inertText("😀😀😀", 2)).toBe("😀…");
  });
});

describe("what the person is told", () => {
  it("a client's name without invisible characters, or the document's host, or a plain phrase", () => {
    expect(clientDisplayName({ name: "\u202eClaude\u200b", clientId: "dcr_x", via: "registration" })).toBe("Claude");
    expect(clientDisplayName({ name: "\u200b\u200b", clientId: "https://app.example/c.json", via: "metadata_document" })).toBe("app.example");
    expect(clientDisplayName({ name: null, clientId: "dcr_x", via: "registration" })).toBe("An unnamed app");
  });

  it("where the browser goes: a site by its host, this computer by its address, an app by its scheme", () => {
    expect(redirectDestination("https://claude.ai/api/mcp/auth_callback")).toEqual({ kind: "web", text: "claude.ai" });
    expect(redirectDestination("http://127.0.0.1:33418/cb")).toEqual({ kind: "this_computer", text: "http://127.0.0.1:33418" });
    expect(redirectDestination("http://localhost:6274/oauth/callback")).toEqual({ kind: "this_computer", text: "http://localhost:6274" });
    expect(redirectDestination("com.evil.app://claude.ai/cb")).toEqual({ kind: "app", text: "com.evil.app://claude.ai/cb" });
    expect(redirectDestination("cursor://anysphere.cursor-retrieval/oauth/callback")).toEqual({
      kind: "app",
      text: "cursor://anysphere.cursor-retrieval/oauth/callback",
    });
    expect(redirectDestination("com.example.app:/oauth2redirect").text).toBe("com.example.app://oauth2redirect");
    expect(redirectDestination("https://xn--claud-gra.ai/cb").text).toBe("xn--claud-gra.ai");
  });

  it("verified only for a metadata document served over https", () => {
    expect(clientIdentity({ clientId: "https://claude.ai/oauth/client.json", via: "metadata_document" })).toBe("verified");
    expect(clientIdentity({ clientId: "http://127.0.0.1:9/c.json", via: "metadata_document" })).toBe("self_declared");
    expect(clientIdentity({ clientId: "dcr_abc", via: "registration" })).toBe("self_declared");
  });
});

describe("what a client may ask for", () => {
  it("scopes this server does not offer are named; offline_access is let through", () => {
    expect(unknownScopes("mcp:read mcp:write")).toEqual([]);
    expect(unknownScopes("openid mcp:read admin admin")).toEqual(["openid", "admin"]);
    expect(unknownScopes("mcp:read offline_access")).toEqual([]);
    expect(unknownScopes(undefined)).toEqual([]);
  });

  it("public clients only, and no URL the server would fetch", () => {
    expect(clientMetadataProblem({ redirect_uris: ["https://a.example/cb"] })).toBeNull();
    expect(clientMetadataProblem({ token_endpoint_auth_method: "none" })).toBeNull();
    expect(clientMetadataProblem({ token_endpoint_auth_method: "private_key_jwt" })).toMatch(/public clients/);
    expect(clientMetadataProblem({ client_secret: "x" })).toMatch(/client_secret/);
    for (const key of ["jwks_uri", "sector_identifier_uri", "request_uris", "backchannel_logout_uri"]) {
      expect(clientMetadataProblem({ [key]: "https://127.0.0.1/x" })).toContain(key);
    }
  });
});
