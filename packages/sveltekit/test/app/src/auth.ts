// As @auth/sveltekit's docs show it, with the imports changed. The IdP's client id, secret and
// issuer come from AUTH_IDP_ID, AUTH_IDP_SECRET and AUTH_IDP_ISSUER, the secret from AUTH_SECRET.
import { appendFileSync } from "node:fs"
import { env } from "$env/dynamic/private"
import { SvelteKitAuth } from "@portcullis/sveltekit"
import Credentials from "@portcullis/sveltekit/providers/credentials"
import Email from "@portcullis/sveltekit/providers/email"
import { MemoryAdapter } from "@portcullis/adapter-memory"

export const { handle, signIn, signOut } = SvelteKitAuth({
  adapter: MemoryAdapter(),
  session: { strategy: "jwt", updateAge: 2 },
  providers: [
    // The IdP's sign-outs end ours: it POSTs logout tokens to /auth/backchannel-logout/idp.
    { id: "idp", name: "Demo IdP", type: "oidc", backchannelLogout: true, allowInsecureLoopbackRequests: true },
    // The same IdP answering as Apple does: the callback comes back as a cross-origin form POST.
    {
      id: "idp-post",
      name: "Demo IdP (form_post)",
      type: "oidc",
      clientId: env.AUTH_IDP_ID,
      clientSecret: env.AUTH_IDP_SECRET,
      issuer: env.AUTH_IDP_ISSUER,
      authorization: { params: { response_mode: "form_post" } },
      allowInsecureLoopbackRequests: true,
    },
    Email({
      // The test reads the link from this file instead of a mailbox.
      sendVerificationRequest: ({ identifier, url }) => {
        appendFileSync(env.EMAIL_LINK_FILE ?? "links.txt", `${JSON.stringify({ identifier, url })}\n`)
      },
    }),
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }) =>
        username === "carol" && password === "carol-password" ? { id: "carol", name: "Carol", email: "carol@example.com" } : null,
    }),
  ],
})
