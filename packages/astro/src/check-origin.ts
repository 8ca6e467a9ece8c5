/**
 * Astro's own origin check, for an app that turned `security.checkOrigin` off (`checkOrigin: true`
 * in the integration's options): Astro's rule on every request but the two posts that come from
 * elsewhere by design, a provider's `form_post` callback (from its origin) and its back-channel
 * logout (from its server, without `Origin`). Core checks both itself: the callback's state and
 * PKCE, a logout token signed by the provider for this client and used once.
 *
 * @module check-origin
 */
import type { MiddlewareHandler } from "astro"
import { basePath } from "portcullis:config"

/** The content types a browser's form (or a no-CORS fetch) may post cross-site, as Astro lists them. */
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]

/** Where core takes the posts of another origin, with its own checks. */
const CROSS_SITE_ROUTES = [`${basePath}/callback/`, `${basePath}/backchannel-logout/`]

/** Astro's check (a `403` for a cross-site form post, or a post with no content type from another origin), but for core's two routes. */
export const onRequest: MiddlewareHandler = ({ request, url, isPrerendered }, next) => {
  if (isPrerendered || ["GET", "HEAD", "OPTIONS"].includes(request.method)) return next()
  if (request.method === "POST" && CROSS_SITE_ROUTES.some((route) => url.pathname.startsWith(route))) return next()
  const type = request.headers.get("content-type")
  const formLike = type === null || FORM_TYPES.some((form) => type.toLowerCase().includes(form))
  if (formLike && request.headers.get("origin") !== url.origin) return new Response(`Cross-site ${request.method} form submissions are forbidden`, { status: 403 })
  return next()
}
