import type { Adapter, AdapterSession, AdapterUser, Awaitable } from "./adapters.js"
import type { AuthError } from "./errors.js"
import type { Account, Profile, Provider, User } from "./providers/index.js"

/** The claims of the session JWT. Free-form beyond the registered ones. */
export interface JWT {
  name?: string | null
  email?: string | null
  picture?: string | null
  sub?: string
  iat?: number
  exp?: number
  jti?: string
  [claim: string]: unknown
}

/** What `GET /session` answers and the `session` callback shapes. */
export interface Session {
  user?: {
    id?: string
    name?: string | null
    email?: string | null
    image?: string | null
  }
  /** ISO 8601 date after which the session is no longer honoured. */
  expires: string
  [field: string]: unknown
}

/** How the session is kept: an encrypted cookie, or a token pointing at a row in the adapter. */
export type SessionStrategy = "jwt" | "database"

/** Session options. */
export interface SessionOptions {
  /** Default `"jwt"`, or `"database"` when an `adapter` is configured. */
  strategy?: SessionStrategy
  /** Seconds until an idle session expires. Default 30 days. */
  maxAge?: number
  /** Seconds between two extensions of the expiry. Default 24 hours. */
  updateAge?: number
  /** Generates a database session token; must carry at least 32 bytes of entropy. */
  generateSessionToken?: () => string
}

/** Arguments of `jwt.encode`. */
export interface JWTEncodeParams {
  token: JWT
  /** The secret(s): the first one seals. */
  secret: string | string[]
  /** The cookie name, used as the key-derivation salt. */
  salt: string
  maxAge: number
}

/** Arguments of `jwt.decode`. */
export interface JWTDecodeParams {
  token: string | undefined
  secret: string | string[]
  salt: string
}

/** JWT options. */
export interface JWTOptions {
  /** Seconds until the JWT expires. Default: `session.maxAge`. */
  maxAge?: number
  /** Replaces the built-in JWE sealing. */
  encode?: (params: JWTEncodeParams) => Awaitable<string>
  /** Replaces the built-in JWE opening; return `null` for "no session". */
  decode?: (params: JWTDecodeParams) => Awaitable<JWT | null>
}

/** Why the `jwt` callback runs. */
export type JWTTrigger = "signIn" | "signUp" | "update"

/** Callbacks that let the app shape, allow or refuse. */
export interface CallbacksOptions {
  /** Return `false` to refuse the sign-in (`AccessDenied`) or a URL to redirect to instead. */
  signIn?: (params: {
    user: User | AdapterUser
    account: Account | null
    profile?: Profile
    email?: { verificationRequest?: boolean }
    credentials?: Record<string, unknown>
  }) => Awaitable<boolean | string>
  /** Decides where a `callbackUrl` may lead. Default: same origin or a relative path. */
  redirect?: (params: { url: string; baseUrl: string }) => Awaitable<string>
  /** Shapes what `GET /session` returns. */
  session?: (params: {
    session: Session
    token: JWT
    user: AdapterUser
    trigger?: "update"
    newSession?: unknown
  }) => Awaitable<Session>
  /** Shapes the session JWT; return `null` to end the session. */
  jwt?: (params: {
    token: JWT
    user: User | AdapterUser
    account: Account | null
    profile?: Profile
    trigger?: JWTTrigger
    isNewUser?: boolean
    session?: unknown
  }) => Awaitable<JWT | null>
}

/** Handlers called after things happen; they cannot change the outcome, and a throw is only logged. */
export interface EventCallbacks {
  signIn?: (message: { user: User; account: Account | null; profile?: Profile; isNewUser?: boolean }) => Awaitable<void>
  /** Database sessions pass the deleted `session`; JWT sessions the `token` that was in the cookie. */
  signOut?: (message: { session: AdapterSession | null } | { token: JWT | null }) => Awaitable<void>
  createUser?: (message: { user: User }) => Awaitable<void>
  updateUser?: (message: { user: User }) => Awaitable<void>
  linkAccount?: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>
  session?: (message: { session: Session; token: JWT }) => Awaitable<void>
}

/** The app's own pages, used instead of the built-in ones. */
export interface PagesOptions {
  signIn?: string
  signOut?: string
  error?: string
  verifyRequest?: string
  newUser?: string
}

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
}

/** Where diagnostics go. The browser never sees them. */
export interface LoggerInstance {
  error: (error: AuthError) => void
  warn: (code: string, message?: string) => void
  debug: (message: string, metadata?: unknown) => void
}

/** The look of the built-in pages. */
export interface Theme {
  colorScheme?: "auto" | "dark" | "light"
  logo?: string
  brandColor?: string
  buttonText?: string
}

/** The configuration of `Auth()`. */
export interface AuthConfig {
  providers: Provider[]
  /** Seals sessions and checks; an array rotates: the first seals, all are tried to open. Default: `AUTH_SECRET`. */
  secret?: string | string[]
  /** Trusts the request's `Host` / `X-Forwarded-Host`. Default: `AUTH_TRUST_HOST`, or true when `AUTH_URL` is set. */
  trustHost?: boolean
  /** The path the routes live under. Default `/api/auth`. */
  basePath?: string
  session?: SessionOptions
  jwt?: JWTOptions
  callbacks?: CallbacksOptions
  events?: EventCallbacks
  pages?: PagesOptions
  cookies?: Partial<{ [K in keyof CookiesOptions]: Partial<CookiesOptions[K]> }>
  /** Default: true when the origin is `https:`. */
  useSecureCookies?: boolean
  /** A stable URL that forwards OAuth callbacks to preview deployments. */
  redirectProxyUrl?: string
  logger?: Partial<LoggerInstance>
  debug?: boolean
  theme?: Theme
  adapter?: Adapter
}
