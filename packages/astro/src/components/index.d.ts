/** A button starting a sign-in with `provider` (the sign-in page without one). */
export declare function SignIn(props: {
  provider?: string
  options?: Record<string, string | boolean>
  authParams?: Record<string, string>
  [attribute: string]: unknown
}): unknown
/** A button signing out. */
export declare function SignOut(props: { params?: { callbackUrl?: string; redirect?: boolean }; [attribute: string]: unknown }): unknown
/** Renders its default slot, a function of the session (`null` when signed out). */
export declare function Auth(props: Record<string, never>): unknown
