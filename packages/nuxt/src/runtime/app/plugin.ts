/**
 * Reads the session once per server-side render into the state `useSession()` shares, which the
 * payload carries to the browser; points core's client helpers at the module's `basePath`.
 *
 * @module
 */
import { defineNuxtPlugin } from "#imports"
import { configureClient } from "@portcullis/core/client"
import type { Plugin } from "nuxt/app"
import { useBasePath, useSession } from "./composables.js"

// Typed by name: the inferred type would name a path inside pnpm's store, which a declaration cannot.
const plugin: Plugin = defineNuxtPlugin({
  name: "portcullis",
  enforce: "pre",
  async setup(nuxtApp) {
    const basePath = useBasePath()
    const { refresh } = useSession()
    if (import.meta.server) {
      await refresh()
      return
    }
    configureClient({ basePath })
    // A page the server did not render (`ssr: false`) has no session in its payload.
    if (!nuxtApp.payload.serverRendered) await refresh()
  },
})

export default plugin
