// What every provider folder must satisfy beyond its own test: the files the generator and the
// kit rely on, an id matching the folder, a type core serves, and a place in the exports map and
// the id union of that type. OAuth / OIDC folders test through the kit (`testProvider`); email
// and credentials folders, whose flows the kit does not simulate, test their own factory.
import { existsSync, readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Configuration } from "@portcullis/core/errors"
import { incompleteProblem, type ProviderConfig } from "@portcullis/core/providers"
import { describe, expect, it } from "vitest"

type Factory = (config: Record<string, unknown>) => ProviderConfig

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const srcDir = join(packageDir, "src")
const ids = readdirSync(srcDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort()

const read = (...path: string[]): string => readFileSync(join(...path), "utf8")
const packageExports = (JSON.parse(read(packageDir, "package.json")) as { exports: Record<string, unknown> }).exports
const indexSource = read(srcDir, "index.ts")

/** The ids listed in one generated union of src/index.ts. */
function unionIds(name: string): Set<string> {
  const source = new RegExp(`export type ${name} =([^]*?)(?:\\n\\n|$)`).exec(indexSource)?.[1] ?? ""
  return new Set(Array.from(source.matchAll(/"([^"]+)"/g), (match) => match[1] as string))
}

/** The generated union each provider type's ids are listed in. */
const UNION_OF: Partial<Record<ProviderConfig["type"], string>> = {
  oauth: "OAuthProviderType",
  oidc: "OAuthProviderType",
  email: "EmailProviderType",
  credentials: "CredentialsProviderType",
  webauthn: "WebAuthnProviderType",
}

async function loadFactory(id: string): Promise<unknown> {
  const module = (await import(join(srcDir, id, "index.ts"))) as { default?: unknown }
  return module.default
}

/**
 * Calls the factory as a user would. A provider that needs more than credentials (a tenant's
 * `issuer`, an API key) returns a configuration marked with what to set ("set `issuer` ...", read
 * with `incompleteProblem`), or throws a `Configuration` error naming it: set it to a placeholder
 * and call again.
 */
function build(factory: Factory): ProviderConfig {
  const config: Record<string, unknown> = { clientId: "contract-client-id", clientSecret: "contract-client-secret" }
  for (;;) {
    let problem: string
    try {
      const provider = factory(config)
      const missing = incompleteProblem(provider)
      if (missing === undefined) return provider
      problem = missing
    } catch (error) {
      if (!(error instanceof Configuration)) throw error
      problem = error.message
    }
    const option = /(?:set|needs) `(\w+)`/.exec(problem)?.[1]
    if (option === undefined || option in config) throw new Error(`the factory still lacks a value: ${problem}`)
    config[option] =
      option === "issuer" || /Url$/.test(option)
        ? "https://tenant.example.com"
        : option === "server"
          ? "smtp://smtp.example.com:587"
          : option === "authorize" || option === "sendVerificationRequest"
            ? () => null
            : `contract-${option}`
  }
}

it("finds the provider folders", () => {
  expect(ids.length).toBeGreaterThan(0)
})

describe.each(ids)("src/%s", (id) => {
  it("has index.ts, fixture.json and index.test.ts, testing the factory through the kit when it is OAuth", async () => {
    for (const file of ["index.ts", "fixture.json", "index.test.ts"]) {
      expect(existsSync(join(srcDir, id, file)), `src/${id}/${file}`).toBe(true)
    }
    expect(typeof JSON.parse(read(srcDir, id, "fixture.json"))).toBe("object")
    const test = read(srcDir, id, "index.test.ts")
    const { type } = build((await loadFactory(id)) as Factory)
    if (type === "oauth" || type === "oidc") expect(test).toContain("testProvider(")
    else expect(test).toMatch(/from "\.\/index\.js"/)
  })

  it("has a header naming its docs and its module", () => {
    const header = /\/\*\*([\s\S]*?)\*\//.exec(read(srcDir, id, "index.ts"))?.[1] ?? ""
    expect(header).toMatch(/@see\s+https:\/\//)
    expect(header).toMatch(new RegExp(`@module\\s+${id}\\s`))
  })

  it("default-exports a factory whose id is the folder name", async () => {
    const factory = await loadFactory(id)
    expect(typeof factory).toBe("function")
    expect(build(factory as Factory).id).toBe(id)
  })

  it("declares a type core serves, and is in the exports map and that type's id union (run `pnpm generate`)", async () => {
    const { type } = build((await loadFactory(id)) as Factory)
    const union = UNION_OF[type]
    expect(union, `type "${type}"`).toBeDefined()
    expect(packageExports[`./${id}`]).toEqual({ types: `./dist/${id}/index.d.ts`, default: `./dist/${id}/index.js` })
    expect(unionIds(union ?? "").has(id), `"${id}" in ${union ?? "?"} (src/index.ts)`).toBe(true)
  })

  it("has no scaffold placeholder left", () => {
    for (const file of ["index.ts", "fixture.json", "index.test.ts"]) {
      if (existsSync(join(srcDir, id, file))) expect(read(srcDir, id, file), `src/${id}/${file}`).not.toContain("TODO(new-provider)")
    }
  })
})
