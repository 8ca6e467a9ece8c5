/**
 * The model every other module speaks of, as types only: users, accounts, profiles and tokens,
 * the provider kinds, the theme, cookies and the logger. This module imports no other module of
 * core but the error class it names, so types flow one way: from here outwards.
 *
 * @module
 */
import type { AuthError } from "./errors/errors.js"

/** A value or a promise of it. */
export type Awaitable<T> = T | PromiseLike<T>

/** Every kind of provider the configuration accepts. */
export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | WebAuthnProviderType

/** The profile an identity provider returns: free-form claims, read defensively. */
export interface Profile {
  sub?: string | null
  name?: string | null
  email?: string | null
  image?: string | null
  [claim: string]: unknown
}

/** The user a profile maps to: what the session shows. */
export interface User {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
  [field: string]: unknown
}

/** What a token endpoint answers (RFC 6749 section 5.1), plus what OpenID Connect adds. */
export interface TokenSet {
  access_token?: string
  token_type?: string
  id_token?: string
  refresh_token?: string
  scope?: string
  expires_in?: number
  /** Absolute expiry in seconds since the epoch, computed from `expires_in`. */
  expires_at?: number
  session_state?: string
  [field: string]: unknown
}

/** An account at a provider, as handed to callbacks and stored by adapters. */
export interface Account extends TokenSet {
  provider: string
  type: ProviderType
  providerAccountId: string
  userId?: string
}

/** How the provider's button looks on the default sign-in page. */
export interface ProviderButtonStyles {
  /**
   * The brand's logo, shown on the button: an inline `<svg>` (only its `viewBox` and path data
   * are kept, drawn in the button's text color, as every built-in provider's logo is) or an
   * https or `data:image/...;base64` URL.
   */
  logo?: string
  /** The button's background; the text is white or dark, whichever reads (the color is darkened when neither does). */
  brandColor?: string
  /** @deprecated Use `brandColor`. */
  bg?: string
  /** @deprecated Text color is derived from `brandColor`. */
  text?: string
}

/** The provider type of passkey providers, as Auth.js names it. */
export type WebAuthnProviderType = "webauthn"

/** One cookie's name and attributes. */
export interface CookieOption {
  name: string
  options: {
    httpOnly?: boolean
    sameSite?: "lax" | "strict" | "none"
    path?: string
    secure?: boolean
    domain?: string
    maxAge?: number
  }
}

/** The cookies `Auth()` sets, each overridable. */
export interface CookiesOptions {
  sessionToken: CookieOption
  callbackUrl: CookieOption
  csrfToken: CookieOption
  pkceCodeVerifier: CookieOption
  state: CookieOption
  nonce: CookieOption
  /** OAuth 1.0a: the request token and its secret, sealed, between leaving for the provider and coming back. */
  oauth1RequestToken: CookieOption
  /**
   * Credentials: the fields of a refused form that are not passwords (the username), for the
   * built-in sign-in page to show again; read once, at most 5 minutes.
   */
  credentialsInput: CookieOption
  /**
   * OpenID Connect RP-initiated logout (`endSessionOnSignOut`): the sign-in's ID token, sealed,
   * for the provider's sign-out; during that sign-out, its `state`.
   */
  endSession: CookieOption
}

/** Where diagnostics go. The browser never sees them. */
export interface LoggerInstance {
  error: (error: AuthError) => void
  warn: (code: string, message?: string) => void
  debug: (message: string, metadata?: unknown) => void
}

/** The look of the built-in pages. */
export interface Theme {
  /** `"auto"` (the default) follows the browser's light or dark preference; the others force one. */
  colorScheme?: "auto" | "dark" | "light"
  /** The app's logo above each page's card: an https or `data:image/...;base64` URL, or an inline `<svg>`. */
  logo?: string
  /** The color of the pages' own buttons (email, credentials, sign-out) and of providers without one. */
  brandColor?: string
  /** The text color on `brandColor` buttons. Default: white or dark, whichever reads. */
  buttonText?: string
  /** The app's name (this project's addition): above each page's card, linked to `homeUrl`, and in each page's `<title>` ("Sign in · Acme"). Default: the home page's host. */
  brandName?: string
  /** Where the app's name and logo link to (this project's addition): a path such as `"/"`, or an absolute URL on `url`'s origin or one of `allowedOrigins`. Default: the app's origin. */
  homeUrl?: string
}

/**
 * How strongly a session's user is authenticated, and since when: on every session (`GET /session`,
 * `getSession()`, the `session` callback), JWT and database alike. Core keeps it where no `jwt` or
 * `session` callback, and no `update()`, can change it; every check reads core's own copy.
 */
export interface SessionAssurance {
  /** `2` when the sign-in took two factors (`methods` holds `"mfa"`), or a passkey with user verification (`"hwk"` and `"user"`); else `1`. */
  level: 1 | 2
  /**
   * How the user authenticated, as RFC 8176 `amr` values where one fits: `"fed"` (OAuth 2.0,
   * OpenID Connect, OAuth 1.0a), `"email"` (an email link; a Portcullis value), `"pwd"`
   * (credentials), `"hwk"` (a passkey) with `"user"` when the authenticator verified the user.
   * A second factor adds its own (`"otp"`, `"kba"`, `"hwk"`, `"email"`) and `"mfa"`. Empty for a
   * session that predates these fields.
   *
   * @see https://www.rfc-editor.org/rfc/rfc8176#section-2 Authentication Method Reference Values
   */
  methods: string[]
  /** When the user last authenticated (epoch seconds): the sign-in, or a later re-authentication. `0` when unknown (a session that predates it). */
  authTime: number
  /** When the session began (epoch seconds); it never moves. For a session that predates it: its first read after the upgrade. */
  signedInAt: number
}
