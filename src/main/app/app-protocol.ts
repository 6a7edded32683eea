import { APP_HOST, APP_SCHEME } from '../host/sender-policy'
import { readStaticFile, type StaticFile } from '../host/static-files'

/**
 * Resolves an `app://sous/...` request to a file of the built renderer, or `null` (404):
 * another scheme or host, or a path that would leave `rendererDir` (traversal, encoded `..`,
 * backslashes, symlinks out) is refused.
 */
export async function readAppFile(rendererDir: string, requestUrl: string): Promise<StaticFile | null> {
  let url: URL
  try {
    url = new URL(requestUrl)
  } catch {
    return null
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null
  return readStaticFile(rendererDir, url.pathname)
}
