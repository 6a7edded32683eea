/**
 * Ranks project paths against what was typed after `@` in the composer. Pure, so it is tested
 * without a file system. Paths are relative and `/`-separated; folders end with `/`.
 */

/** How well a path matches; lower is better, `undefined` when it does not match at all. */
export function matchRank(path: string, query: string): number | undefined {
  const q = query.toLowerCase()
  const bare = (path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase()
  if (!q) return 0
  const name = bare.slice(bare.lastIndexOf('/') + 1)
  if (name === q) return 0
  if (name.startsWith(q)) return 1
  if (bare.startsWith(q)) return 2
  if (name.includes(q)) return 3
  if (bare.includes(q)) return 4
  return isSubsequence(q, bare) ? 5 : undefined
}

function isSubsequence(needle: string, haystack: string): boolean {
  let at = 0
  for (const char of needle) {
    at = haystack.indexOf(char, at)
    if (at < 0) return false
    at++
  }
  return true
}

/**
 * The best `limit` paths for `query`: by match rank, then shallower and shorter paths (what the
 * user most likely means), then alphabetically so the order is stable.
 */
export function rankPaths(paths: Iterable<string>, query: string, limit: number): string[] {
  const scored: Array<{ path: string; rank: number; depth: number }> = []
  for (const path of paths) {
    const rank = matchRank(path, query)
    if (rank === undefined) continue
    scored.push({ path, rank, depth: path.replace(/\/$/, '').split('/').length })
  }
  scored.sort(
    (a, b) => a.rank - b.rank || a.depth - b.depth || a.path.length - b.path.length || a.path.localeCompare(b.path),
  )
  return scored.slice(0, Math.max(0, limit)).map((item) => item.path)
}
