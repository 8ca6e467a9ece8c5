/**
 * The warning for a `redirect` callback that answered an origin the app does not admit. Its own
 * module, fetched only when that happens, so an app whose callback behaves never loads it.
 */
import type { InternalConfig } from "../internal.js"
import type { RequestContext } from "../internal.js"

/** Foreign origins a `redirect` callback answered, warned about once each, per configuration. */
const warned = new WeakMap<InternalConfig, Set<string>>()
/** Requests choose the origins a careless callback answers: the record of warnings stays this small. */
const MAX_WARNED_ORIGINS = 100

/** Warns, once per foreign `origin` and configuration (up to a bound), that the browser was sent to the request's origin instead. */
export function warnForeignOrigin(context: RequestContext, origin: string): void {
  let seen = warned.get(context.config)
  if (seen === undefined) warned.set(context.config, (seen = new Set()))
  if (seen.has(origin) || seen.size >= MAX_WARNED_ORIGINS) return
  seen.add(origin)
  // The origin alone: the URL's path or query may carry anything the request put there.
  context.config.logger.warn(
    "RedirectOffOrigin",
    `The \`redirect\` callback answered a URL on ${origin}, not an origin of this app (\`url\`, \`allowedOrigins\`): sent the browser to ${context.origin}. Compare \`new URL(url, baseUrl).origin\` with \`baseUrl\`, never \`url.startsWith(baseUrl)\`; list other origins of yours in \`allowedOrigins\`.`,
  )
}
