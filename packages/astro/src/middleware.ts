/**
 * The middleware the integration adds before the app's own: `Astro.locals.auth()`, the session
 * of the request, read once however often it is called.
 *
 * @module middleware
 */
import type { Session } from "@portcullis/core"
import type { MiddlewareHandler } from "astro"
import { getSession } from "./server.js"

/** Sets `locals.auth()`; a prerendered page has no visitor, so its session is `null`. */
export const onRequest: MiddlewareHandler = (context, next) => {
  let session: Promise<Session | null> | undefined
  context.locals.auth = () => (session ??= context.isPrerendered ? Promise.resolve(null) : getSession(context))
  return next()
}
