/** The module the integration's Vite plugin serves: the app's configuration and where the route is injected. */
declare module "portcullis:config" {
  const config: import("@portcullis/core").AuthConfig
  export default config
  export const basePath: string
}
