/** Svelte components: the `<script>` blocks are migrated in place, the markup is left byte for byte. */
import { describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { NOW, readProjectFile, writeProject } from "./projects.js"

const HEADER = `<script lang="ts">
  import { SignIn, SignOut } from "@auth/sveltekit/components"
  import { page } from "$app/stores"
</script>

<!-- <script>import "@auth/sveltekit"</script> stays: it is a comment -->
<header>
  {#if $page.data.session}
    <SignOut><span slot="submitButton">Sign out</span></SignOut>
  {:else}
    <SignIn provider="github" />
  {/if}
</header>

<style>
  header { content: "<script>" }
</style>
`

describe(".svelte components", () => {
  it("rewrites the imports of a component's script and leaves its markup, comments and style as they are", () => {
    const dir = writeProject({ "src/lib/header.svelte": HEADER })
    const report = migrate({ dir, now: NOW })
    expect(report.changed.map(({ file }) => file)).toEqual(["src/lib/header.svelte"])
    expect(readProjectFile(dir, "src/lib/header.svelte")).toBe(HEADER.replace(`from "@auth/sveltekit/components"`, `from "@portcullis/sveltekit/components"`))
  })

  it.each([
    ['<script context="module">', "</script>"],
    ["<script module>", "</script>"],
    ["<script lang='ts' context=module>", "</script>"],
    ['<script lang="ts" generics="T extends Record<string, unknown>">', "</script>"],
    ["<SCRIPT type=text/javascript>", "</SCRIPT>"],
  ])("reads %s blocks", (open, close) => {
    const text = `${open}\n  import { signIn } from "@auth/sveltekit/client"\n${close}\n<button on:click={() => signIn("github")}>Sign in</button>\n`
    const dir = writeProject({ "src/routes/+page.svelte": text })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "src/routes/+page.svelte")).toBe(text.replace("@auth/sveltekit/client", "@portcullis/sveltekit/client"))
  })

  it("reads both the module and the instance script of one component", () => {
    const text = `<script context="module" lang="ts">\n  export type { Session } from "@auth/sveltekit"\n</script>\n\n<script lang="ts">\n  import { signOut } from "@auth/sveltekit/client"\n  let { data } = $props()\n</script>\n\n<p>{data.session?.user?.name}</p>\n`
    const dir = writeProject({ "src/routes/+layout.svelte": text })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "src/routes/+layout.svelte")).toBe(text.replace(`from "@auth/sveltekit"`, `from "@portcullis/sveltekit"`).replace("@auth/sveltekit/client", "@portcullis/sveltekit/client"))
  })

  it("names the component's own line and column in a manual step, after non-ASCII markup", () => {
    const text = `<h1>Connexion 🔐 — é</h1>\n<script>\n  import { signIn } from "@auth/sveltekit/webauthn"\n</script>\n`
    const report = migrate({ dir: writeProject({ "src/routes/+page.svelte": text }), now: NOW })
    expect(report.manual.map(({ file, line, column }) => `${file}:${String(line)}:${String(column)}`)).toEqual(["src/routes/+page.svelte:3:26"])
  })

  it("names a component whose script does not parse, and writes nothing", () => {
    const dir = writeProject({ "src/auth.ts": `import { SvelteKitAuth } from "@auth/sveltekit"\n`, "src/routes/+page.svelte": `<p>hi</p>\n<script lang="ts">\n  import { signIn } from "@auth/sveltekit/client"\n  const x = {\n</script>\n` })
    const report = migrate({ dir, now: NOW })
    expect(report.parseErrors.map(({ file }) => file)).toEqual(["src/routes/+page.svelte"])
    expect(report.written).toBe(false)
    expect(readProjectFile(dir, "src/auth.ts")).toBe(`import { SvelteKitAuth } from "@auth/sveltekit"\n`)
  })

  it("counts TypeScript in a script without lang=\"ts\" as a parse error, as Svelte does", () => {
    const report = migrate({ dir: writeProject({ "a.svelte": `<script>\n  let x: number = 1\n</script>\n` }), now: NOW })
    expect(report.parseErrors.map(({ file }) => file)).toEqual(["a.svelte"])
  })

  it("reads no <script> of the page's head or of a markup expression as the component's", () => {
    const text = `<svelte:head>\n  <script type="application/ld+json">{ "@context": "https://schema.org" }</script>\n</svelte:head>\n<p>{@html "<script>not code {</script>"}</p>\n<script lang="ts">\n  import { signIn } from "@auth/sveltekit/client"\n</script>\n`
    const dir = writeProject({ "src/routes/+page.svelte": text })
    const report = migrate({ dir, now: NOW })
    expect(report.parseErrors).toEqual([])
    expect(readProjectFile(dir, "src/routes/+page.svelte")).toBe(text.replace("@auth/sveltekit/client", "@portcullis/sveltekit/client"))
  })

  it("leaves a component without Auth.js, or without a script, alone", () => {
    const dir = writeProject({ "a.svelte": `<script>\n  import { onMount } from "svelte"\n</script>\n<p>a</p>\n`, "b.svelte": `<p>{"@auth/sveltekit"}</p>\n` })
    expect(migrate({ dir, now: NOW }).changed).toEqual([])
  })
})
