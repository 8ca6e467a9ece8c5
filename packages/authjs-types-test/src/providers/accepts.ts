/**
 * The per-option check behind `options.generated.ts`: every option an Auth.js provider factory
 * takes beyond the shared OAuth / OpenID Connect base must be taken by ours, with Auth.js's
 * value type, and be optional wherever Auth.js's is. The keys come from Auth.js's published
 * declaration of each factory, computed here, so an option Auth.js adds fails this check until
 * ours takes it. The shared base's keys are left to the base's own check.
 */
import type { OAuthUserConfig, OIDCUserConfig } from "authjs-core/providers"

type AnyFunction = (...args: never[]) => unknown

/** The first parameter of a factory: what an app passes to it. */
export type OptionsOf<F extends AnyFunction> = NonNullable<Parameters<F>[0]>

/** The keys of Auth.js's shared OAuth 2.0 and OpenID Connect options. */
type SharedKeys = keyof OAuthUserConfig<Record<string, unknown>> | keyof OIDCUserConfig<Record<string, unknown>>

type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T]
export type RequiredKeys<T> = Exclude<keyof T, OptionalKeys<T>>

/** A provider's own options in Auth.js's factory: its keys less the shared base's. */
export type OwnKeys<F extends AnyFunction> = Exclude<keyof OptionsOf<F>, SharedKeys>

/** Auth.js's own options ours lacks, or types so that Auth.js's value does not fit. */
export type Refused<A, O> = {
  [K in keyof A]-?: K extends keyof O ? ([Exclude<A[K], undefined>] extends [O[K]] ? never : K) : K
}[keyof A]

/**
 * `true` when our factory `O` takes each own option of Auth.js's factory `A`; otherwise an
 * object naming the provider, the options it refuses, and those it requires that Auth.js's
 * leaves optional, which the compiler prints where the check fails.
 */
export type Accepts<Id extends string, A extends AnyFunction, O extends AnyFunction> = [
  Refused<Pick<OptionsOf<A>, OwnKeys<A>>, OptionsOf<O>>,
  Exclude<RequiredKeys<OptionsOf<O>>, RequiredKeys<OptionsOf<A>>>,
] extends [never, never]
  ? true
  : {
      provider: Id
      refused: Refused<Pick<OptionsOf<A>, OwnKeys<A>>, OptionsOf<O>>
      requiredHereOnly: Exclude<RequiredKeys<OptionsOf<O>>, RequiredKeys<OptionsOf<A>>>
    }

/** Fails to compile unless `T` is `true`. */
export type Expect<T extends true> = T
