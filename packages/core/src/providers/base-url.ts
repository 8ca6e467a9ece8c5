import { Configuration } from "../errors/errors.js"
import { isLoopbackAddress } from "../http/loopback.js"

/**
 * Reads a provider option that names where the provider lives (GitHub Enterprise's `baseUrl`,
 * a self-hosted GitLab, Webex's `apiBaseUrl`): an https URL, or plain http on a loopback address
 * for a local server, returned without its trailing slashes so that a path can follow it.
 *
 * @throws {Configuration} naming the provider and the option when the value is not such a URL.
 * @example
 * ```ts
 * const api = baseUrlOption("webex", "apiBaseUrl", config.apiBaseUrl) ?? "https://webexapis.com/v1"
 * ```
 */
export function baseUrlOption(id: string, option: string, value: unknown): string | undefined {
  if (value === undefined) return undefined
  const text = value instanceof URL ? value.href : value
  const url = typeof text === "string" && URL.canParse(text) ? new URL(text) : undefined
  if (url === undefined || !(url.protocol === "https:" || (url.protocol === "http:" && isLoopbackAddress(url.hostname))) || url.search !== "" || url.hash !== "") {
    throw new Configuration(`Provider "${id}": \`${option}\` must be an https URL without a query (plain http only on a loopback address), such as https://example.com.`)
  }
  return url.href.replace(/\/+$/, "")
}
