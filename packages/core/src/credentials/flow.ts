/**
 * Credentials sign-in as a {@link SignInFlow}: the app's own form (a username and password, a
 * one-time code) posts to `/callback/:id`, where `authorize` decides. The route code is fetched
 * on first use.
 */
import { redirect } from "../http/context.js"
import type { PageEntry, SignInFlow } from "../internal.js"
import { signInPageUrl } from "../http/routes.js"
import { normalizeCredentialsProvider, type InternalCredentialsProvider } from "./provider.js"

/** The credentials flow, carried by `Credentials()` and used for a hand-written `type: "credentials"` provider. */
export const credentials = {
  name: "credentials",
  configure: (config) => normalizeCredentialsProvider(config as never),
  // With database sessions the session row must point at a user the adapter stores.
  adapterMethods: (_options, session) => (session.strategy === "database" ? ["getUser"] : []),
  // The form is the sign-in: it posts straight to the callback.
  postsTo: "callback",
  draw: async (context, provider, page): Promise<PageEntry> => {
    const entry: PageEntry = { kind: "fields", fields: provider.options.fields }
    // Only a browser whose form was just refused carries the cookie: the code that reads it is fetched then.
    if (!context.jar.has(context.cookies.credentialsInput.name)) return entry
    const values = (await import("./typed-fields.js")).takeTypedFields(context, page.refused, provider.options)
    return values === undefined ? entry : { ...entry, values }
  },
  // A credentials form posts to its callback; one posted here gets the sign-in page.
  signIn: (context, _provider, request) => Promise.resolve(redirect(context, signInPageUrl(context, { callbackUrl: request.callbackUrl }))),
  callback: async (context, provider) => (await import("./callback.js")).credentialsCallback(context, provider.options),
  // `authorize` answering the signed-in user's id proves them again.
  reauth: { offers: () => true },
} satisfies SignInFlow<InternalCredentialsProvider>
