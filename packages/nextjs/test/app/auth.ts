// As next-auth v5's docs show it, with the import changed. The provider's client id, secret and
// issuer come from AUTH_IDP_ID, AUTH_IDP_SECRET and AUTH_IDP_ISSUER, the secret from AUTH_SECRET.
import NextAuth, { type NextAuthConfig } from "@portcullis/nextjs"

export const config = {
  providers: [
    { id: "idp", name: "Demo IdP", type: "oidc", issuer: process.env.AUTH_IDP_ISSUER, allowInsecureLoopbackRequests: true },
    {
      id: "password",
      name: "Password",
      type: "credentials",
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }) =>
        username === "carol" && password === "carol-password" ? { id: "carol", name: "Carol", email: "carol@example.com" } : null,
    },
  ],
  // Short, so the tests can see a session renewed.
  session: { updateAge: 2 },
  callbacks: {
    authorized: ({ auth }) => auth !== null,
    // unstable_update({ nickname }) keeps a nickname in the token, and the session shows it.
    jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, nickname: (session as { nickname?: unknown }).nickname } : token),
    session: ({ session, token }) => (token?.nickname === undefined ? session : { ...session, nickname: token.nickname }),
  },
} satisfies NextAuthConfig

export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth(config)
