/**
 * Email sign-in ("magic links") as a {@link SignInFlow}: `POST /signin/:id` sends a single-use
 * link; the link opens a confirmation page at `/callback/:id` whose button signs in. The route
 * code is fetched on first use.
 */
import { redirect } from "../http/context.js"
import type { FlowProvider, SignInFlow } from "../internal.js"
import { normalizeEmailProvider, type InternalEmailProvider } from "./provider.js"

/** The password in an SMTP server option (a URL's, or transport options' `auth.pass`), which no log may show. */
function serverPassword(server: unknown): string | undefined {
  if (typeof server === "string") return URL.canParse(server) ? decodeURIComponent(new URL(server).password) : undefined
  const auth = typeof server === "object" && server !== null ? (server as { auth?: { pass?: unknown } }).auth : undefined
  return typeof auth?.pass === "string" ? auth.pass : undefined
}

/** The email flow, carried by the email provider factories (through `mergeEmailConfig`) and used for a hand-written `type: "email"` provider. */
export const email = {
  name: "email",
  configure: (config) => normalizeEmailProvider(config as never),
  adapterMethods: () => ["createVerificationToken", "useVerificationToken", "createUser", "getUserByEmail", "updateUser"],
  needsAdapter: "to store its single-use verification tokens",
  secrets: ({ source, secret }) => [source.apiKey, secret, serverPassword(source.server)].filter((value): value is string => typeof value === "string" && value !== ""),
  draw: () => ({ kind: "email" }),
  startsAs: "emailLinkRequest",
  signIn: async (context, provider, request) => {
    const { sendReauthLink, sendSignInLink } = await import("./signin.js")
    // Asked by the re-authentication page: the link goes to the signed-in user's own verified address.
    if (context.reauth !== undefined) return redirect(context, await sendReauthLink(context, provider.options, context.reauth, request.callbackUrl))
    return redirect(context, await sendSignInLink(context, provider.options, request))
  },
  callback: async (context, provider: FlowProvider<InternalEmailProvider>) => (await import("./callback.js")).emailCallback(context, provider.options),
  mailTransport: ({ source }) => {
    const { sendMail } = source
    return sendMail === undefined ? undefined : (message) => sendMail(message, source)
  },
  // A link is sent only into an account whose address was verified (see `resolveEmailUser`).
  // A single-use link to the signed-in user's own verified address proves them again.
  reauth: { offers: () => true },
  waysIn: (_context, provider, user) => Promise.resolve(user.email != null && user.emailVerified != null ? [{ kind: "email" as const, provider: provider.id }] : []),
} satisfies SignInFlow<InternalEmailProvider>
