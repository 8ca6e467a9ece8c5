/**
 * The `auth` route middleware: a page with `definePageMeta({ middleware: "auth" })` is shown only
 * with a session; without one the browser goes to the sign-in page and back. In the browser it
 * reads the session again before each protected page, so a client navigation sees a sign-out
 * made elsewhere.
 *
 * @module
 */
import { defineNuxtRouteMiddleware, navigateTo, useNuxtApp } from "#imports"
import { useBasePath, useSession } from "./composables.js"

export default defineNuxtRouteMiddleware(async (to) => {
  const basePath = useBasePath()
  const hydrating = useNuxtApp().isHydrating === true
  const { data, refresh } = useSession()
  if (import.meta.client && !hydrating) await refresh()
  if (data.value !== null) return
  return navigateTo(`${basePath}/signin?${new URLSearchParams({ callbackUrl: to.fullPath }).toString()}`, { external: true })
})
