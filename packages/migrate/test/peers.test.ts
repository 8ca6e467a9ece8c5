/**
 * The codemod stops before writing anything when npm would refuse to install our packages beside
 * the app's framework versions (their peer ranges), and says what to upgrade first.
 */
import { createHash } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { peerBlocker } from "../src/peers.js"
import { workspace } from "../src/workspace.js"
import { runBin } from "./apps.js"
import { NOW, writeProject } from "./projects.js"

/** Every file's path and bytes under `dir`, hashed: equal before and after means nothing was written. */
function treeHash(dir: string): string {
  const hash = createHash("sha256")
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else hash.update(`${relative(dir, path)}\0`).update(readFileSync(path)).update("\0")
    }
  }
  walk(dir)
  return hash.digest("hex")
}

/** Auth.js's SvelteKit example as published: Svelte 4, SvelteKit 2.8. */
const SVELTE_4_APP = {
  "package.json": `{
  "private": true,
  "devDependencies": {
    "@sveltejs/adapter-auto": "3.2.0",
    "@sveltejs/kit": "2.8.3",
    "@sveltejs/vite-plugin-svelte": "^3.1.0",
    "svelte": "4.2.19",
    "vite": "5.4.18"
  },
  "dependencies": {
    "@auth/sveltekit": "latest"
  },
  "type": "module"
}
`,
  "src/auth.ts": `import { SvelteKitAuth } from "@auth/sveltekit"\nimport GitHub from "@auth/sveltekit/providers/github"\nexport const { handle, signIn, signOut } = SvelteKitAuth({ providers: [GitHub] })\n`,
  "src/app.d.ts": `/// <reference types="@auth/sveltekit" />\nexport {}\n`,
  "src/lib/header.svelte": `<script lang="ts">\n  import { SignIn } from "@auth/sveltekit/components"\n</script>\n<SignIn provider="github" />\n`,
}

const range = (pkg: string, peer: string): string => workspace.peers[pkg]?.[peer] ?? ""

describe("peer ranges", () => {
  it("are read from our packages: Svelte 5 and Next.js 16 are required, React 18.2 and SvelteKit 2.0 are enough", () => {
    expect(workspace.peers["@portcullis/sveltekit"]).toMatchObject({ svelte: "^5.0.0", "@sveltejs/kit": "^2.0.0" })
    expect(workspace.peers["@portcullis/nextjs"]).toMatchObject({ next: "^16", react: "^18.2.0 || ^19.0.0" })
  })
})

describe("a framework version our peer ranges refuse", () => {
  it("Svelte 4 (Auth.js's SvelteKit example): exits 1 with the step, and no file changes", async () => {
    const dir = writeProject(SVELTE_4_APP)
    const before = treeHash(dir)
    const { code, stdout, stderr } = await runBin([dir])
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toBe(
      "Nothing was changed: npm would refuse to install Portcullis beside this version of the app's frameworks. First:\n" +
        `  package.json:7:5: upgrade Svelte to 5 first: \`npx sv migrate svelte-5\` (@portcullis/sveltekit needs svelte@^5.0.0; package.json asks for svelte@4.2.19)\n` +
        "Then run the codemod again.\n",
    )
    expect(treeHash(dir)).toBe(before)
  })

  it("Svelte 4 in a dry run: the same refusal, exit 1", async () => {
    const dir = writeProject(SVELTE_4_APP)
    const { code, stderr } = await runBin(["--dry-run", dir])
    expect(code).toBe(1)
    expect(stderr).toContain("upgrade Svelte to 5 first: `npx sv migrate svelte-5`")
  })

  it("Svelte 5 and SvelteKit 2.8 migrate", () => {
    const dir = writeProject({ ...SVELTE_4_APP, "package.json": SVELTE_4_APP["package.json"].replace(`"svelte": "4.2.19"`, `"svelte": "^5.1.0"`) })
    const report = migrate({ dir, now: NOW })
    expect(report.blockers).toEqual([])
    expect(report.changed.map(({ file }) => file)).toEqual(["package.json", "src/app.d.ts", "src/auth.ts", "src/lib/header.svelte"])
  })

  it("Svelte 4 installed under a range that keeps it (^4 || ^5 with a lockfile's 4.2.19): stops, naming what is installed", () => {
    const dir = writeProject({
      ...SVELTE_4_APP,
      "package.json": SVELTE_4_APP["package.json"].replace(`"svelte": "4.2.19"`, `"svelte": "^4.2.0 || ^5.0.0"`),
      "node_modules/svelte/package.json": `{ "name": "svelte", "version": "4.2.19" }`,
    })
    const before = treeHash(dir)
    const report = migrate({ dir, now: NOW })
    expect(report.blockers.map(({ step }) => step)).toEqual([`upgrade Svelte to 5 first: \`npx sv migrate svelte-5\` (@portcullis/sveltekit needs svelte@^5.0.0; package.json asks for svelte@^4.2.0 || ^5.0.0, 4.2.19 is installed)`])
    expect(report.changed).toEqual([])
    expect(treeHash(dir)).toBe(before)
  })

  it("Next.js 15 (next-auth v5 ran on it): stops with Next.js's upgrade", () => {
    const dir = writeProject({ "package.json": `{\n  "dependencies": {\n    "next": "^15.1.0",\n    "next-auth": "5.0.0-beta.25",\n    "react": "^19.0.0"\n  }\n}\n`, "auth.ts": `import NextAuth from "next-auth"\nexport const { auth } = NextAuth({ providers: [] })\n` })
    const before = treeHash(dir)
    const report = migrate({ dir, now: NOW })
    expect(report.blockers).toEqual([{ file: "package.json", line: 3, column: 5, step: `upgrade Next.js to 16 first: \`npx @next/codemod@canary upgrade latest\` (@portcullis/nextjs needs next@^16; package.json asks for next@^15.1.0)` }])
    expect(report.legacySessionCookies).toEqual([])
    expect(treeHash(dir)).toBe(before)
  })

  it("next@canary (Auth.js's Next.js example): stops, since npm counts no prerelease as inside ^16", () => {
    const report = migrate({ dir: writeProject({ "package.json": `{ "dependencies": { "next": "canary", "next-auth": "beta", "react": "^18.2.0" } }` }), now: NOW })
    expect(report.blockers.map(({ step }) => step)).toEqual([expect.stringMatching(/^pin a release of next first: `npm install next@"\^16"` \("canary" installs a prerelease/)])
  })

  it("React 18.2 with Next.js 16 migrates; React 18.1 stops", () => {
    const app = (react: string) => writeProject({ "package.json": `{ "dependencies": { "next": "16.1.0", "next-auth": "beta", "react": "${react}", "react-dom": "${react}" } }` })
    expect(migrate({ dir: app("^18.2.0"), now: NOW }).blockers).toEqual([])
    expect(migrate({ dir: app("18.1.0"), now: NOW }).blockers.map(({ step }) => step)).toEqual([`upgrade react to ^18.2.0 || ^19.0.0 first: \`npm install react@"^18.2.0 || ^19.0.0" react-dom@"^18.2.0 || ^19.0.0"\` (@portcullis/nextjs needs react@^18.2.0 || ^19.0.0; package.json asks for react@18.1.0)`])
  })

  it("SvelteKit 1: stops with SvelteKit's migration", () => {
    const report = migrate({ dir: writeProject({ "package.json": `{ "devDependencies": { "@sveltejs/kit": "^1.30.0", "svelte": "^5.0.0" }, "dependencies": { "@auth/sveltekit": "^1.0.0" } }` }), now: NOW })
    expect(report.blockers.map(({ step }) => step)).toEqual([expect.stringMatching(/^upgrade SvelteKit to 2 first: `npx sv migrate sveltekit-2`/)])
  })

  it("an app that does not use Auth.js, or is already migrated, is never stopped", () => {
    expect(migrate({ dir: writeProject({ "package.json": `{ "dependencies": { "svelte": "^4.0.0", "@portcullis/sveltekit": "^0.1.0" } }` }), now: NOW }).blockers).toEqual([])
  })
})

describe("peerBlocker", () => {
  const svelte = { name: "svelte", range: range("@portcullis/sveltekit", "svelte"), by: "@portcullis/sveltekit" }
  it.each([
    ["^5.0.0", undefined],
    ["5.1.0", undefined],
    [">=4", undefined],
    ["*", undefined],
    ["latest", undefined],
    ["workspace:*", undefined],
    ["npm:svelte@4.2.19", undefined],
  ])("lets svelte@%s through (npm can install a Svelte 5)", (declared) => {
    expect(peerBlocker({ ...svelte, declared })).toBeUndefined()
  })

  it.each(["4.2.19", "^4.0.0", "~3.59.0", "next", "5.0.0-next.100"])("stops svelte@%s", (declared) => {
    expect(peerBlocker({ ...svelte, declared })).toBeDefined()
  })

  it("judges by what is installed when the spec cannot tell (an alias, latest with an old lockfile)", () => {
    expect(peerBlocker({ ...svelte, declared: "npm:svelte@4.2.19", installed: "4.2.19" })).toContain("4.2.19 is installed")
    expect(peerBlocker({ ...svelte, declared: "latest", installed: "4.2.19" })).toContain("upgrade Svelte to 5 first")
    expect(peerBlocker({ ...svelte, installed: "4.2.19" })).toContain("upgrade Svelte to 5 first")
    // npm replaces an installed version the app's own range no longer accepts.
    expect(peerBlocker({ ...svelte, declared: "^5.0.0", installed: "4.2.19" })).toBeUndefined()
  })
})
