"use client"
/**
 * `@portcullis/nextjs/react`: the session in client components. `SessionProvider` holds it,
 * `useSession()` reads it, and `signIn` / `signOut` are `@portcullis/core/client`'s.
 *
 * @example
 * ```tsx
 * "use client"
 * import { useSession, signIn } from "@portcullis/nextjs/react"
 * export function Who() {
 *   const { data, status } = useSession()
 *   return status === "authenticated" ? <p>{data.user?.name}</p> : <button onClick={() => signIn("github")}>Sign in</button>
 * }
 * ```
 *
 * @module react
 */
import { configureClient, getSession, updateSession, type ClientSession } from "@portcullis/core/client"
import { createContext, createElement, useCallback, useContext, useEffect, useMemo, useState, type ReactElement, type ReactNode } from "react"

export { getCsrfToken, getProviders, getSession, signIn, signOut } from "@portcullis/core/client"
export type { ClientOptions, ClientSession, NavigationResult, SignInOptions } from "@portcullis/core/client"

/**
 * `useSession()`'s `update`: without `data`, re-reads the session; with it, sends it to the server
 * (`POST /session`, as next-auth's `update(data)`), where the `jwt` callback gets it as `session`
 * with `trigger: "update"`. Resolves to the session as it is now, `null` when signed out or failed.
 */
export type UpdateSession = (data?: unknown) => Promise<ClientSession | null>

/** What `useSession()` returns. */
export type SessionContextValue =
  | { data: ClientSession; status: "authenticated"; update: UpdateSession }
  | { data: null; status: "unauthenticated" | "loading"; update: UpdateSession }

const SessionContext = createContext<SessionContextValue | undefined>(undefined)

/** Where `useSession({ required: true })` sends a signed-out visitor: the provider's `basePath`. */
let signInBase = "/api/auth"

/** Props of {@link SessionProvider}. */
export interface SessionProviderProps {
  children: ReactNode
  /** The session the server already read (`await auth()`), so the first render needs no fetch. */
  session?: ClientSession | null
  /** Where the routes are served. Default `/api/auth`. */
  basePath?: string
  /** Re-reads the session every so many seconds; `0` (the default) never does. */
  refetchInterval?: number
  /** Re-reads the session when the tab becomes visible again. Default `true`. */
  refetchOnWindowFocus?: boolean
}

function valueOf(session: ClientSession | null | undefined, update: SessionContextValue["update"]): SessionContextValue {
  if (session === undefined) return { data: null, status: "loading", update }
  if (session === null) return { data: null, status: "unauthenticated", update }
  return { data: session, status: "authenticated", update }
}

/**
 * Holds the session for `useSession()` below it, reading `GET /session` when no `session` prop
 * is given, on focus, and every `refetchInterval` seconds.
 */
// An element, not `ReactNode`: @types/react before 18.2.8 accepts no other return type for a JSX component.
export function SessionProvider({ children, session: initial, basePath, refetchInterval = 0, refetchOnWindowFocus = true }: SessionProviderProps): ReactElement {
  if (basePath !== undefined) {
    configureClient({ basePath })
    signInBase = basePath.replace(/\/+$/, "")
  }
  const [session, setSession] = useState<ClientSession | null | undefined>(initial)
  const update = useCallback(async (data?: unknown) => {
    const options = basePath === undefined ? undefined : { basePath }
    const fresh = await (data === undefined ? getSession(options) : updateSession(data, options)).catch(() => null)
    setSession(fresh)
    return fresh
  }, [basePath])
  useEffect(() => {
    if (initial === undefined) void update()
  }, [initial, update])
  useEffect(() => {
    if (!refetchOnWindowFocus) return undefined
    const onVisible = () => {
      if (document.visibilityState === "visible") void update()
    }
    document.addEventListener("visibilitychange", onVisible)
    return () => { document.removeEventListener("visibilitychange", onVisible) }
  }, [refetchOnWindowFocus, update])
  useEffect(() => {
    if (refetchInterval <= 0) return undefined
    const timer = setInterval(() => void update(), refetchInterval * 1000)
    return () => { clearInterval(timer) }
  }, [refetchInterval, update])
  const value = useMemo(() => valueOf(session, update), [session, update])
  return createElement(SessionContext.Provider, { value }, children)
}

/**
 * The session from the nearest {@link SessionProvider}. With `required: true`, a signed-out
 * visitor is sent to sign in (or `onUnauthenticated` is called).
 *
 * @throws Error when called outside a `SessionProvider`.
 */
export function useSession(options: { required?: boolean; onUnauthenticated?: () => void } = {}): SessionContextValue {
  const value = useContext(SessionContext)
  if (value === undefined) throw new Error("useSession() must be called inside <SessionProvider>.")
  const { required = false, onUnauthenticated } = options
  useEffect(() => {
    if (!required || value.status !== "unauthenticated") return
    if (onUnauthenticated !== undefined) onUnauthenticated()
    else location.assign(`${signInBase}/signin?${new URLSearchParams({ callbackUrl: location.href }).toString()}`)
  }, [required, onUnauthenticated, value.status])
  return value
}
