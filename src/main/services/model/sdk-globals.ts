import { LightHeaders } from './light-headers'

/**
 * What the bundled SDK's free `Headers` and `FormData` refer to (the build rewrites them in the
 * SDK's modules only: `sdkGlobals` in electron.vite.config.ts). On Node 20 both globals live in
 * undici, and touching either compiles all of it (~50 ms, ~12 MB of a cold `sous -p`, measured
 * in bench/startup.bench.ts), though the SDK talks through `httpFetch` and never needs undici.
 */
export { LightHeaders as Headers }

/**
 * The SDK only asks `body instanceof FormData` (a multipart upload, which Sous never sends). The
 * answer is the global's, but the global is only looked up for a value built by a FormData
 * constructor, so a JSON body (every request Sous makes) leaves undici unloaded.
 */
export const FormData = {
  [Symbol.hasInstance](value: unknown): boolean {
    const maker = (value as { constructor?: { name?: unknown } } | null | undefined)?.constructor
    return typeof maker === 'function' && maker.name === 'FormData' && value instanceof globalThis.FormData
  },
}
