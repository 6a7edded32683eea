import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

/** The repository root (this file lives in `test/`). */
export const ROOT = join(import.meta.dirname, '..')

/**
 * Every TypeScript source under `dir` (relative to `root`, with `/`), tests included unless asked.
 * `root` is the repository unless given (the layering test's own fixtures pass theirs).
 */
export function sourceFiles(dir: string, options: { tests?: boolean; root?: string } = {}): string[] {
  const root = options.root ?? ROOT
  const out: string[] = []
  const walk = (abs: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const path = join(abs, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path)
      } else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        if (options.tests === false && /\.test\.tsx?$/.test(entry.name)) continue
        out.push(relative(root, path).split(sep).join('/'))
      }
    }
  }
  walk(join(root, dir))
  return out.sort()
}

/** One import found in a file. */
export interface FoundImport {
  specifier: string
  /** `import type …` / `export type … from`: erased at build time. */
  typeOnly: boolean
}

const PATTERNS = [
  // import x from '…', import { a, b } from '…' (across lines), export … from '…'
  /(?:^|[;\n])\s*(import|export)\s+(type\s+)?[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
  // import '…' (side effect)
  /(?:^|[;\n])\s*import\s*()()['"]([^'"]+)['"]/g,
  // import('…'), require('…')
  /\b(import|require)\s*\(\s*()['"]([^'"]+)['"]\s*\)/g,
]

/** The module specifiers a source file (relative to `root`) imports, with whether each is type-only. */
export function importsOf(file: string, root: string = ROOT): FoundImport[] {
  const text = readFileSync(join(root, file), 'utf8')
  const found: FoundImport[] = []
  for (const pattern of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[3]
      if (specifier) found.push({ specifier, typeOnly: Boolean(match[2]) })
    }
  }
  return found
}
