/**
 * The changed paths without any that lies under another (the snapshot reads a folder whole), and
 * a path inside a nested repository replaced by the repository's folder (git records it as one
 * entry, and refuses a path inside a submodule).
 */
export function fold(paths: Iterable<string>, nested: ReadonlySet<string>): string[] {
  const mapped = new Set<string>()
  for (const path of paths) {
    let owner = path
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
      if (nested.has(path.slice(0, at))) {
        owner = path.slice(0, at)
        break
      }
    }
    mapped.add(owner)
  }
  return [...mapped].filter((path) => {
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) if (mapped.has(path.slice(0, at))) return false
    return true
  }).sort()
}
