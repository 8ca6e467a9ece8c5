/**
 * Password accounts as a {@link SignInFlow}: the sign-in form posts to `/callback/:id`, and the
 * action `{basePath}/password/<route>` serves sign-up, the address's confirmation, reset and
 * change. What the configuration check and the sign-in page need is here; each route's code is
 * fetched on its first request.
 */
import { PASSWORD_METHODS, SESSION_RECORD_METHODS, type AdapterMethod } from "../adapters.js"
import { redirect } from "../http/context.js"
import { signInPageUrl } from "../http/routes.js"
import type { FlowRoute, PageEntry, SignInFlow } from "../internal.js"
import { configurePassword, type InternalPasswordProvider } from "./options.js"
import { passwordStore } from "./store.js"

/** What the flow calls: users by address, their links, and the session records that reset and change end. */
const ADAPTER_METHODS: readonly AdapterMethod[] = ["getUser", "getUserByEmail", "createUser", "updateUser", "deleteUser", "createVerificationToken", "useVerificationToken", ...SESSION_RECORD_METHODS]

const routes = {
  signup: {
    GET: async (context, provider) => (await import("./sign-up.js")).signUpForm(context, provider),
    POST: async (context, provider) => (await import("./sign-up.js")).signUp(context, provider),
    clientLimit: "password",
  },
  verify: {
    GET: async (context) => (await import("./sign-up.js")).verifyForm(context),
    POST: async (context) => (await import("./sign-up.js")).verify(context),
    clientLimit: "password",
  },
  "reset-request": {
    GET: async (context) => (await import("./reset.js")).forgotForm(context),
    POST: async (context) => (await import("./reset.js")).requestReset(context),
    clientLimit: "password",
  },
  reset: {
    GET: async (context, provider) => (await import("./reset.js")).resetForm(context, provider),
    POST: async (context, provider) => (await import("./reset.js")).reset(context, provider),
    clientLimit: "password",
  },
  change: {
    GET: async (context, provider) => (await import("./change.js")).changeForm(context, provider),
    POST: async (context, provider) => (await import("./change.js")).change(context, provider),
    clientLimit: "password",
  },
} satisfies Record<string, FlowRoute<InternalPasswordProvider>>

/** The password flow, carried by `Password()`. */
export const password = {
  name: "Password",
  configure: (config, _env, setup) => configurePassword(config, setup),
  adapterMethods: (options) => [...ADAPTER_METHODS, ...(options.store === undefined ? PASSWORD_METHODS : [])],
  needsAdapter: "to store its users, their password hashes and their session records",
  // The form is the sign-in: it posts straight to the callback.
  postsTo: "callback",
  draw: (): PageEntry => ({
    kind: "fields",
    fields: [
      { name: "email", label: "Email", type: "email", autocomplete: "username", placeholder: "you@example.com" },
      { name: "password", label: "Password", type: "password", autocomplete: "current-password" },
    ],
  }),
  // The form posts to its callback; one posted here gets the sign-in page.
  signIn: (context, _provider, request) => Promise.resolve(redirect(context, signInPageUrl(context, { callbackUrl: request.callbackUrl }))),
  callback: async (context, provider) => (await import("./sign-in.js")).passwordCallback(context, provider),
  actionRoutes: { action: "password", routes },
  page: async (context, provider, response, page) => (await import("./pages.js")).decorateSignInPage(context, provider.id, response, page.callbackUrl),
  // The signed-in user's password proves them again.
  reauth: { offers: () => true },
  // A password counts as a way in once it can sign in: kept, and (when confirmation is required) its address confirmed.
  waysIn: async (context, provider, user) => {
    if (provider.options.requireEmailVerification && user.emailVerified == null) return []
    const hash = await passwordStore(context, provider.options.store).get(user.id)
    return hash === null ? [] : [{ kind: "password" as const, provider: provider.id }]
  },
  // Made by a sign-up whose address was never confirmed: it could not sign in, and replacing it loses nobody anything.
  unproven: async (context, provider, user) =>
    provider.options.requireEmailVerification && user.emailVerified == null && (await passwordStore(context, provider.options.store).get(user.id)) !== null,
} satisfies SignInFlow<InternalPasswordProvider>
