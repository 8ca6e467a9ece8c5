/**
 * A short, human description of a device from its user agent ("Chrome on macOS", "Safari on
 * iPhone"), for the user's list of sessions. Deliberately small: the few browsers and systems
 * people recognise, in the order their user agents must be told apart (Edge and Opera say
 * "Chrome", Chrome says "Safari", an iPad may say "Macintosh"); anything else is "Unknown device".
 * The answer is always one of the fixed names below, never text from the header.
 */

/** Browsers, first match wins: each token appears in its own user agent and in none listed after it. */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/Chrome\/|\bCriOS\/|\bChromium\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
]

/** Systems, first match wins (an iPhone's user agent also says "like Mac OS X"). */
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
]

/** The longest user agent looked at: records keep 256 characters, and no pattern needs more. */
const MAX_LENGTH = 512

function first(table: readonly (readonly [RegExp, string])[], agent: string): string | undefined {
  return table.find(([pattern]) => pattern.test(agent))?.[1]
}

/**
 * Describes a device: "<browser> on <system>", the one that is known, or "Unknown device".
 *
 * @example
 * ```ts
 * describeDevice("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0") // "Firefox on Linux"
 * ```
 */
export function describeDevice(userAgent: string | null | undefined): string {
  if (typeof userAgent !== "string" || userAgent === "") return "Unknown device"
  const agent = userAgent.slice(0, MAX_LENGTH)
  const browser = first(BROWSERS, agent)
  const system = first(SYSTEMS, agent)
  if (browser !== undefined && system !== undefined) return `${browser} on ${system}`
  return browser ?? system ?? "Unknown device"
}
