import adapter from "@sveltejs/adapter-node"
import { vitePreprocess } from "@sveltejs/vite-plugin-svelte"

/** @type {import('@sveltejs/kit').Config} */
export default {
  preprocess: vitePreprocess(),
  kit: {
    adapter: adapter(),
    // A provider that answers with `response_mode=form_post` (Apple) POSTs the callback from its
    // own origin; SvelteKit refuses such cross-origin form posts before `handle` runs unless the
    // origin is trusted. The test's IdP origin, as an app would write "https://appleid.apple.com".
    csrf: { trustedOrigins: process.env.TRUSTED_IDP_ORIGIN === undefined ? [] : [process.env.TRUSTED_IDP_ORIGIN] },
  },
}
