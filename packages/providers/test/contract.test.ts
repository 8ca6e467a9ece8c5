// What every provider folder must satisfy beyond its own test: the files the generator and the
// kit rely on, an id matching the folder, and a place in the exports map and the id union.
import { existsSync, readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Configuration } from "@auth/core/errors"
import type { OAuthConfig } from "@auth/core/providers"
import { describe, expect, it } from "vitest"

type Factory = (config: Record<string, unknown>) => OAuthConfig<never>

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const srcDir = join(packageDir, "src")
const ids = readdirSync(srcDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort()

const read = (...path: string[]): string => readFileSync(join(...path), "utf8")
const packageExports = (JSON.parse(read(packageDir, "package.json")) as { exports: Record<string, unknown> }).exports
const unionSource = read(srcDir, "index.ts").split("OAuthProviderType =")[1] ?? ""
const unionIds = new Set(Array.from(unionSource.matchAll(/"([^"]+)"/g), (match) => match[1]))

async function loadFactory(id: string): Promise<unknown> {
  const module = (await import(join(srcDir, id, "index.ts"))) as { default?: unknown }
  return module.default
}

/**
 * Calls the factory as a user would. A provider that needs more than credentials (a tenant's
 * `issuer`, an API key) throws a `Configuration` error whose message names the option to set
 * ("set `apiKey` ..." or, from `tenantIssuer`, "needs `issuer` ..."): set it to a placeholder and
 * call again.
 */
function build(factory: Factory): OAuthConfig<never> {
  const config: Record<string, unknown> = { clientId: "contract-client-id", clientSecret: "contract-client-secret" }
  for (;;) {
    try {
      return factory(config)
    } catch (error) {
      if (!(error instanceof Configuration)) throw error
      const option = /(?:set|needs) `(\w+)`/.exec(error.message)?.[1]
      if (option === undefined || option in config) throw error
      config[option] = option === "issuer" || /Url$/.test(option) ? "https://tenant.example.com" : `contract-${option}`
    }
  }
}

it("finds the provider folders", () => {
  expect(ids.length).toBeGreaterThan(0)
})

describe.each(ids)("src/%s", (id) => {
  it("has index.ts, fixture.json and index.test.ts", () => {
    for (const file of ["index.ts", "fixture.json", "index.test.ts"]) {
      expect(existsSync(join(srcDir, id, file)), `src/${id}/${file}`).toBe(true)
    }
    expect(typeof JSON.parse(read(srcDir, id, "fixture.json"))).toBe("object")
    expect(read(srcDir, id, "index.test.ts")).toContain("testProvider(")
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

  it("is in the exports map and the OAuthProviderType union (run `pnpm generate`)", () => {
    expect(packageExports[`./${id}`]).toEqual({ types: `./dist/${id}/index.d.ts`, default: `./dist/${id}/index.js` })
    expect(unionIds.has(id), `"${id}" in src/index.ts`).toBe(true)
  })

  it("has no scaffold placeholder left", () => {
    for (const file of ["index.ts", "fixture.json", "index.test.ts"]) {
      if (existsSync(join(srcDir, id, file))) expect(read(srcDir, id, file), `src/${id}/${file}`).not.toContain("TODO(new-provider)")
    }
  })
})
