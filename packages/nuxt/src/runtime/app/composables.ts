/**
 * The app side: the session as Nuxt state (read on the server for the first page, kept through
 * client navigation), and the browser's sign-in and sign-out through core's client helpers.
 *
 * @module
 */
import { computed, useRequestEvent, useRuntimeConfig, useState } from "#imports"
import type { Session } from "@portcullis/core"
import { getSession, signIn as clientSignIn, signOut as clientSignOut, type NavigationResult, type SignInOptions } from "@portcullis/core/client"
import type { H3Event } from "h3"
import type { ComputedRef, Ref } from "vue"

export type { NavigationResult, SignInOptions } from "@portcullis/core/client"

/** What {@link useSession} returns. */
export interface UseSessionResult {
  /** The session, or `null` when signed out: the server's read for the first page, shared by every component. */
  data: Ref<Session | null>
  status: ComputedRef<"authenticated" | "unauthenticated">
  /** Reads the session again (on the server through `auth(event)`, in the browser from `GET {basePath}/session`). */
  refresh: () => Promise<Session | null>
}

/** What the module's Nitro plugin puts on each event for the app's server-side render. */
interface EventContext {
  portcullis?: { auth: () => Promise<Session | null> }
}

const STATE = "portcullis:session"

/** The module's `basePath`, from the public runtime config the module writes (in a plugin, middleware or component). */
export function useBasePath(): string {
  // The module's augmentation types it in the app; the runtime's own declaration build does not see it.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  return (useRuntimeConfig().public.portcullis as { basePath: string }).basePath
}

/** The browser's one app's session state, for `signIn` and `signOut` called outside a component. */
let browserState: Ref<Session | null> | undefined

/**
 * The session, shared by every component and page: rendered on the server and kept through
 * client navigation. `refresh()` reads it again; the `auth` middleware does before each
 * protected page in the browser.
 *
 * @example
 * ```vue
 * <script setup>
 * const { data: session } = useSession()
 * </script>
 * <template><p v-if="session">Signed in as {{ session.user?.email }}</p></template>
 * ```
 */
export function useSession(): UseSessionResult {
  const data = useState<Session | null>(STATE, () => null)
  // The event is only reachable now, in the component's or plugin's synchronous set-up.
  const event: H3Event | undefined = import.meta.server ? useRequestEvent() : undefined
  if (import.meta.client) browserState = data
  const refresh = async (): Promise<Session | null> => {
    const reader = (event?.context as EventContext | undefined)?.portcullis
    data.value = import.meta.server ? ((await reader?.auth()) ?? null) : await getSession()
    return data.value
  }
  return { data, status: computed(() => (data.value ? "authenticated" : "unauthenticated")), refresh }
}

/** Reads the session into the state after a sign-in or sign-out that did not navigate. */
async function settle(result: NavigationResult | undefined): Promise<NavigationResult | undefined> {
  if (result !== undefined && browserState !== undefined) browserState.value = await getSession()
  return result
}

/**
 * Starts a sign-in from the browser (core's client `signIn`): to the provider, the "check your
 * email" page, or with a credentials provider's fields, back to `callbackUrl` signed in; a
 * passkey provider runs the ceremony. With `redirect: false` nothing navigates: the result says
 * where the server sent the browser, and the session state is read again.
 */
export async function signIn(providerId?: string, options?: SignInOptions, authorizationParams?: Record<string, string>): Promise<NavigationResult | undefined> {
  return settle(await clientSignIn(providerId, options, authorizationParams))
}

/** Signs out from the browser (core's client `signOut`, CSRF-checked) and goes to `callbackUrl`, or with `redirect: false` reads the session state again. */
export async function signOut(options?: { callbackUrl?: string; redirect?: boolean }): Promise<NavigationResult | undefined> {
  return settle(await clientSignOut(options))
}
