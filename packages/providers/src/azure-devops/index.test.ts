import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import AzureDevOps from "./index.js"

const base = {
  fixture,
  user: {
    id: "5d2c8f0e-7a6b-6e3c-9b1d-4f2a0c8e6b3d",
    name: "Ines Duarte",
    email: "ines.duarte@example.com",
    image:
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  },
}

testProvider(AzureDevOps, base)

describe("azure-devops token exchange", () => {
  it("sends the code as a JWT-bearer assertion and normalizes the answer", async () => {
    const provider = AzureDevOps({ clientId: "app-id", clientSecret: "client-secret" })
    const token = provider.token
    if (typeof token !== "object" || token.request === undefined) throw new Error("expected a custom token request")
    let sent: URLSearchParams | undefined
    const fetch = (_input: string | URL, init?: RequestInit) => {
      sent = init?.body as URLSearchParams
      return Promise.resolve(
        Response.json({ access_token: "at", token_type: "jwt-bearer", expires_in: "3599", refresh_token: "rt" }),
      )
    }
    const { tokens } = await token.request({
      params: { code: "the-code", redirect_uri: "https://app.example.com/api/auth/callback/azure-devops" },
      provider: provider,
      url: token.url,
      fetch,
    })
    expect(sent?.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer")
    expect(sent?.get("assertion")).toBe("the-code")
    expect(sent?.get("client_assertion")).toBe("client-secret")
    expect(tokens).toMatchObject({ access_token: "at", token_type: "bearer", expires_in: 3599, refresh_token: "rt" })
  })

  it("fails on an error answer instead of passing it on as tokens", async () => {
    const provider = AzureDevOps({ clientId: "app-id", clientSecret: "client-secret" })
    const token = provider.token
    if (typeof token !== "object" || token.request === undefined) throw new Error("expected a custom token request")
    const fetch = () => Promise.resolve(Response.json({ error: "invalid_grant" }, { status: 400 }))
    await expect(
      token.request({ params: { code: "c", redirect_uri: "https://app.example.com/cb" }, provider: provider, url: token.url, fetch }),
    ).rejects.toThrow(/HTTP 400.*invalid_grant/)
  })
})

testProvider(AzureDevOps, {
  ...base,
  title: "scope",
  config: { scope: "vso.profile vso.code" },
  authorizationParams: { scope: "vso.profile vso.code" },
})
