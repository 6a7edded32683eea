import { readFile, realpath, stat } from 'node:fs/promises'
import { extname, posix, resolve, sep } from 'node:path'

/** Content types of what the renderer build contains. Anything else is served as bytes. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
}

/** The `Content-Type` for a file name. */
export function mimeType(file: string): string {
  return MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * Maps a URL path (`/assets/a.js`, percent-encoded as it arrives) to a file under `root`, or
 * `null` when it could escape: undecodable escapes, NUL bytes, backslashes and `..` that would
 * climb out are all refused. `/` and paths ending in `/` mean `index.html`. Pure.
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  if (!decoded.startsWith('/')) decoded = `/${decoded}`
  if (decoded.split('/').includes('..')) return null
  const normalized = posix.normalize(decoded.endsWith('/') ? `${decoded}index.html` : decoded)
  const base = resolve(root)
  const full = resolve(base, `.${normalized}`)
  return full.startsWith(base + sep) ? full : null
}

/** A file ready to send. */
export interface StaticFile {
  path: string
  body: Buffer
  contentType: string
}

/**
 * Reads the file a URL path names under `root`; `null` when it is refused, missing, not a regular
 * file, or a symlink that leads outside `root`.
 */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  const path = resolveStaticPath(root, urlPath)
  if (!path) return null
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(path)])
    if (!realFile.startsWith(realRoot + sep)) return null
    if (!(await stat(realFile)).isFile()) return null
    return { path, body: await readFile(realFile), contentType: mimeType(path) }
  } catch {
    return null
  }
}
