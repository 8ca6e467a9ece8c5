/** The entry's names, the module's registrations in a Nuxt build, and the provider paths the other integrations have. */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import GitHubFromProviders from "@portcullis/providers/github"
import type { Nuxt } from "nuxt/schema"
import { describe, expect, it } from "vitest"
import * as entry from "../src/module.js"

/** The parts of a Nuxt build the module touches, and the hooks it adds, run as Nuxt would run them. */
function fakeNuxt(portcullis?: object): { nuxt: Nuxt; run: (hook: string, value: unknown) => unknown } {
  const hooks = new Map<string, ((value: unknown) => void)[]>()
  const options = { rootDir: "/app", srcDir: "/app", serverHandlers: [], plugins: [], runtimeConfig: { public: {} }, ...(portcullis === undefined ? {} : { portcullis }) }
  const nuxt = { options, hook: (name: string, fn: (value: unknown) => void) => hooks.set(name, [...(hooks.get(name) ?? []), fn]) } as unknown as Nuxt
  return {
    nuxt,
    run: (hook, value) => {
      for (const fn of hooks.get(hook) ?? []) fn(value)
      return value
    },
  }
}

describe("exports", () => {
  it("exports the module as default and the error classes", () => {
    expect(Object.keys(entry).sort()).toEqual(["AuthError", "CredentialsSignin", "RefreshTokenError", "default"])
  })

  it("registers the route under basePath, the Nitro plugin, aliases and server functions, the composables and the auth middleware", async () => {
    const { nuxt, run } = fakeNuxt({ basePath: "/auth/" })
    await entry.default({ config: "~~/auth/config" }, nuxt)
    expect(await entry.default.getMeta?.()).toMatchObject({ name: "@portcullis/nuxt", configKey: "portcullis" })
    expect(nuxt.options.serverHandlers).toEqual([{ route: "/auth/**", handler: expect.stringMatching(/runtime\/server\/handler\.js$/) as unknown }])
    expect(nuxt.options.runtimeConfig.public).toEqual({ portcullis: { basePath: "/auth" } })
    const nitro = run("nitro:config", { imports: { imports: [] } }) as { alias: Record<string, string>; virtual: Record<string, string>; plugins: string[]; imports: { imports: { name: string }[] } }
    expect(nitro.alias["#portcullis/config"]).toBe("/app/auth/config")
    expect(nitro.virtual["#portcullis/options"]).toBe('export const basePath = "/auth"')
    expect(nitro.plugins).toEqual([expect.stringMatching(/runtime\/server\/plugin\.js$/)])
    expect(nitro.imports.imports.map((item) => item.name)).toEqual(["auth", "getAccessToken", "listSessions", "revokeSessions", "unlinkAccount", "requireRecentAuth"])
    expect((run("imports:extend", []) as { name: string }[]).map((item) => item.name)).toEqual(["useSession", "signIn", "signOut"])
    expect((run("app:resolve", { middleware: [] }) as { middleware: { name: string; global: boolean }[] }).middleware).toMatchObject([{ name: "auth", global: false }])
  })

  it("refuses a basePath that is not an absolute path at build time", async () => {
    const { nuxt } = fakeNuxt()
    await expect(async () => entry.default({ basePath: "api/auth" }, nuxt)).rejects.toThrow(/basePath/)
  })

  it("serves @portcullis/nuxt/providers/<id> as @portcullis/providers/<id>", async () => {
    execFileSync(process.execPath, [fileURLToPath(new URL("../../providers/scripts/re-export-entries.mjs", import.meta.url)), fileURLToPath(new URL("..", import.meta.url))])
    const github = (await import(new URL("../dist/providers/github.js", import.meta.url).href)) as { default: unknown }
    expect(github.default).toBe(GitHubFromProviders)
  })
})
