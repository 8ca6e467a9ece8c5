/**
 * The `auth` route middleware: a page with `definePageMeta({ middleware: "auth" })` is shown only
 * with a session; without one the browser goes to the sign-in page and back. In the browser it
 * reads the session again before each protected page, so a client navigation sees a sign-out
 * made elsewhere.
 *
 * @module
 */
import { defineNuxtRouteMiddleware, navigateTo, useNuxtApp } from "#imports"
import type { RouteMiddleware } from "nuxt/app"
import { useBasePath, useSession } from "./composables.js"

// Typed by name: the inferred type would name a path inside pnpm's store, which a declaration cannot.
const middleware: RouteMiddleware = defineNuxtRouteMiddleware(async (to) => {
  const basePath = useBasePath()
  const hydrating = useNuxtApp().isHydrating === true
  const { data, refresh } = useSession()
  if (import.meta.client && !hydrating) await refresh()
  if (data.value !== null) return
  return navigateTo(`${basePath}/signin?${new URLSearchParams({ callbackUrl: to.fullPath }).toString()}`, { external: true })
})

export default middleware
