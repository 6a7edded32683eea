/** The parts of a DataTransfer that carry a dropped folder; a real DataTransfer fits. */
export interface DropData {
  readonly files: ArrayLike<File>
  getData(type: string): string
}

/**
 * Finds the folder path a drop carries, or `undefined`.
 * Order: a dropped file the host can locate (Electron), then a `file://` URI in `text/uri-list`
 * (what file managers and our e2e drops send), then an absolute path or `file://` URI in
 * `text/plain`. Browsers hide where a dropped File lives, so in the browser host only the text
 * forms can work.
 */
export function droppedPath(data: DropData, pathForFile: (file: File) => string | undefined): string | undefined {
  for (let index = 0; index < data.files.length; index++) {
    const file = data.files[index]
    const path = file ? pathForFile(file) : undefined
    if (path) return path
  }
  const uriList = safeGetData(data, 'text/uri-list')
  for (const line of uriList.split(/\r?\n/)) {
    const entry = line.trim()
    if (!entry || entry.startsWith('#')) continue
    const path = pathFromFileUri(entry)
    if (path) return path
  }
  const text = safeGetData(data, 'text/plain').trim().split(/\r?\n/)[0]?.trim() ?? ''
  if (text.startsWith('file://')) return pathFromFileUri(text)
  if (isAbsolutePath(text)) return text
  return undefined
}

/** `file:///home/me/my%20app` → `/home/me/my app`; `file:///C:/x` → `C:/x`; anything else → undefined. */
export function pathFromFileUri(uri: string): string | undefined {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return undefined
  }
  if (url.protocol !== 'file:') return undefined
  let path: string
  try {
    path = decodeURIComponent(url.pathname)
  } catch {
    return undefined
  }
  if (/^\/[A-Za-z]:\//.test(path)) path = path.slice(1)
  // A UNC share (file://server/share) keeps its host.
  if (url.host) path = `//${url.host}${path}`
  return path || undefined
}

function isAbsolutePath(text: string): boolean {
  return text.startsWith('/') || /^[A-Za-z]:[\\/]/.test(text) || text.startsWith('\\\\')
}

function safeGetData(data: DropData, type: string): string {
  try {
    return data.getData(type) ?? ''
  } catch {
    // Some platforms throw for types that were not offered.
    return ''
  }
}
