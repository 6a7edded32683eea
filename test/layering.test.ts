import { builtinModules } from 'node:module'
import { dirname, join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importsOf, ROOT, sourceFiles } from './source-scan'

/**
 * The layering rules of docs/architecture.md, checked over every import of every file under
 * src/ (the ESLint config says the same; this test also covers dynamic imports and requires).
 */

const files = sourceFiles('src')
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
      if (file.startsWith('src/renderer/')) {
        if (under(dest, 'src/main') || under(dest, 'src/preload') || under(dest, 'src/cli')) fail('the renderer imports main-side code')
        if (isNodeBuiltin(specifier)) fail('the renderer imports a Node built-in')
      }
      if (file.startsWith('src/shared/')) {
        if (dest && !under(dest, 'src/shared')) fail('shared/ imports code of ours outside shared/')
        if (isNodeBuiltin(specifier)) fail('shared/ imports a Node built-in')
      }
      if (file.startsWith('src/main/') && (under(dest, 'src/renderer') || under(dest, 'src/preload'))) fail('main imports renderer or preload code')
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
})
