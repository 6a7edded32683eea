import { readdir } from 'node:fs/promises'
import { basename, dirname, extname, isAbsolute, join } from 'node:path'

/** The instructive error for a relative path (the file tools take absolute paths, as Claude Code's). */
export function requireAbsolute(filePath: string, field = 'file_path'): string | undefined {
  if (isAbsolute(filePath)) return undefined
  return `${field} must be an absolute path, not a relative path: "${filePath}".`
}

/**
 * A sibling with a similar name, for "did you mean": same stem with another extension, or a name
 * at most two edits away.
 */
export async function similarFile(filePath: string): Promise<string | undefined> {
  const dir = dirname(filePath)
  let entries: string[]
  try {
    entries = await readdir(dir)
  } catch {
    return undefined
  }
  const wanted = basename(filePath)
  const stem = basename(filePath, extname(filePath)).toLowerCase()
  const sameStem = entries.find((entry) => basename(entry, extname(entry)).toLowerCase() === stem && entry !== wanted)
  if (sameStem) return join(dir, sameStem)
  let best: { name: string; distance: number } | undefined
  for (const entry of entries) {
    const distance = editDistance(entry.toLowerCase(), wanted.toLowerCase())
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: entry, distance }
  }
  return best ? join(dir, best.name) : undefined
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}
