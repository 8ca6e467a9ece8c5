/**
 * What a refused or weak `secret` is told, in words: fetched only when `secret-strength.ts`
 * finds a placeholder or a weak secret, so an app with a strong one never loads these sentences.
 */
import { MIN_DISTINCT, STRONG_SECRET_BITS, type SecretWeakness } from "./secret-strength.js"

/** A weakness as a sentence naming no part of the secret. */
export function describeWeakness(weakness: SecretWeakness): string {
  if ("word" in weakness) return `it contains the word "${weakness.word}"`
  if ("distinct" in weakness) return `it has fewer than ${String(MIN_DISTINCT)} different characters`
  return `it is estimated at ${String(weakness.bits)} bits, under ${String(STRONG_SECRET_BITS)}`
}

/** The warning about a weak secret, naming where it was set; with `production`, the refusal. */
export function weakSecretAdvice(option: string, weakness: SecretWeakness, production: boolean): string {
  const advice = `${option} is weak (${describeWeakness(weakness)}; see "The secret" in @portcullis/core's README): generate one with \`openssl rand -base64 32\`.`
  return production ? `${advice} With NODE_ENV=production a weak secret is refused.` : advice
}

/** The sentence that refuses a placeholder secret, naming where it was set. */
export function placeholderRefusal(option: string): string {
  return `${option} is the placeholder our documentation shows, which anyone can read and so use to mint sessions: set it to the output of \`openssl rand -base64 32\`.`
}
