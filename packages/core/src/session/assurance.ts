/**
 * A session's assurance (`session.assurance`): how its user authenticated, how strongly, when last,
 * and since when the session runs; kept by core where no callback reaches it, for both strategies.
 * A JWT session carries it in its `assurance` claim, restored after every `jwt` callback and
 * tagged with a MAC under a key derived from the secret: before the upgrade, an app's callback
 * written `{ ...token, ...session }` sealed whatever `update()` posted, so an untagged claim is
 * one core never wrote. A database session keeps it on its session record. A session that
 * predates it gets the lowest one, its sign-in time the moment of its first read after the upgrade.
 */
import { DEFAULT_REAUTH_AGE } from "../config/read.js"
import { boundedCache } from "../crypto/caches.js"
import { deriveKeys, hmac, verifyHmac, type SecretKey } from "../crypto/crypto.js"
import { MissingSecret } from "../errors/errors.js"
import type { SessionAssurance } from "../model.js"
import type { JWT, Session } from "../types.js"
import { SESSION_ID_CLAIM } from "./source.js"

/** The claim of a JWT session holding its assurance: reserved, as `sessionId` is. */
export const ASSURANCE_CLAIM = "assurance"

/** Seconds of clock skew forgiven between instances when an authentication time is compared with now. */
const CLOCK_SKEW = 15

/** The longest list of methods kept: more is no session core wrote. */
const MAX_METHODS = 16

/** Whether `methods` make a second level: two factors (`"mfa"`), or a passkey that verified its user. */
function levelOf(methods: readonly string[]): 1 | 2 {
  return methods.includes("mfa") || (methods.includes("hwk") && methods.includes("user")) ? 2 : 1
}

/** The assurance of a session that begins now, `now` in epoch seconds. */
export function newAssurance(methods: readonly string[], now: number): SessionAssurance {
  const kept = [...new Set(methods)]
  return { level: levelOf(kept), methods: kept, authTime: now, signedInAt: now }
}

/**
 * The assurance after a re-authentication or a second factor at `now`: `methods` added, the level
 * recomputed, `authTime` moved; `signedInAt` kept.
 */
export function raisedAssurance(assurance: SessionAssurance, methods: readonly string[], now: number): SessionAssurance {
  const kept = [...new Set([...assurance.methods, ...methods])]
  return { level: levelOf(kept), methods: kept, authTime: Math.max(now, assurance.authTime), signedInAt: assurance.signedInAt }
}

/**
 * The assurance after a re-authentication at `now` proved `methods`: they replace the old ones, so
 * the level is what this proof reached (a password after a passkey is level 1 again: a later
 * `level: 2` check must not pass on a weaker proof), `authTime` moves, `signedInAt` is kept.
 */
export function reprovedAssurance(assurance: SessionAssurance, methods: readonly string[], now: number): SessionAssurance {
  const kept = [...new Set(methods)]
  return { level: levelOf(kept), methods: kept, authTime: Math.max(now, assurance.authTime), signedInAt: assurance.signedInAt }
}

/** The assurance of a session that predates the fields, first read at `now`: the lowest, never authenticated since. */
export function preUpgradeAssurance(now: number): SessionAssurance {
  return { level: 1, methods: [], authTime: 0, signedInAt: now }
}

function epochSeconds(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0
}

/**
 * The assurance of a database session whose adapter keeps no session records: nowhere to keep one,
 * so the lowest, its times unknown (`0`).
 */
export function untrackedAssurance(): SessionAssurance {
  return { level: 1, methods: [], authTime: 0, signedInAt: 0 }
}

/**
 * `value` as an assurance, or `undefined` when it is not one core wrote (absent, or another shape:
 * such a session is treated as predating the fields). The level is recomputed from the methods.
 */
export function readAssurance(value: unknown): SessionAssurance | undefined {
  if (typeof value !== "object" || value === null) return undefined
  const { methods, authTime, signedInAt } = value as Record<string, unknown>
  if (!Array.isArray(methods) || methods.length > MAX_METHODS || !methods.every((method) => typeof method === "string")) return undefined
  if (!epochSeconds(authTime) || !epochSeconds(signedInAt) || signedInAt === 0) return undefined
  return { level: levelOf(methods), methods: [...methods], authTime, signedInAt }
}

/** A copy, for what an app's code is handed: changing it changes nothing core keeps (and shows no tag). */
export function copyAssurance(assurance: SessionAssurance): SessionAssurance {
  return { level: assurance.level, methods: [...assurance.methods], authTime: assurance.authTime, signedInAt: assurance.signedInAt }
}

/** The `assurance` claim of a JWT session: the assurance, and the MAC that tells it is core's. */
export interface AssuranceClaim extends SessionAssurance {
  tag: string
}

/** Tags checked on this instance, each answering only to the keys that checked it. */
const checkedTags = boundedCache<string, readonly SecretKey[]>("assurance tags", 1024)

/** The tag keys last derived, by secrets list: a read that finds its tag checked already needs no `await`. */
let lastKeys: { secrets: readonly string[]; keys: SecretKey[] } | undefined

async function tagKeys(secrets: readonly string[]): Promise<SecretKey[]> {
  const keys = await deriveKeys(secrets, "@portcullis/core session assurance", "hmac")
  lastKeys = { secrets, keys }
  return keys
}

/** What a tag covers: everything but the level, which is recomputed from the methods on every read. */
function tagged(assurance: SessionAssurance): string {
  return JSON.stringify([assurance.methods, assurance.authTime, assurance.signedInAt])
}

/**
 * The claim a JWT session carries for `assurance`, tagged with the first secret's key.
 *
 * @throws {MissingSecret} when there is no secret.
 */
export async function assuranceClaim(secrets: readonly string[], assurance: SessionAssurance): Promise<AssuranceClaim> {
  const keys = await tagKeys(secrets)
  const [first] = keys
  if (first === undefined) throw new MissingSecret("No secret to tag the session's assurance with.")
  const message = tagged(assurance)
  const tag = await hmac(message, first)
  checkedTags.set(`${message}\u0000${tag}`, keys)
  return { ...copyAssurance(assurance), tag }
}

/**
 * The assurance claim of a JWT session, when core wrote it: well formed, and its tag checks
 * under one of the secrets' keys. `undefined` otherwise: the session is then treated as predating
 * the assurance. A tag once checked on this instance is answered without a promise: this runs on
 * every read of a JWT session.
 */
export function openAssuranceClaim(secrets: readonly string[], value: unknown): AssuranceClaim | undefined | Promise<AssuranceClaim | undefined> {
  const assurance = readAssurance(value)
  if (assurance === undefined) return undefined
  // Exactly what core writes, as a read keeps the claim as it is: no other field, the level its methods make.
  const { tag, level } = value as Partial<AssuranceClaim>
  if (typeof tag !== "string" || level !== assurance.level || Object.keys(value as object).length !== 5) return undefined
  const message = tagged(assurance)
  const key = `${message}\u0000${tag}`
  const checked = checkedTags.get(key)
  if (checked !== undefined && lastKeys?.secrets === secrets && checked === lastKeys.keys) return { ...assurance, tag }
  return checkTag(secrets, key, message, { ...assurance, tag })
}

async function checkTag(secrets: readonly string[], key: string, message: string, claim: AssuranceClaim): Promise<AssuranceClaim | undefined> {
  const keys = await tagKeys(secrets)
  if (checkedTags.get(key) !== keys) {
    if (!(await verifyHmac(message, claim.tag, keys))) return undefined
    checkedTags.set(key, keys)
  }
  return claim
}

/**
 * `token` with the reserved claims core keeps: the record it names (`sessionId`, or none) and its
 * assurance, whatever a `jwt` callback returned. A callback written `{ ...token, ...session }` passes
 * on what `update()` posted, so no callback or client can point a session at another record, make it
 * unrevocable, or raise its assurance.
 */
export function withReservedClaims(token: JWT, reserved: { sessionId: unknown; assurance: AssuranceClaim }): JWT {
  const { [SESSION_ID_CLAIM]: _id, [ASSURANCE_CLAIM]: _assurance, ...claims } = token
  const kept: JWT = { ...claims, [ASSURANCE_CLAIM]: { ...copyAssurance(reserved.assurance), tag: reserved.assurance.tag } }
  if (reserved.sessionId !== undefined) kept[SESSION_ID_CLAIM] = reserved.sessionId
  return kept
}

/**
 * Whether the user authenticated recently enough, at `level` or above: at most `maxAge` seconds
 * (default `session.reauthAge`'s default, 600) before `now` (epoch seconds). A session that
 * predates the fields (`authTime` 0) never is, nor one whose time lies ahead of `now`.
 *
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html#reauth NIST SP 800-63B rev 4, re-authentication
 */
export function isRecentAuth(assurance: SessionAssurance, options: { maxAge?: number; level?: 1 | 2 }, now: number): boolean {
  const { maxAge = DEFAULT_REAUTH_AGE, level = 1 } = options
  if (assurance.level < level || assurance.authTime <= 0) return false
  const age = now - assurance.authTime
  return age >= -CLOCK_SKEW && age <= maxAge
}

/**
 * What a `session` callback returned, with core's assurance in place of whatever it holds there: a
 * callback written `{ ...session, ...newSession }` must not show the client a level it does not have.
 */
export function withAssurance(session: unknown, assurance: SessionAssurance): Session {
  // Typed as a session, but an app's callback may answer anything: what is not an object goes on as it was.
  return (typeof session === "object" && session !== null ? { ...session, assurance: copyAssurance(assurance) } : session) as Session
}
