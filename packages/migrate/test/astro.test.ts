/** Astro and Vue components: the frontmatter and `<script>` blocks are migrated in place, the markup is left byte for byte. */
import { describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { migrateSpecifier } from "../src/modules.js"
import { NOW, readProjectFile, writeProject } from "./projects.js"

// Generics and braces in the frontmatter, an emoji (two UTF-16 units) and a markup expression before the script.
const PAGE = `---
import { getSession } from "auth-astro/server"
import type { Session } from "@auth/core/types"
const roles: Array<string> = ["admin"]
const session: Session | null = await getSession(Astro.request)
---
<!-- <script>import "auth-astro/client"</script> stays: it is a comment -->
<p>🔐 {session ? \`Hi \${session.user?.name}\` : "<script>"}</p>
<script>
  import { signIn } from "auth-astro/client"
  document.querySelector("button")?.addEventListener("click", () => signIn("github"))
</script>
<style>p { content: "<script>" }</style>
`

const COMPONENT = `<script setup lang="ts">
import { signIn, signOut } from "auth-astro/client"
</script>

<template>
  <button @click="() => signIn('github')">{{ "<script>" }}</button>
</template>
`

describe(".astro and .vue components", () => {
  it("rewrites the imports of an Astro page's frontmatter and script and leaves its markup, comments and style as they are", () => {
    const dir = writeProject({ "src/pages/index.astro": PAGE })
    const report = migrate({ dir, now: NOW })
    expect(report.parseErrors).toEqual([])
    expect(report.manual).toEqual([])
    expect(readProjectFile(dir, "src/pages/index.astro")).toBe(
      PAGE.replace(`"auth-astro/server"`, `"@portcullis/astro/server"`).replace(`"@auth/core/types"`, `"@portcullis/core/types"`).replace(`import { signIn } from "auth-astro/client"`, `import { signIn } from "@portcullis/astro/client"`),
    )
  })

  it("rewrites a Vue single-file component's script setup block", () => {
    const dir = writeProject({ "src/components/Buttons.vue": COMPONENT })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "src/components/Buttons.vue")).toBe(COMPONENT.replace(`"auth-astro/client"`, `"@portcullis/astro/client"`))
  })

  it("maps auth-astro's entries and its auth:config module to @portcullis/astro's, and names what has no counterpart", () => {
    expect(["auth-astro", "auth-astro/server", "auth-astro/client", "auth-astro/components", "auth:config"].map((specifier) => migrateSpecifier(specifier))).toEqual(
      ["@portcullis/astro", "@portcullis/astro/server", "@portcullis/astro/client", "@portcullis/astro/components", "portcullis:config"].map((to) => ({ kind: "rewrite", to })),
    )
    expect(migrateSpecifier("auth-astro/src/config")).toMatchObject({ kind: "manual" })
  })

  it("names AstroAuth, which @portcullis/astro/server does not export, as a manual step", () => {
    const dir = writeProject({ "src/pages/api/auth/[...auth].ts": `import { AstroAuth } from "auth-astro/server"\nexport const { GET, POST } = AstroAuth()\n` })
    const report = migrate({ dir, now: NOW })
    expect(report.manual.map(({ step }) => step)).toEqual([`"AstroAuth" is imported from "auth-astro/server", but @portcullis/astro/server does not export it: replace it by hand`])
  })
})
