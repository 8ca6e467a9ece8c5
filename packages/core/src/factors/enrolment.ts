/**
 * What enrolling and removing second factors writes: a TOTP authenticator set up unconfirmed,
 * confirmed once under an id only one confirmation can create, backup codes made and replaced
 * whole, factors removed. The routes (`enrol-routes.ts`) decide who may; this module keeps the
 * store consistent when two requests of one user race: of two confirmations, exactly one creates
 * the confirmed factor, and only it writes backup codes, so the codes a winner shows are the
 * ones that work.
 */
import type { Adapter, AdapterAuthFactor, AuthFactorMethods } from "../adapters.js"
import { randomString } from "../crypto/crypto.js"
import { sha256Base64url } from "../crypto/sealed.js"
import type { RequestContext } from "../internal.js"
import { callAdapter } from "../outbound/store.js"
import { hashBackupCode, newBackupCodes } from "./backup-codes.js"
import { openFactorSecret, sealFactorSecret } from "./sealed-secret.js"
import { base32Encode, newTotpSecret, totpUri } from "./totp.js"

/** The adapter, with the factor methods `Auth()` checked at start that an `mfa` app has. */
export type FactorStore = Adapter & AuthFactorMethods

/** How long an unconfirmed authenticator is kept for its confirmation: a set-up abandoned longer is pruned. */
const UNCONFIRMED_TTL_MS = 60 * 60 * 1000

/** The factor store: `Auth()` refuses `mfa` at start without these methods, so this only narrows the type. */
export function factorStore(context: RequestContext): FactorStore {
  return context.config.adapter as FactorStore
}

/** The user's factors, as the store lists them (a store that answers another user's is not believed). */
export async function listFactors(context: RequestContext, userId: string): Promise<AdapterAuthFactor[]> {
  const factors = await callAdapter(factorStore(context), "listAuthFactors", userId)
  return factors.filter((factor) => factor.userId === userId)
}

/** A confirmed TOTP factor among `factors`. */
export function confirmedTotp(factors: readonly AdapterAuthFactor[]): AdapterAuthFactor | undefined {
  return factors.find((factor) => factor.type === "totp" && (factor.confirmedAt ?? null) !== null)
}

/** `a` was made before `b`: by creation time, then (for one millisecond) by id, so two factors are always ordered. */
function madeBefore(a: AdapterAuthFactor, b: AdapterAuthFactor): boolean {
  const at = new Date(a.createdAt).getTime()
  const bt = new Date(b.createdAt).getTime()
  return at < bt || (at === bt && a.id < b.id)
}

/** The newest TOTP factor of `factors` still waiting for its first code: the one the user last scanned. */
function newestUnconfirmed(factors: readonly AdapterAuthFactor[]): AdapterAuthFactor | undefined {
  let newest: AdapterAuthFactor | undefined
  for (const factor of factors) {
    if (factor.type === "totp" && (factor.confirmedAt ?? null) === null && (newest === undefined || madeBefore(newest, factor))) newest = factor
  }
  return newest
}

/**
 * The id of a user's confirmed TOTP factor: the same for every confirmation of that user, so the
 * store's refusal of a taken id lets exactly one of two racing confirmations create it (a
 * conditional write every adapter already has). Derived, not the user id itself: a user id may be
 * long or hold characters a store's id column would not take.
 */
async function confirmedTotpId(userId: string): Promise<string> {
  return `totp-${await sha256Base64url(`@portcullis/core confirmed totp\u0000${userId}`)}`
}

/** A new authenticator's set-up: the base32 secret and `otpauth://` URI to show, and the factor stored for its confirmation. */
export interface TotpSetup {
  secret: string
  uri: string
}

/** The issuer an authenticator app lists the entry under: `theme.brandName`, else the app's host name. */
function issuer(context: RequestContext): string {
  return context.config.theme.brandName ?? new URL(context.origin).hostname
}

/**
 * Starts an authenticator's set-up: a new secret, sealed for `userId` and stored as an
 * unconfirmed TOTP factor; the user's older unconfirmed ones are pruned (one set-up at a time is
 * shown; a confirmation checks the newest). A confirmed TOTP factor is never touched here.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function startTotp(context: RequestContext, userId: string, account: string): Promise<TotpSetup> {
  const store = factorStore(context)
  const secret = newTotpSecret()
  const factor: AdapterAuthFactor = {
    id: `totp-${randomString(16)}`,
    userId,
    type: "totp",
    secret: await sealFactorSecret(context.config.secrets, secret, userId),
    createdAt: new Date(),
    confirmedAt: null,
    lastUsedStep: null,
    failures: 0,
    lockedAt: null,
  }
  await callAdapter(store, "createAuthFactor", factor)
  // Only those made before this one (by time, then id): of two set-ups racing, exactly one prunes the other.
  const stale = (await listFactors(context, userId)).filter((other) => other.type === "totp" && (other.confirmedAt ?? null) === null && madeBefore(other, factor))
  for (const other of stale) await callAdapter(store, "deleteAuthFactor", other.id)
  return { secret: base32Encode(secret, { padding: false }), uri: totpUri({ issuer: issuer(context), account, secret }) }
}

/**
 * The unconfirmed authenticator a confirmation checks (the newest, set up within the hour), with
 * its secret opened to show again after a wrong code; `undefined` when there is none.
 *
 * @throws {AdapterError} when the store fails or the stored secret does not open.
 */
export async function pendingTotp(context: RequestContext, userId: string, account: string): Promise<(TotpSetup & { factor: AdapterAuthFactor }) | undefined> {
  const factor = newestUnconfirmed(await listFactors(context, userId))
  if (factor === undefined || Date.now() - new Date(factor.createdAt).getTime() > UNCONFIRMED_TTL_MS) return undefined
  const secret = await openFactorSecret(context.config.secrets, factor.secret, userId)
  return { factor, secret: base32Encode(secret, { padding: false }), uri: totpUri({ issuer: issuer(context), account, secret }) }
}

/**
 * Confirms the authenticator whose first code was accepted (`factor`, its step already recorded
 * as used): the confirmed factor is created under the user's one confirmed-TOTP id, carrying the
 * sealed secret and the used step, so the confirming code is never accepted again; then the
 * unconfirmed ones are removed. Answers `false` when another confirmation created it first.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function confirmTotp(context: RequestContext, userId: string, factor: AdapterAuthFactor): Promise<boolean> {
  const store = factorStore(context)
  // Read back: the check stored the accepted step on this factor.
  const checked = (await listFactors(context, userId)).find((other) => other.id === factor.id)
  if (checked === undefined) return false
  const confirmed: AdapterAuthFactor = {
    ...checked,
    id: await confirmedTotpId(userId),
    createdAt: new Date(),
    confirmedAt: new Date(),
    failures: 0,
    lockedAt: null,
  }
  try {
    await callAdapter(store, "createAuthFactor", confirmed)
  } catch (error) {
    // The id was taken by the confirmation that won: its factor stands. Any other failure is the store's.
    if (confirmedTotp(await listFactors(context, userId)) !== undefined) return false
    throw error
  }
  for (const other of await listFactors(context, userId)) {
    if (other.type === "totp" && (other.confirmedAt ?? null) === null) await callAdapter(store, "deleteAuthFactor", other.id)
  }
  return true
}

/**
 * Ten new backup codes for `userId`, replacing any the user had in one write: answers them in
 * the clear (to show once); the store gets only their keyed hashes.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function issueBackupCodes(context: RequestContext, userId: string): Promise<string[]> {
  const codes = newBackupCodes()
  const now = new Date()
  const factors = await Promise.all(
    codes.map(
      async (code): Promise<AdapterAuthFactor> => ({
        id: `backup-${randomString(16)}`,
        userId,
        type: "backup",
        secret: await hashBackupCode(context.config.secrets, code, userId),
        createdAt: now,
        confirmedAt: now,
        lastUsedStep: null,
        failures: 0,
        lockedAt: null,
      }),
    ),
  )
  await callAdapter(factorStore(context), "replaceAuthFactors", userId, "backup", factors)
  return codes
}

/**
 * Removes the user's factors of `type` (a TOTP authenticator, set up or confirmed, or every
 * backup code) in one write.
 *
 * @throws {AdapterError} when the store fails.
 */
export async function removeFactors(context: RequestContext, userId: string, type: AdapterAuthFactor["type"]): Promise<void> {
  await callAdapter(factorStore(context), "replaceAuthFactors", userId, type, [])
}
