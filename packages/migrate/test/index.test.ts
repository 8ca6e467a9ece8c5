/** migrate() on small projects: every form of module reference, every extension, what it skips, idempotence, manual steps. */
import { describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { NOW, readProjectFile, writeProject } from "./projects.js"

describe("the forms of module reference", () => {
  it("rewrites imports, keeping quotes, comments and layout", () => {
    const dir = writeProject({
      "auth.ts": `// auth.ts: the app's auth
import NextAuth, {
  type NextAuthConfig, // the config type
} from 'next-auth'
import GitHub from 'next-auth/providers/github' /* GitHub */
import type { JWT } from "next-auth/jwt"
import "next-auth/react"
`,
    })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "auth.ts")).toBe(`// auth.ts: the app's auth
import NextAuth, {
  type NextAuthConfig, // the config type
} from '@portcullis/nextjs'
import GitHub from '@portcullis/providers/github' /* GitHub */
import type { JWT } from "@portcullis/core/jwt"
import "@portcullis/nextjs/react"
`)
  })

  it("rewrites re-exports", () => {
    const dir = writeProject({ "index.ts": `export { signIn, signOut } from "next-auth/react"\nexport * from "@auth/core/errors"\nexport type { Session } from "@auth/core/types"\n` })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "index.ts")).toBe(`export { signIn, signOut } from "@portcullis/nextjs/react"\nexport * from "@portcullis/core/errors"\nexport type { Session } from "@portcullis/core/types"\n`)
  })

  it("rewrites require() and import x = require()", () => {
    const dir = writeProject({
      "server.cjs": `const { ExpressAuth, getSession } = require("@auth/express")\nconst GitHub = require("@auth/express/providers/github").default\n`,
      "legacy.ts": `import core = require("@auth/core")\n`,
    })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "server.cjs")).toBe(`const { ExpressAuth, getSession } = require("@portcullis/express")\nconst GitHub = require("@portcullis/express/providers/github").default\n`)
    expect(readProjectFile(dir, "legacy.ts")).toBe(`import core = require("@portcullis/core")\n`)
  })

  it("rewrites dynamic import(), template literals included", () => {
    const dir = writeProject({ "lazy.mjs": "const { getToken } = await import(`next-auth/jwt`)\nconst react = () => import('next-auth/react')\n" })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "lazy.mjs")).toBe("const { getToken } = await import(`@portcullis/core/jwt`)\nconst react = () => import('@portcullis/nextjs/react')\n")
  })

  it("rewrites declare module augmentations and import() types, JSDoc ones included", () => {
    const dir = writeProject({
      "types/next-auth.d.ts": `import "next-auth"\nimport "next-auth/jwt"\n\ndeclare module "next-auth" {\n  interface Session { role: string }\n}\ndeclare module "next-auth/jwt" {\n  interface JWT { role?: string }\n}\ndeclare module "@auth/core/types" {\n  interface User { role?: string }\n}\nexport type S = import("next-auth").Session\n`,
      "session.js": `/** @param {import("next-auth").Session} session */\nexport const email = (session) => session.user.email\n`,
    })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "types/next-auth.d.ts")).toBe(`import "@portcullis/nextjs"\nimport "@portcullis/core/jwt"\n\ndeclare module "@portcullis/nextjs" {\n  interface Session { role: string }\n}\ndeclare module "@portcullis/core/jwt" {\n  interface JWT { role?: string }\n}\ndeclare module "@portcullis/core/types" {\n  interface User { role?: string }\n}\nexport type S = import("@portcullis/nextjs").Session\n`)
    expect(readProjectFile(dir, "session.js")).toBe(`/** @param {import("@portcullis/nextjs").Session} session */\nexport const email = (session) => session.user.email\n`)
  })

  it("rewrites triple-slash type references, as SvelteKit's app.d.ts has them", () => {
    const dir = writeProject({
      "src/app.d.ts": `/// <reference types="@auth/sveltekit" />\n/// <reference types='next-auth/react'/>\n/// <reference path="./local.d.ts" />\ndeclare global {\n  namespace App {}\n}\nexport {}\n`,
    })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "src/app.d.ts")).toBe(`/// <reference types="@portcullis/sveltekit" />\n/// <reference types='@portcullis/nextjs/react'/>\n/// <reference path="./local.d.ts" />\ndeclare global {\n  namespace App {}\n}\nexport {}\n`)
  })

  it("rewrites @auth/sveltekit's and @auth/express's entries, their type-only ones to core's", () => {
    const dir = writeProject({
      "src/lib/a.ts": `import { signIn } from "@auth/sveltekit/client"\nimport type { Adapter } from "@auth/sveltekit/adapters"\nimport type { Provider } from "@auth/express/providers"\nimport type { AdapterUser } from "@auth/express/adapters"\n`,
    })
    const report = migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "src/lib/a.ts")).toBe(`import { signIn } from "@portcullis/sveltekit/client"\nimport type { Adapter } from "@portcullis/core/adapters"\nimport type { Provider } from "@portcullis/core/providers"\nimport type { AdapterUser } from "@portcullis/core/adapters"\n`)
    expect(report.manual).toEqual([])
  })

  it("rewrites package.json subpaths to our package's, and says the version read from it is now Portcullis's", () => {
    const dir = writeProject({
      "src/lib/footer.svelte": `<script lang="ts">\n  import packageJSON from "@auth/sveltekit/package.json"\n</script>\n<a href="https://www.npmjs.com/package/@auth/sveltekit">@auth/sveltekit@{packageJSON.version}</a>\n`,
      "version.cjs": `module.exports = require("next-auth/package.json").version\n`,
    })
    const report = migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "src/lib/footer.svelte")).toContain(`import packageJSON from "@portcullis/sveltekit/package.json"`)
    expect(readProjectFile(dir, "version.cjs")).toBe(`module.exports = require("@portcullis/nextjs/package.json").version\n`)
    expect(report.notes.map(({ file, line, step }) => `${file}:${String(line)} ${step}`)).toEqual([
      expect.stringMatching(/^src\/lib\/footer\.svelte:2 "@auth\/sveltekit\/package\.json" now reads @portcullis\/sveltekit's package\.json: its version \(\d+\.\d+\.\d+ in this release\) is Portcullis's, no longer Auth\.js's/),
      expect.stringMatching(/^version\.cjs:1 "next-auth\/package\.json" now reads @portcullis\/nextjs's package\.json/),
    ])
    expect(report.manual).toEqual([])
  })

  it("rewrites the modules named in jest.mock and vi.mock", () => {
    const dir = writeProject({ "page.test.tsx": `vi.mock("next-auth/react", () => ({ useSession: vi.fn() }))\njest.requireActual("next-auth")\n` })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "page.test.tsx")).toBe(`vi.mock("@portcullis/nextjs/react", () => ({ useSession: vi.fn() }))\njest.requireActual("@portcullis/nextjs")\n`)
  })

  it("leaves Auth.js's adapters, other packages and lookalike strings alone", () => {
    const text = `import { PostgresAdapter } from "@auth/pg-adapter"\nimport { PrismaAdapter } from "@auth/prisma-adapter"\nimport Link from "next/link"\nconst label = "next-auth"\nconsole.log(label)\n`
    const dir = writeProject({ "lib.ts": text })
    const report = migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "lib.ts")).toBe(text)
    expect(report.changed).toEqual([])
  })
})

describe("files", () => {
  it.each([".ts", ".tsx", ".mts", ".cts", ".d.ts", ".js", ".jsx", ".mjs", ".cjs"])("reads %s files", (extension) => {
    const jsx = extension.endsWith("x") ? "\nexport const App = () => <SessionProvider><main /></SessionProvider>\n" : "\n"
    const dir = writeProject({ [`file${extension}`]: `import { SessionProvider } from "next-auth/react"${jsx}` })
    const report = migrate({ dir, now: NOW })
    expect(report.parseErrors).toEqual([])
    expect(readProjectFile(dir, `file${extension}`)).toBe(`import { SessionProvider } from "@portcullis/nextjs/react"${jsx}`)
  })

  it("reads JSX in .js files, as Next.js apps write it", () => {
    const dir = writeProject({ "app/page.js": `import { useSession } from "next-auth/react"\nexport default function Page() { return <p>{useSession().status}</p> }\n` })
    expect(migrate({ dir, now: NOW }).changed.map(({ file }) => file)).toEqual(["app/page.js"])
  })

  it("skips node_modules, .next and dist", () => {
    const text = `import NextAuth from "next-auth"\n`
    const dir = writeProject({ "node_modules/x/index.js": text, ".next/server/app.js": text, "dist/index.js": text, "src/auth.ts": text })
    const report = migrate({ dir, now: NOW })
    expect(report.changed.map(({ file }) => file)).toEqual(["src/auth.ts"])
    for (const file of ["node_modules/x/index.js", ".next/server/app.js", "dist/index.js"]) expect(readProjectFile(dir, file)).toBe(text)
  })

  it("is idempotent: a second run changes nothing and reports the same manual steps", () => {
    const dir = writeProject({
      "package.json": `{\n  "dependencies": {\n    "next-auth": "5.0.0-beta.25"\n  }\n}\n`,
      "auth.ts": `import NextAuth from "next-auth"\nimport GitHub from "next-auth/providers/github"\nexport const { handlers, auth } = NextAuth({\n  providers: [GitHub],\n})\n`,
      "legacy.ts": `import { getServerSession } from "next-auth/next"\n`,
    })
    const first = migrate({ dir, now: NOW })
    expect(first.changed.map(({ file }) => file)).toEqual(["auth.ts", "package.json"])
    const snapshot = ["auth.ts", "package.json", "legacy.ts"].map((file) => readProjectFile(dir, file))
    const second = migrate({ dir, now: new Date(NOW.getTime() + 86_400_000) })
    expect(second.changed).toEqual([])
    expect(second.legacySessionCookies).toEqual([])
    expect(["auth.ts", "package.json", "legacy.ts"].map((file) => readProjectFile(dir, file))).toEqual(snapshot)
    expect(second.manual).toEqual(first.manual)
  })

  it("writes nothing in a dry run, and gives the diff", () => {
    const text = `import NextAuth from "next-auth"\n`
    const dir = writeProject({ "auth.ts": text })
    const report = migrate({ dir, now: NOW, dryRun: true })
    expect(readProjectFile(dir, "auth.ts")).toBe(text)
    expect(report.written).toBe(false)
    expect(report.changed).toEqual([{ file: "auth.ts", diff: `--- a/auth.ts\n+++ b/auth.ts\n@@ -1,2 +1,2 @@\n-import NextAuth from "next-auth"\n+import NextAuth from "@portcullis/nextjs"\n \n` }])
  })

  it("writes nothing when a file does not parse, and names it", () => {
    const dir = writeProject({ "auth.ts": `import NextAuth from "next-auth"\n`, "broken.ts": `export const x = {\n` })
    const report = migrate({ dir, now: NOW })
    expect(report.parseErrors).toEqual([{ file: "broken.ts", line: 2, column: 1, message: "'}' expected." }])
    expect(report.written).toBe(false)
    expect(readProjectFile(dir, "auth.ts")).toBe(`import NextAuth from "next-auth"\n`)
  })

  it("names a package.json that is not JSON, and writes nothing", () => {
    const dir = writeProject({ "auth.ts": `import NextAuth from "next-auth"\n`, "packages/web/package.json": `{ "dependencies": { "next-auth": "5" }, }` })
    const report = migrate({ dir, now: NOW })
    expect(report.parseErrors.map(({ file }) => file)).toEqual(["packages/web/package.json"])
    expect(readProjectFile(dir, "auth.ts")).toBe(`import NextAuth from "next-auth"\n`)
  })

  it("counts TypeScript syntax in a .js file as a parse error", () => {
    const dir = writeProject({ "auth.js": `const x: number = 1\n` })
    expect(migrate({ dir, now: NOW }).parseErrors.map(({ file }) => file)).toEqual(["auth.js"])
  })
})

describe("manual steps", () => {
  const steps = (files: Record<string, string>) => migrate({ dir: writeProject(files), now: NOW }).manual.map(({ file, line, step }) => `${file}:${String(line)} ${step}`)

  it("lists next-auth v4's getServerSession and NextAuthOptions, where they are", () => {
    const listed = steps({ "lib/session.ts": `import { getServerSession } from "next-auth/next"\nimport { type NextAuthOptions, getServerSession as get } from "next-auth"\n` })
    expect(listed).toHaveLength(3)
    expect(listed[0]).toMatch(/^lib\/session\.ts:1 "next-auth\/next" is next-auth v4's API/)
    expect(listed[1]).toMatch(/^lib\/session\.ts:2 NextAuthOptions is next-auth v4's type: type the config as NextAuthConfig/)
    expect(listed[2]).toMatch(/^lib\/session\.ts:2 getServerSession is next-auth v4's API: call auth\(\)/)
  })

  it("lists next-auth/middleware and next-auth/client, and leaves them as they are", () => {
    const dir = writeProject({ "middleware.ts": `export { default } from "next-auth/middleware"\n`, "old.js": `import { useSession } from "next-auth/client"\n` })
    const report = migrate({ dir, now: NOW })
    expect(report.manual.map(({ file, step }) => `${file} ${step}`)).toEqual([
      expect.stringMatching(/^middleware\.ts "next-auth\/middleware" \(withAuth\) is next-auth v4's API/),
      expect.stringMatching(/^old\.js "next-auth\/client" is next-auth v3's API/),
    ])
    expect(readProjectFile(dir, "middleware.ts")).toBe(`export { default } from "next-auth/middleware"\n`)
  })

  it("lists a pages-router [...nextauth] handler", () => {
    const listed = steps({ "pages/api/auth/[...nextauth].ts": `import NextAuth from "next-auth"\nimport GitHub from "next-auth/providers/github"\nexport const authOptions = { providers: [GitHub] }\nexport default NextAuth(authOptions)\n` })
    expect(listed).toEqual([
      expect.stringMatching(/^pages\/api\/auth\/\[\.\.\.nextauth\]\.ts:3 Portcullis limits sign-in attempts per client address/),
      expect.stringMatching(/^pages\/api\/auth\/\[\.\.\.nextauth\]\.ts:4 next-auth v4's pages-router handler: call NextAuth\(config\) once in auth\.ts/),
    ])
  })

  it("lists a name our module does not export", () => {
    expect(steps({ "a.ts": `import { customFetch } from "next-auth"\n` })).toEqual([`a.ts:1 "customFetch" is imported from "next-auth", but @portcullis/nextjs does not export it: replace it by hand`])
  })

  it("lists a module name computed at run time from an Auth.js prefix, or held in a constant, with what to write", () => {
    const listed = steps({
      "lib/providers.ts": "export const load = (id: string) => import(`next-auth/providers/${id}`)\nexport const loadCore = (sub: string) => require(\"@auth/core/\" + sub)\nconst REACT = \"next-auth/react\"\nexport const react = () => import(REACT)\nexport const other = (name: string) => import(name)\nexport const local = (name: string) => import(`./locales/${name}.js`)\n",
    })
    expect(listed).toEqual([
      expect.stringMatching(/^lib\/providers\.ts:1 this module name starts "next-auth\/providers\/" and is completed at run time, so the codemod cannot rewrite it: name the Portcullis module by hand \(next-auth\/providers\/<id> is @portcullis\/providers\/<id>/),
      expect.stringMatching(/^lib\/providers\.ts:2 this module name starts "@auth\/core\/" and is completed at run time.*@auth\/core is @portcullis\/core/),
      `lib/providers.ts:4 this module name is "next-auth/react", held in a variable, which the codemod does not rewrite: change it to "@portcullis/nextjs/react"`,
    ])
  })

  it("lists @auth/sveltekit's webauthn entry and a subpath with no counterpart", () => {
    const listed = steps({ "src/a.ts": `import { signIn } from "@auth/sveltekit/webauthn"\nimport x from "@auth/sveltekit/dist/lib"\n` })
    expect(listed).toEqual([
      expect.stringMatching(/^src\/a\.ts:1 "@auth\/sveltekit\/webauthn": sign in with signIn\("passkey"\) from "@portcullis\/core\/client"/),
      expect.stringMatching(/^src\/a\.ts:2 "@auth\/sveltekit\/dist\/lib" has no counterpart in @portcullis\/sveltekit/),
    ])
  })

  it("lists an Auth.js integration we have no counterpart for", () => {
    expect(steps({ "src/hooks.server.ts": `import { SolidAuth } from "@auth/solid-start"\n` })[0]).toContain("no integration for @auth/solid-start")
  })
})
