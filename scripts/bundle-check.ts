import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules, createRequire } from 'node:module'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Script } from 'node:vm'
import { init, parse } from 'es-module-lexer'

/**
 * A smoke check of the built app that needs no Electron binary: every module the main process
 * (and the CLI built with it) can load resolves to a file, the preload is CommonJS that requires
 * only `electron`, every asset the renderer's `index.html` names exists, and what the window loads
 * before its first paint is small and holds no Monaco ({@link checkFirstPaint}). Run after
 * `npm run build` (`npm run check:bundle`); exits non-zero with one line per problem.
 */

/** Modules the Electron runtime provides itself. */
const ELECTRON_PROVIDED = new Set(['electron'])
const BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)])

/** One missing or wrong piece of the build. */
export type BundleProblem = string

/** Every problem of the build in `outDir` (empty when it would start). */
export async function checkBundle(outDir: string): Promise<BundleProblem[]> {
  const main = join(outDir, 'main')
  const entries = ['index.js', 'cli.js'].map((name) => join(main, name))
  const page = join(outDir, 'renderer', 'index.html')
  return [...(await checkModuleGraph(entries, main)), ...checkPreload(join(outDir, 'preload', 'index.cjs')), ...checkRenderer(page), ...(await checkFirstPaint(page)), ...checkCodicon(join(outDir, 'renderer', 'assets'))]
}

/** JavaScript the window may load before its first paint (the entry and what it imports statically). */
export const FIRST_PAINT_BUDGET_BYTES = 16 * 1024

/**
 * The window's first chunk stays small and free of Monaco (issue 30): the scripts `index.html`
 * names and everything they import statically (dynamic imports come later, after the boot shell is
 * painted: `src/renderer/src/main.tsx`) hold no Monaco chunk (`editor.api-*`, `editor.main-*`) and
 * weigh at most {@link FIRST_PAINT_BUDGET_BYTES}.
 */
export async function checkFirstPaint(indexHtml: string): Promise<BundleProblem[]> {
  if (!existsSync(indexHtml)) return []
  await init
  const html = readFileSync(indexHtml, 'utf8')
  const queue = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)\s*=\s*(["'])([^"']+\.js)\1/g)].map((match) => resolve(dirname(indexHtml), match[2]!))
  const seen = new Set<string>()
  const problems: BundleProblem[] = []
  let bytes = 0
  while (queue.length > 0) {
    const file = queue.shift()!
    if (seen.has(file) || !existsSync(file)) continue
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    bytes += Buffer.byteLength(source)
    if (/^editor\.(?:api|main)-/.test(basename(file))) problems.push(`the window's first chunk loads Monaco (${relative(dirname(indexHtml), file)}) before its first paint: import it where it is shown`)
    let imports: ReturnType<typeof parse>[0] = []
    try {
      imports = parse(source, file)[0]
    } catch {
      continue
    }
    // `d === -1` is a static import; dynamic ones (d > -1) load after the first paint.
    for (const entry of imports) if (entry.d === -1 && entry.n?.startsWith('.')) queue.push(resolve(dirname(file), entry.n))
  }
  if (bytes > FIRST_PAINT_BUDGET_BYTES) problems.push(`the window loads ${(bytes / 1024).toFixed(0)} kB of JavaScript before its first paint (budget ${FIRST_PAINT_BUDGET_BYTES / 1024} kB): keep the entry to the stylesheet and a loader (src/renderer/src/main.tsx)`)
  return problems
}

/**
 * Walks the ES module graph from `entries` through relative imports (static and dynamic, with
 * string specifiers) and resolves every package import the way Node will at run time, from
 * `resolveFrom` — without running any of it.
 */
export async function checkModuleGraph(entries: string[], resolveFrom: string): Promise<BundleProblem[]> {
  await init
  const problems: BundleProblem[] = []
  const seen = new Set<string>()
  const packages = new Map<string, string>()
  const queue = [...entries]
  for (const entry of entries) if (!existsSync(entry)) problems.push(`missing entry ${entry}`)
  while (queue.length > 0) {
    const file = queue.shift()!
    if (seen.has(file) || !existsSync(file)) continue
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    for (const specifier of specifiersOf(source, file, problems)) {
      if (specifier.startsWith('.') || specifier.startsWith('/')) {
        const target = resolve(dirname(file), specifier)
        if (existsSync(target)) queue.push(target)
        else problems.push(`${relative(resolveFrom, file)} imports ${specifier}, which is not in the build`)
      } else if (!BUILTINS.has(specifier) && !ELECTRON_PROVIDED.has(specifier) && !packages.has(specifier)) {
        packages.set(specifier, file)
      }
    }
  }
  const unresolved = await resolvePackages([...packages.keys()], resolveFrom)
  for (const [specifier, problem] of unresolved) problems.push(`${relative(resolveFrom, packages.get(specifier)!)} imports ${specifier}: ${problem}`)
  return problems
}

/** Imports, dynamic imports with a literal, and literal `require`/`require.resolve` calls. */
function specifiersOf(source: string, file: string, problems: BundleProblem[]): string[] {
  let imports: ReturnType<typeof parse>[0]
  try {
    imports = parse(source, file)[0]
  } catch (error) {
    problems.push(`${file} does not parse as a module: ${String(error)}`)
    return []
  }
  const found = imports.flatMap((entry) => (entry.n ? [entry.n] : []))
  // Bundled CommonJS reaches packages through createRequire: those names must resolve too.
  for (const match of source.matchAll(/\brequire(?:\.resolve)?\(\s*(["'])([^"'\n]+)\1\s*\)/g)) found.push(match[2]!)
  return found
}

/**
 * Resolves package specifiers as Node's ES module loader does (conditions `node`, `import`),
 * falling back to CommonJS resolution; returns those neither finds a file for, with why.
 */
async function resolvePackages(specifiers: string[], from: string): Promise<Map<string, string>> {
  const unresolved = new Map<string, string>()
  if (specifiers.length === 0) return unresolved
  // import.meta.resolve answers for the module that calls it: a probe module placed where the
  // bundle lives resolves exactly as the bundle will, without loading what it names.
  const probe = join(from, `.bundle-check-probe-${process.pid}-${Date.now()}.mjs`)
  writeFileSync(probe, 'export function where(specifier) {\n  try { return import.meta.resolve(specifier) } catch (error) { return `!${error.message}` }\n}\n')
  let where: (specifier: string) => string
  try {
    where = ((await import(pathToFileURL(probe).href)) as { where(specifier: string): string }).where
  } finally {
    rmSync(probe, { force: true })
  }
  const require = createRequire(join(from, 'index.js'))
  for (const specifier of specifiers) {
    const answer = where(specifier)
    if (!answer.startsWith('!') && (!answer.startsWith('file:') || existsSync(fileURLToPath(answer)))) continue
    try {
      const file = require.resolve(specifier)
      if (!existsSync(file)) unresolved.set(specifier, `resolves to ${file}, which does not exist`)
    } catch {
      unresolved.set(specifier, `cannot be resolved (${answer.slice(1) || 'not installed'})`)
    }
  }
  return unresolved
}

/** The sandboxed preload must be CommonJS and may require only `electron`. */
export function checkPreload(file: string): BundleProblem[] {
  if (!existsSync(file)) return [`missing preload ${file}`]
  const source = readFileSync(file, 'utf8')
  const problems: BundleProblem[] = []
  try {
    // A sandboxed preload is run as a CommonJS function body; ES module syntax does not compile there.
    new Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, { filename: file })
  } catch (error) {
    problems.push(`the preload is not CommonJS: ${(error as Error).message}`)
  }
  for (const match of source.matchAll(/\brequire\(\s*(["'])([^"'\n]+)\1\s*\)/g)) {
    if (match[2] !== 'electron') problems.push(`the sandboxed preload requires ${match[2]} (only electron is available there)`)
  }
  return problems
}

/** Every local script, stylesheet, icon or image `index.html` names must be in the build. */
export function checkRenderer(indexHtml: string): BundleProblem[] {
  if (!existsSync(indexHtml)) return [`missing renderer page ${indexHtml}`]
  const html = readFileSync(indexHtml, 'utf8')
  const problems: BundleProblem[] = []
  for (const match of html.matchAll(/\b(?:src|href)\s*=\s*(["'])([^"']+)\1/g)) {
    const reference = match[2]!
    if (/^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i.test(reference)) continue
    const target = resolve(dirname(indexHtml), reference.split(/[?#]/)[0]!)
    if (!existsSync(target)) problems.push(`index.html names ${reference}, which is not in the build`)
  }
  return problems
}

/**
 * Monaco's icon font is in the build: a stylesheet declares the `codicon` font face and the font
 * file it names is there (without it the diff gutter and the folding arrows draw as boxes).
 */
export function checkCodicon(assets: string): BundleProblem[] {
  if (!existsSync(assets)) return [`missing renderer assets ${assets}`]
  for (const name of readdirSync(assets).filter((file) => file.endsWith('.css'))) {
    const css = readFileSync(join(assets, name), 'utf8')
    for (const face of css.matchAll(/@font-face\s*{([^}]*)}/g)) {
      if (!/font-family:\s*["']?codicon/.test(face[1]!)) continue
      const url = /url\((["']?)([^)"']+)\1\)/.exec(face[1]!)?.[2]
      if (url && !/^data:/.test(url) && !existsSync(resolve(assets, url.split(/[?#]/)[0]!))) return [`${name} names the codicon font ${url}, which is not in the build`]
      return []
    }
  }
  return ['no stylesheet in the build declares the codicon font (Monaco would draw its icons as boxes)']
}

async function main(): Promise<void> {
  const outDir = resolve(process.argv[2] ?? 'out')
  const problems = await checkBundle(outDir)
  if (problems.length > 0) {
    for (const problem of problems) console.error(`bundle: ${problem}`)
    process.exitCode = 1
    return
  }
  console.log(`bundle: ${relative(process.cwd(), outDir) || outDir} is complete (main module graph resolves, preload is CommonJS, renderer assets present, the window's first chunk small and without Monaco)`)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main()
