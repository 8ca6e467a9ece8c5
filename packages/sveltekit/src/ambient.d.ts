// SvelteKit generates this module's declaration inside each app (`.svelte-kit/ambient.d.ts`);
// the package is compiled outside one, so it declares what it reads.
declare module "$env/dynamic/private" {
  export const env: Record<string, string | undefined>
}
