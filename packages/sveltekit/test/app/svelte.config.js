import adapter from "@sveltejs/adapter-node"
import { vitePreprocess } from "@sveltejs/vite-plugin-svelte"

// The test builds this app twice: as the README's back-channel logout section shows it (SvelteKit's
// check off, src/hooks.server.ts doing it instead), and with SvelteKit's check on
// (SVELTEKIT_CSRF=default), trusting the IdP's origin for form_post callbacks as an app using
// Apple trusts "https://appleid.apple.com", to show that the back-channel logout POST is refused there.
const sveltekitCheck = process.env.SVELTEKIT_CSRF === "default"

/** @type {import('@sveltejs/kit').Config} */
export default {
  preprocess: vitePreprocess(),
  kit: {
    adapter: adapter({ out: process.env.BUILD_OUT ?? "build" }),
    csrf: { trustedOrigins: sveltekitCheck ? [process.env.TRUSTED_IDP_ORIGIN ?? ""] : ["*"] },
  },
}
