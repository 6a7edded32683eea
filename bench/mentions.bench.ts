/**
 * `@` completion's listing of a large project: the JavaScript walk against the bundled ripgrep
 * (both unbounded here, so each lists everything). Prints figures and the ratio; asserts nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { walkProject } from '../src/main/workspace/file-search'
import { listWithRipgrep } from '../src/main/workspace/ripgrep-list'

const FOLDERS = 2_000
const FILES_PER_FOLDER = 20

export default async function bench(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'sous-bench-mentions-'))
  try {
    writeFileSync(join(root, '.gitignore'), 'build/\n*.log\n')
    for (let folder = 0; folder < FOLDERS; folder++) {
      const dir = join(root, `pkg${folder % 50}`, `mod${folder}`)
      mkdirSync(dir, { recursive: true })
      for (let file = 0; file < FILES_PER_FOLDER; file++) writeFileSync(join(dir, `file${file}.ts`), '')
    }
    const unbounded = { maxEntries: 10_000_000, timeMs: 600_000 }
    await listWithRipgrep(root, unbounded) // warm the page cache
    let started = performance.now()
    const walked = await walkProject(root, unbounded)
    const walkMs = performance.now() - started
    started = performance.now()
    const listed = (await listWithRipgrep(root, unbounded)) ?? []
    const ripgrepMs = performance.now() - started
    console.log(`tree: ${FOLDERS * FILES_PER_FOLDER} files in ${FOLDERS} folders`)
    console.log(`walk (JavaScript): ${walked.length} entries in ${walkMs.toFixed(0)} ms`)
    console.log(`ripgrep (bundled): ${listed.length} entries in ${ripgrepMs.toFixed(0)} ms`)
    console.log(`ratio walk / ripgrep: ${(walkMs / ripgrepMs).toFixed(1)}× (the default bound is 2,000 ms and 20,000 entries)`)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
