import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, sourceFiles } from './source-scan'

/**
 * The house rule of docs/architecture.md: small files with one job. A TypeScript file over
 * {@link LIMIT} lines must say at its top why it is not split — a comment within its first
 * {@link HEADER} lines that names the limit ("longer than 300 lines because …").
 */
const LIMIT = 300
const HEADER = 30
const REASON = /\b300 lines\b/i

/** The files over the limit whose header gives no reason, as `path (N lines)`. */
function overlongWithoutReason(files: Array<{ path: string; text: string }>): string[] {
  const out: string[] = []
  for (const { path, text } of files) {
    const lines = text.split('\n')
    const count = text.endsWith('\n') ? lines.length - 1 : lines.length
    if (count <= LIMIT) continue
    const header = lines.slice(0, HEADER).filter((line) => /^\s*(\/\/|\/?\*)/.test(line))
    if (!header.some((line) => REASON.test(line))) out.push(`${path} (${count} lines)`)
  }
  return out
}

describe('file length', () => {
  it('finds a long file without a reason and accepts one with it', () => {
    const long = (head: string): string => `${head}\n${'const x = 1\n'.repeat(LIMIT)}`
    expect(
      overlongWithoutReason([
        { path: 'a.ts', text: long('import x from "y"') },
        { path: 'b.ts', text: long('// Longer than 300 lines because the parts share one closure.') },
        { path: 'c.ts', text: long('const s = "300 lines"') },
        { path: 'd.ts', text: 'const short = 1\n' },
      ]),
    ).toEqual([`a.ts (${LIMIT + 1} lines)`, `c.ts (${LIMIT + 1} lines)`])
  })

  it(`every source, test, bench and script file is at most ${LIMIT} lines or says why at its top`, () => {
    const files = ['src', 'test', 'e2e', 'bench', 'scripts'].flatMap((dir) => sourceFiles(dir))
    const problems = overlongWithoutReason(files.map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') })))
    expect(problems, 'split these files, or say in a comment at the top why each is longer than 300 lines').toEqual([])
  })
})
