import { readFileSync } from "node:fs"

import type { OAuthConfig } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"

import { credentialVariables, OPTIONAL_PROVIDERS, selectProviders } from "../src/providers.js"

function ids(providers: unknown[]): string[] {
  return providers.map((provider) => (provider as OAuthConfig).id)
}

describe("selectProviders", () => {
  it("offers no real provider when no credentials are set", () => {
    const selection = selectProviders({})
    expect(selection.providers).toEqual([])
    expect(selection.warnings).toEqual([])
    expect(selection.status.map((status) => [status.id, status.enabled])).toEqual([
      ["twitter", false],
      ["yandex", false],
      ["github", false],
      ["google", false],
    ])
  })

  it("switches on Twitter and Yandex when both of their variables are set", () => {
    const selection = selectProviders({
      AUTH_TWITTER_ID: "twitter-id",
      AUTH_TWITTER_SECRET: "twitter-secret",
      AUTH_YANDEX_ID: "yandex-id",
      AUTH_YANDEX_SECRET: "yandex-secret",
    })
    expect(ids(selection.providers)).toEqual(["twitter", "yandex"])
    const [twitter, yandex] = selection.providers as OAuthConfig[]
    expect([twitter?.clientId, twitter?.clientSecret]).toEqual(["twitter-id", "twitter-secret"])
    expect([yandex?.clientId, yandex?.clientSecret]).toEqual(["yandex-id", "yandex-secret"])
    expect(selection.status.filter((status) => status.enabled).map((status) => status.id)).toEqual(["twitter", "yandex"])
  })

  it("switches on all four, in a stable order", () => {
    const env: Record<string, string> = {}
    for (const { id } of OPTIONAL_PROVIDERS) {
      const { idVariable, secretVariable } = credentialVariables(id)
      env[idVariable] = `${id}-id`
      env[secretVariable] = `${id}-secret`
    }
    expect(ids(selectProviders(env).providers)).toEqual(["twitter", "yandex", "github", "google"])
  })

  it("keeps a provider off and warns when only one of its variables is set", () => {
    const selection = selectProviders({ AUTH_GITHUB_ID: "github-id", AUTH_GOOGLE_SECRET: "google-secret" })
    expect(selection.providers).toEqual([])
    expect(selection.warnings).toEqual([
      "AUTH_GITHUB_ID is set but AUTH_GITHUB_SECRET is not: GitHub stays off until both are set.",
      "AUTH_GOOGLE_SECRET is set but AUTH_GOOGLE_ID is not: Google stays off until both are set.",
    ])
  })

  it("treats empty values (lines copied from .env.example) as unset", () => {
    const selection = selectProviders({ AUTH_TWITTER_ID: "", AUTH_TWITTER_SECRET: "" })
    expect(selection.providers).toEqual([])
    expect(selection.warnings).toEqual([])
  })
})

describe("credentialVariables", () => {
  it("follows core's AUTH_<ID>_ID / AUTH_<ID>_SECRET naming", () => {
    expect(credentialVariables("github")).toEqual({ idVariable: "AUTH_GITHUB_ID", secretVariable: "AUTH_GITHUB_SECRET" })
    expect(credentialVariables("azure-ad")).toEqual({ idVariable: "AUTH_AZURE_AD_ID", secretVariable: "AUTH_AZURE_AD_SECRET" })
  })
})

describe(".env.example", () => {
  const text = readFileSync(new URL("../.env.example", import.meta.url), "utf8")

  it.each(OPTIONAL_PROVIDERS.map((provider) => [provider.id, provider] as const))(
    "lists %s's variables, where to register it and its callback URL",
    (id, provider) => {
      const { idVariable, secretVariable } = credentialVariables(id)
      expect(text).toMatch(new RegExp(`^${idVariable}=$`, "m"))
      expect(text).toMatch(new RegExp(`^${secretVariable}=$`, "m"))
      expect(text).toContain(provider.consoleUrl)
      expect(text).toContain(`http://localhost:3000/api/auth/callback/${id}`)
    },
  )

  it("holds no secret values", () => {
    for (const line of text.split("\n")) {
      if (line.startsWith("#") || line.trim() === "") continue
      expect(line).toMatch(/^[A-Z_]+=$/)
    }
  })
})
