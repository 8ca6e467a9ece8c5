/**
 * The reference pages come from the source: every option of `AuthConfig` carries TSDoc, every
 * route core declares has its description (and none describes a route that is gone), and every
 * provider folder is in the catalogue.
 */
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT } from "../src/generate.js"
import { readOptions, renderOptions, undocumentedOptions } from "../src/options.js"
import { readProviders } from "../src/providers.js"
import { ROUTE_DOCS } from "../src/route-docs.js"
import { readRoutes, renderRoutes, routeDrift } from "../src/routes.js"

const CORE = join(ROOT, "packages", "core")

describe("the options reference", () => {
  const options = readOptions(CORE)

  it("has every option of AuthConfig, nested ones by their dotted path", () => {
    const paths = options.map((option) => option.path)
    expect(paths).toEqual(expect.arrayContaining(["providers", "secret", "session", "session.maxAge", "rateLimit.perClient.signIn", "theme.colorScheme", "clientAddress", "legacySessionCookies.until"]))
  })

  it("finds TSDoc on every option: an option without it fails the docs build", () => {
    expect(undocumentedOptions(options)).toEqual([])
  })

  it("renders each option under its own heading, its type as written and its examples", () => {
    const page = renderOptions(options)
    expect(page).toContain("## clientAddress")
    expect(page).toContain("### session.maxAge")
    expect(page).toContain("`(request: Request) => Awaitable<string | null | undefined>`")
    expect(page).toContain('clientAddress: forwardedFor({ proxies: 1 })')
  })
})

describe("the route table", () => {
  const routes = readRoutes(CORE)

  it("reads core's GET and POST tables and each flow's routes", () => {
    const keys = routes.map((route) => `${route.method} ${route.name}`)
    expect(keys).toEqual(expect.arrayContaining(["GET session", "POST signin", "GET sessions", "POST accounts", "POST backchannel-logout", "GET webauthn-options", "GET webauthn-script"]))
    expect(keys).not.toContain("GET flow")
  })

  it("has a description for every route core declares, and none for a route it does not", () => {
    expect(routeDrift(routes)).toEqual({ undocumented: [], stale: [], wrongLimit: [] })
  })

  it("fails when core gains a route without a description, or loses one that is described", () => {
    const { "POST sessions": _dropped, ...docs } = ROUTE_DOCS
    expect(routeDrift(routes, docs).undocumented).toEqual(["POST sessions"])
    expect(routeDrift(routes, { ...ROUTE_DOCS, "GET gone": [{ path: "/gone", does: "nothing" }] }).stale).toEqual(["GET gone"])
    expect(routeDrift(routes, { ...ROUTE_DOCS, "GET webauthn-options": [{ path: "/webauthn-options/:id", does: "a challenge", limit: "signIn" }] }).wrongLimit).toEqual(["GET webauthn-options"])
  })

  it("lists the routes the READMEs mention only in passing", () => {
    const page = renderRoutes(routes)
    for (const path of ["/sessions", "/sessions/revoke", "/accounts", "/accounts/unlink", "/webauthn-credentials/:id", "/webauthn-options/:id", "/backchannel-logout/:id", "/signout/callback/:id", "/webauthn-script/:id"]) {
      expect(page).toMatch(new RegExp(`\\| \`(GET|POST) ${path}\` \\|`))
    }
  })
})

describe("the provider catalogue", () => {
  it("has every folder of packages/providers/src, with its header's summary", async () => {
    const providers = await readProviders(join(ROOT, "packages", "providers"))
    const folders = readdirSync(join(ROOT, "packages", "providers", "src"), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
    expect(providers.map((provider) => provider.id).sort()).toEqual(folders.sort())
    expect(providers.find((provider) => provider.id === "github")?.summary).toMatch(/^GitHub \(OAuth 2\.0\)\. Create an OAuth app/)
  })
})
