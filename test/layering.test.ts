import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { rankViolations, readRankTable, type RankRow } from './layers'
import { importsOf, ROOT, sourceFiles } from './source-scan'

/**
 * The layering rules of docs/architecture.md, checked over every import of every file under
 * src/ (the ESLint config says the same; this test also covers dynamic imports and requires):
 * the rank table (read from the document itself), and the rules about who may import electron,
 * node-pty, the SDK, Node built-ins and `test/`.
 */

const files = sourceFiles('src')
const table = readRankTable(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'))
const builtins = new Set(builtinModules)

const isPackage = (specifier: string, name: string): boolean => specifier === name || specifier.startsWith(`${name}/`)
const isNodeBuiltin = (specifier: string): boolean => specifier.startsWith('node:') || builtins.has(specifier.split('/')[0] ?? '')
/** Where a relative import lands, relative to the root with `/`; undefined for packages. */
const target = (file: string, specifier: string): string | undefined =>
  specifier.startsWith('.') ? relative(ROOT, join(ROOT, dirname(file), specifier)).split(sep).join('/') : undefined
const under = (path: string | undefined, dir: string): boolean => !!path && (path === dir || path.startsWith(`${dir}/`))

const ELECTRON_ALLOWED = (file: string): boolean =>
  file.startsWith('src/main/app/') ||
  file.startsWith('src/preload/') ||
  /^src\/main\/host\/electron(\.test)?\.ts$/.test(file) ||
  file === 'src/main/index.ts'

/** Every broken rule, as `file → specifier: why`. */
function violations(): string[] {
  const out: string[] = []
  for (const file of files) {
    for (const { specifier, typeOnly } of importsOf(file)) {
      const dest = target(file, specifier)
      const fail = (why: string): void => void out.push(`${file} → ${specifier}: ${why}`)
      if (isPackage(specifier, 'electron') && !ELECTRON_ALLOWED(file)) fail('electron outside app/, host/electron.ts, main/index.ts, preload/')
      if (isPackage(specifier, 'node-pty') && !file.startsWith('src/main/pty/')) fail('node-pty outside main/pty/')
      if (isPackage(specifier, '@anthropic-ai/sdk') && !file.startsWith('src/main/services/model/')) fail('the Anthropic SDK outside main/services/model/')
      if (isPackage(specifier, '@modelcontextprotocol/sdk') && !file.startsWith('src/main/services/mcp/')) fail('the MCP SDK outside main/services/mcp/')
      if (file.startsWith('src/renderer/')) {
        if (under(dest, 'src/main') || under(dest, 'src/preload') || under(dest, 'src/cli')) fail('the renderer imports main-side code')
        if (isNodeBuiltin(specifier)) fail('the renderer imports a Node built-in')
      }
      if (file.startsWith('src/shared/')) {
        if (dest && !under(dest, 'src/shared')) fail('shared/ imports code of ours outside shared/')
        if (isNodeBuiltin(specifier)) fail('shared/ imports a Node built-in')
      }
      if (file.startsWith('src/main/') && (under(dest, 'src/renderer') || under(dest, 'src/preload'))) fail('main imports renderer or preload code')
      if (!/\.test\.tsx?$/.test(file) && under(dest, 'test')) fail('production code imports a test helper')
      if (file.startsWith('src/preload/') && !file.endsWith('.test.ts') && !typeOnly) {
        // A sandboxed preload can require nothing but electron; everything else must be bundled ours.
        if (!dest && !isPackage(specifier, 'electron')) fail('the sandboxed preload imports a package other than electron')
        if (dest && !under(dest, 'src/preload') && !under(dest, 'src/shared')) fail('the preload imports main-side code')
      }
    }
  }
  return out
}

describe('layering', () => {
  it('scans the sources (the scanner sees the imports it must judge)', () => {
    expect(files).toContain('src/main/index.ts')
    expect(importsOf('src/main/index.ts').map((i) => i.specifier)).toContain('electron')
    expect(importsOf('src/cli/index.ts').map((i) => i.specifier)).toContain('./serve')
    expect(importsOf('src/main/host/electron.ts')).toContainEqual({ specifier: 'electron', typeOnly: true })
  })

  it('every import respects the layer rules', () => {
    expect(violations()).toEqual([])
  })

  it('every folder has a rank, and every import goes to a lower one (no cycles between folders or files)', () => {
    expect(rankViolations(ROOT, files, table)).toEqual([])
  })
})

describe('the rank checker (tests for the test)', () => {
  const roots: string[] = []
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })))

  /** A planted tree: `{ 'src/main/base/a.ts': "import '../engine/b'" }`. */
  function check(tree: Record<string, string>, rows: RankRow[]): string[] {
    const root = mkdtempSync(join(tmpdir(), 'sous-layering-'))
    roots.push(root)
    for (const [path, text] of Object.entries(tree)) {
      mkdirSync(dirname(join(root, path)), { recursive: true })
      writeFileSync(join(root, path), text)
    }
    return rankViolations(root, sourceFiles('src', { root }), rows)
  }

  const rows: RankRow[] = [
    { rank: 10, folder: 'src/main/base/' },
    { rank: 70, folder: 'src/main/engine/' },
    { rank: 120, folder: 'src/main/*' },
    { rank: 20, folder: 'src/renderer/src/features/*/' },
    { rank: 30, folder: 'src/renderer/src/app/' },
  ]

  it('passes a tree in order (downward imports, type imports, subfolders, composition in app/)', () => {
    expect(
      check(
        {
          'src/main/base/hub.ts': 'export const hub = 1\n',
          'src/main/engine/query.ts': "import { hub } from '../base/hub'\nimport type { T } from './transitions/t'\n",
          'src/main/engine/transitions/t.ts': 'export type T = 1\n',
          'src/main/core.ts': "import '../main/engine/query'\n",
          'src/renderer/src/features/chat/Chat.tsx': 'export {}\n',
          'src/renderer/src/features/status/Status.tsx': 'export {}\n',
          'src/renderer/src/app/Pane.tsx': "import '../features/chat/Chat'\nimport '../features/status/Status'\n",
          'src/main/base/hub.test.ts': "import '../core'\n",
        },
        rows,
      ),
    ).toEqual([])
  })

  it('fails a planted upward import', () => {
    const found = check({ 'src/main/base/hub.ts': "import type { Q } from '../engine/query'\n", 'src/main/engine/query.ts': 'export type Q = 1\n' }, rows)
    expect(found).toEqual(['src/main/base/hub.ts → ../engine/query: src/main/base/ (rank 10) imports a higher rank, src/main/engine/ (rank 70)'])
  })

  it('fails a planted cycle between folders, and between files of one folder', () => {
    const folders = check(
      {
        'src/main/base/hub.ts': "import '../engine/query'\n",
        'src/main/engine/query.ts': "import '../base/hub'\n",
      },
      rows,
    )
    expect(folders).toContain('folder cycle: src/main/base/ ↔ src/main/engine/')
    expect(folders).toContain('file cycle: src/main/base/hub.ts ↔ src/main/engine/query.ts')
    const files = check(
      {
        'src/main/engine/decide.ts': "import type { Context } from './bash-decide'\n",
        'src/main/engine/bash-decide.ts': "import { decide } from './decide'\nexport type Context = 1\n",
      },
      rows,
    )
    expect(files).toEqual(['file cycle: src/main/engine/bash-decide.ts ↔ src/main/engine/decide.ts'])
  })

  it('fails a feature importing another feature (same rank), and a folder with no rank', () => {
    const found = check(
      {
        'src/renderer/src/features/chat/Chat.tsx': "import '../status/Status'\n",
        'src/renderer/src/features/status/Status.tsx': 'export {}\n',
        'src/main/newcomer/thing.ts': 'export {}\n',
      },
      rows,
    )
    expect(found).toEqual([
      'src/main/newcomer/thing.ts: its folder src/main/newcomer/ has no rank (add a row to the table in docs/architecture.md)',
      'src/renderer/src/features/chat/Chat.tsx → ../status/Status: src/renderer/src/features/chat/ (rank 20) imports a unit of the same rank, src/renderer/src/features/status/ (rank 20)',
    ])
  })

  it('reads the table from the document, rows for coming folders included', () => {
    expect(table).toContainEqual({ rank: 10, folder: 'src/main/base/' })
    expect(table).toContainEqual({ rank: 20, folder: 'src/renderer/src/features/*/' })
    for (const coming of ['src/main/compaction/', 'src/main/memory/', 'src/main/agents/', 'src/main/services/mcp/', 'src/main/extensions/', 'src/main/store/tasks/']) {
      expect(table.map((row) => row.folder)).toContain(coming)
    }
    expect(() => readRankTable('# no table here')).toThrow(/ranks:begin/)
  })

  it('ranks the composition root of the agent side above the conversation, and the process-wide services below it', () => {
    const rankOf = (folder: string): number | undefined => table.find((row) => row.folder === folder)?.rank
    const session = rankOf('src/main/session/') ?? 0
    expect(rankOf('src/main/runtime/')).toBeGreaterThan(session)
    expect(rankOf('src/main/runtime/')).toBeLessThan(rankOf('src/main/host/') ?? 0)
    for (const service of ['src/main/governance/sandbox/shared/', 'src/main/extensions/runtime/']) expect(rankOf(service)).toBeLessThan(session)
    const planted = check(
      { 'src/main/session/session.ts': "import '../runtime/runtime'\n", 'src/main/runtime/runtime.ts': "import '../session/session'\n" },
      table,
    )
    expect(planted).toContain('src/main/session/session.ts → ../runtime/runtime: src/main/session/ (rank 90) imports a higher rank, src/main/runtime/ (rank 95)')
  })
})
