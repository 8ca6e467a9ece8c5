/**
 * Whether a `secret` may seal sessions: never one of the placeholders our documentation has
 * shown (anyone can read them, so anyone could mint a session), and strong enough to resist a
 * guess. The test is here; what a refusal says is in `secret-refusals.ts`, fetched only when a
 * secret is refused or warned about. Shared by `Auth()`'s configuration and `@portcullis/core/jwt`, which apps call
 * standalone; both refuse a placeholder, and the configuration warns on a weak secret (refused
 * under `NODE_ENV=production`).
 *
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html NIST SP 800-63B-4 §3.1.1.2 (values known to be expected are refused)
 * @module
 */

/**
 * Every value our docs, examples and READMEs have ever shown for `secret` / `AUTH_SECRET`,
 * published ones included (an npm page keeps an old README). A test reads every doc in the
 * repository and fails on a value shown there that is missing here.
 */
export const PLACEHOLDER_SECRETS: readonly string[] = ["replace-me-with-the-output-of-openssl-rand-base64-32", "..."]

/** What `openssl rand -base64 32` gives, and the least a secret is estimated at to count as strong. */
export const STRONG_SECRET_BITS = 256

/** Words that give away a value chosen by a person (or copied from a page), whatever surrounds them. */
const GIVEAWAYS = ["secret", "password", "passwd", "changeme", "change-me", "replace", "example", "placeholder", "default"]

/** Fewer different characters than this and a value is a repetition, whatever its length. */
export const MIN_DISTINCT = 10

/** How a value a secret generator may write is read: its alphabet, from the smallest up. */
const ALPHABETS: readonly { test: RegExp; bits: number }[] = [
  { test: /^(?:[0-9a-f]+|[0-9A-F]+)$/, bits: 4 },
  { test: /^(?=.*[a-z])(?=.*[A-Z])[A-Za-z0-9+/_-]+$/, bits: 6 },
  { test: /^(?=.*[a-z])(?=.*[A-Z])[\x20-\x7e]+$/, bits: Math.log2(95) },
]

/** Bits a character of text in one case (words, a sentence) is counted at. */
const TEXT_BITS = 2

/**
 * The length of the block `value` repeats, when it is two or more copies of one (`abcabcab` is
 * `abc`); else its length. A random value is never counted short: it would need to repeat its
 * first half.
 */
function repeatedBlock(value: string): number {
  // The longest proper prefix that is also a suffix (the prefix function's last value).
  const border = new Array<number>(value.length).fill(0)
  for (let i = 1, k = 0; i < value.length; i++) {
    while (k > 0 && value[i] !== value[k]) k = border[k - 1] ?? 0
    if (value[i] === value[k]) k++
    border[i] = k
  }
  const period = value.length - (border.at(-1) ?? 0)
  return period * 2 <= value.length ? period : value.length
}

/**
 * The estimated strength of a secret in bits: the length of what it does not repeat (trailing
 * base64 `=` padding left out), times the bits of the alphabet it is written in: 4 for
 * hexadecimal, 6 for base64 or base64url mixing upper and lower case, log2(95) for printable
 * ASCII mixing them, and 2 for anything else (text in one case reads like words).
 */
export function estimateSecretBits(secret: string): number {
  const value = secret.replace(/=+$/, "")
  const bits = ALPHABETS.find((alphabet) => alphabet.test.test(value))?.bits ?? TEXT_BITS
  return Math.floor(repeatedBlock(value) * bits)
}

/** Why a secret is weak: a word that gives a chosen value away, too few different characters, or too few estimated bits. */
export type SecretWeakness = { word: string } | { distinct: number } | { bits: number }

/**
 * Why a secret is weak, or `undefined` when it is strong: it is weak when it contains a word
 * that gives a chosen value away (`secret`, `password`, `changeme`, `replace`, `example`,
 * `placeholder`, `default`...), has fewer than {@link MIN_DISTINCT} different characters, or is
 * estimated under {@link STRONG_SECRET_BITS} bits ({@link estimateSecretBits}). What it says in
 * words (`secret-refusals.ts`) is fetched only for a weak one.
 *
 * @example
 * ```ts
 * secretWeakness("my-app-session-key-for-production-2026") // { bits: 76 }
 * secretWeakness(randomBytes(32).toString("base64")) // undefined
 * ```
 */
export function secretWeakness(secret: string): SecretWeakness | undefined {
  const lower = secret.toLowerCase()
  const word = GIVEAWAYS.find((giveaway) => lower.includes(giveaway))
  if (word !== undefined) return { word }
  const distinct = new Set(secret).size
  if (distinct < MIN_DISTINCT) return { distinct }
  const bits = estimateSecretBits(secret)
  return bits < STRONG_SECRET_BITS ? { bits } : undefined
}

/** Whether `secret` is one of the placeholders our documentation shows. */
export function isPlaceholderSecret(secret: string): boolean {
  return PLACEHOLDER_SECRETS.includes(secret.trim())
}
