import { defineConfig } from "vitepress"

/** Where each part of the site is, in the order a newcomer reads it. */
const sidebar = [
  {
    text: "Getting started",
    items: [
      { text: "The first sign-in", link: "/getting-started/" },
      { text: "node:http", link: "/getting-started/node-http" },
      { text: "Express", link: "/getting-started/express" },
      { text: "Hono", link: "/getting-started/hono" },
      { text: "Fastify", link: "/getting-started/fastify" },
      { text: "Next.js", link: "/getting-started/nextjs" },
      { text: "React Router", link: "/getting-started/react-router" },
      { text: "TanStack Start", link: "/getting-started/tanstack-start" },
      { text: "Astro", link: "/getting-started/astro" },
      { text: "SvelteKit", link: "/getting-started/sveltekit" },
    ],
  },
  {
    text: "Concepts",
    items: [
      { text: "Sessions", link: "/concepts/sessions" },
      { text: "Providers", link: "/concepts/providers" },
      { text: "Adapters", link: "/concepts/adapters" },
      { text: "Limits", link: "/concepts/limits" },
      { text: "Security model", link: "/concepts/security" },
      { text: "Security protections and their tests", link: "/concepts/security-tests" },
    ],
  },
  {
    text: "Guides",
    items: [
      { text: "Moving from Auth.js", link: "/guides/migrating" },
      { text: "More than one instance", link: "/guides/multiple-instances" },
      { text: "Custom pages and theme", link: "/guides/custom-pages" },
      { text: "Passkeys", link: "/guides/passkeys" },
      { text: "Provider tokens and logout", link: "/guides/provider-tokens" },
      { text: "Devices and sessions", link: "/guides/devices" },
      { text: "Next.js in depth", link: "/guides/nextjs" },
      { text: "SvelteKit in depth", link: "/guides/sveltekit" },
      { text: "Versions and upgrades", link: "/guides/versions" },
    ],
  },
  {
    text: "Reference",
    items: [
      { text: "Options", link: "/reference/options" },
      { text: "Routes", link: "/reference/routes" },
      { text: "Providers", link: "/reference/providers" },
    ],
  },
]

export default defineConfig({
  title: "Portcullis",
  description: "Authentication for TypeScript web apps, built on web standards: the stable successor for Auth.js users.",
  lang: "en",
  // Built into the package's dist/, which turbo caches and the site test serves.
  outDir: "../dist",
  // Nothing is fetched from a third party: no fonts, no analytics, search runs in the page.
  head: [["meta", { name: "color-scheme", content: "light dark" }]],
  lastUpdated: false,
  themeConfig: {
    nav: [
      { text: "Get started", link: "/getting-started/" },
      { text: "Guides", link: "/guides/migrating" },
      { text: "Reference", link: "/reference/options" },
    ],
    sidebar,
    search: { provider: "local" },
    outline: { level: [2, 3] },
  },
})
