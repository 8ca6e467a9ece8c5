/** migrate() on small @hono/auth-js projects: its two entries, the names that do not carry over, its package.json. */
import { describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { NOW, readProjectFile, writeProject } from "./projects.js"

describe("@hono/auth-js", () => {
  it("rewrites its server entry to @portcullis/hono and its React entry to @portcullis/core/client", () => {
    const dir = writeProject({
      "src/index.ts": `import { authHandler, initAuthConfig, verifyAuth, getAuthUser, type AuthConfig } from "@hono/auth-js"\nimport GitHub from "@auth/core/providers/github"\n`,
      "src/client.ts": `import { signIn, signOut, getSession } from '@hono/auth-js/react'\n`,
    })
    const report = migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "src/index.ts")).toBe(`import { authHandler, initAuthConfig, verifyAuth, getAuthUser, type AuthConfig } from "@portcullis/hono"\nimport GitHub from "@portcullis/providers/github"\n`)
    expect(readProjectFile(dir, "src/client.ts")).toBe(`import { signIn, signOut, getSession } from '@portcullis/core/client'\n`)
    expect([report.manual, report.notes]).toEqual([[], []])
  })

  it("lists SessionProvider, useSession and authConfigManager of its React entry, and its env helpers, where they are imported", () => {
    const dir = writeProject({
      "src/app.tsx": `import { SessionProvider, useSession, authConfigManager } from "@hono/auth-js/react"\n`,
      "src/worker.ts": `import { initAuthConfig, setEnvDefaults, reqWithEnvUrl } from "@hono/auth-js"\n`,
    })
    const steps = migrate({ dir, now: NOW }).manual.map(({ file, line, step }) => `${file}:${String(line)} ${step}`)
    expect(steps).toEqual([
      expect.stringMatching(/^src\/app\.tsx:1 SessionProvider \(@hono\/auth-js\/react\) has no counterpart: render the session on the server with c\.var\.auth\(\)/),
      expect.stringMatching(/^src\/app\.tsx:1 useSession \(@hono\/auth-js\/react\) has no counterpart/),
      expect.stringMatching(/^src\/app\.tsx:1 authConfigManager\.setConfig\(\{ basePath, baseUrl \}\) is configureClient\(\{ basePath, baseUrl \}\) of @portcullis\/core\/client/),
      expect.stringMatching(/^src\/worker\.ts:1 setEnvDefaults is @hono\/auth-js's own: core reads AUTH_SECRET/),
      expect.stringMatching(/^src\/worker\.ts:1 reqWithEnvUrl is @hono\/auth-js's own/),
    ])
  })

  it("notes AuthEnv and AuthUser, which @portcullis/hono exports with another meaning, and lists a subpath it does not have", () => {
    const dir = writeProject({ "src/types.ts": `import type { AuthEnv, AuthUser } from "@hono/auth-js"\nimport x from "@hono/auth-js/dist/lib"\n` })
    const report = migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "src/types.ts")).toContain(`import type { AuthEnv, AuthUser } from "@portcullis/hono"`)
    expect(report.notes.map(({ step }) => step)).toEqual([expect.stringMatching(/^AuthEnv in @portcullis\/hono is Hono's environment/), expect.stringMatching(/^AuthUser .* is \{ session \} in @portcullis\/hono/)])
    expect(report.manual.map(({ step }) => step)).toEqual([expect.stringMatching(/^"@hono\/auth-js\/dist\/lib" has no counterpart: @hono\/auth-js's entries are/)])
  })

  it("replaces @hono/auth-js and @auth/core in package.json with @portcullis/hono and @portcullis/core", () => {
    const dir = writeProject({
      "package.json": `{\n  "dependencies": {\n    "@auth/core": "^0.41.0",\n    "@hono/auth-js": "^1.1.1",\n    "hono": "^4.13.0"\n  }\n}\n`,
      "src/index.ts": `import { authHandler } from "@hono/auth-js"\n`,
    })
    migrate({ dir, now: NOW })
    const dependencies = (JSON.parse(readProjectFile(dir, "package.json")) as { dependencies: Record<string, string> }).dependencies
    expect(Object.keys(dependencies).sort()).toEqual(["@portcullis/core", "@portcullis/hono", "hono"])
  })

  it("sets the cookie window in a config function exported from a module of its own, as initAuthConfig(getAuthConfig) takes it", () => {
    const dir = writeProject({
      "src/auth.ts": `import type { AuthConfig } from "@hono/auth-js"\nexport function getAuthConfig(): AuthConfig {\n  return { providers: [] }\n}\n`,
      "src/index.ts": `import { initAuthConfig } from "@hono/auth-js"\nimport { getAuthConfig } from "./auth.js"\nexport const init = initAuthConfig(getAuthConfig)\n`,
    })
    const report = migrate({ dir, now: NOW })
    expect(report.legacySessionCookies.map(({ file }) => file)).toEqual(["src/auth.ts"])
    expect(readProjectFile(dir, "src/auth.ts")).toContain(`legacySessionCookies: { until: "2026-02-14T10:00:00Z" }`)
  })
})
