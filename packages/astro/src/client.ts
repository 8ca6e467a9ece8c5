/**
 * `@portcullis/astro/client`: `signIn` and `signOut` for the browser, in a page's `<script>`
 * (Astro bundles it), as auth-astro's client has them: core's helpers, for the routes under
 * `/api/auth` (`basePath` in their options otherwise).
 *
 * @example
 * ```astro
 * <button id="login">Sign in</button>
 * <script>
 *   import { signIn } from "@portcullis/astro/client"
 *   document.querySelector("#login")?.addEventListener("click", () => signIn("github"))
 * </script>
 * ```
 *
 * @module client
 */
export { signIn, signOut, type NavigationResult, type SignInOptions } from "@portcullis/core/client"
