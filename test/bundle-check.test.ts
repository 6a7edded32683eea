import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkBundle, checkCodicon, checkFirstPaint, FIRST_PAINT_BUDGET_BYTES } from '../scripts/bundle-check'

// The smoke check of a build, over small planted builds: one that would start, and one with every
// kind of break it must name. Planted inside the repository so packages resolve as in `out/`.
let out: string
beforeEach(() => {
  out = mkdtempSync(join(import.meta.dirname, '..', '.bundle-check-test-'))
  mkdirSync(join(out, 'main', 'chunks'), { recursive: true })
  mkdirSync(join(out, 'preload'))
  mkdirSync(join(out, 'renderer', 'assets'), { recursive: true })
})
afterEach(() => rmSync(out, { recursive: true, force: true }))

function plant(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) writeFileSync(join(out, path), text)
}

const goodRenderer = {
  'renderer/index.html': '<!doctype html><link rel="stylesheet" href="./assets/app.css"><script type="module" src="./assets/app.js"></script><a href="https://example.org">x</a>',
  'renderer/assets/app.css': '@font-face{font-family:"codicon";src:url(./codicon-1.ttf) format("truetype")}',
  'renderer/assets/codicon-1.ttf': 'font',
  'renderer/assets/app.js': '',
}

describe('bundle check', () => {
  it('passes a build whose graph resolves, with a CommonJS preload and every asset', async () => {
    plant({
      'main/index.js': 'import { app } from "electron"\nimport { readFileSync } from "node:fs"\nimport { a } from "./chunks/a.js"\nconst later = () => import("./chunks/b.js")\n',
      'main/cli.js': 'import "./chunks/a.js"\n',
      'main/chunks/a.js': 'import { diffLines } from "diff"\nimport { createRequire } from "node:module"\nconst require = createRequire(import.meta.url)\nrequire.resolve("tree-sitter-bash/tree-sitter-bash.wasm")\nexport const a = 1\n',
      'main/chunks/b.js': 'export const b = await import("@vscode/ripgrep")\n',
      'preload/index.cjs': 'let electron = require("electron")\nelectron.contextBridge.exposeInMainWorld("sous", {})\n',
      ...goodRenderer,
    })
    expect(await checkBundle(out)).toEqual([])
  })

  it('names a missing chunk, an unresolvable package, an ES preload and a missing asset', async () => {
    plant({
      'main/index.js': 'import "./chunks/gone.js"\nimport "./chunks/a.js"\n',
      'main/cli.js': '',
      'main/chunks/a.js': 'const lazy = () => import("not-a-package-sous-needs")\nconst require = globalThis.require\nrequire("also-not-installed")\n',
      'preload/index.cjs': 'import { contextBridge } from "electron"\nrequire("node:fs")\n',
      'renderer/index.html': '<script type="module" src="./assets/missing.js"></script>',
    })
    const problems = await checkBundle(out)
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('imports ./chunks/gone.js, which is not in the build'),
        expect.stringContaining('imports not-a-package-sous-needs: cannot be resolved'),
        expect.stringContaining('imports also-not-installed: cannot be resolved'),
        expect.stringContaining('the preload is not CommonJS'),
        expect.stringContaining('requires node:fs'),
        expect.stringContaining('index.html names ./assets/missing.js'),
      ]),
    )
    expect(problems).toHaveLength(7)
    expect(problems).toContain('no stylesheet in the build declares the codicon font (Monaco would draw its icons as boxes)')
  })

  it('names a codicon font face whose file is missing', () => {
    plant({ 'renderer/assets/editor.css': '@font-face{font-family:codicon;src:url(./codicon-2.ttf)}' })
    expect(checkCodicon(join(out, 'renderer', 'assets'))).toEqual(['editor.css names the codicon font ./codicon-2.ttf, which is not in the build'])
  })

  it('names Monaco or a heavy entry loaded before the first paint, not what is imported later', async () => {
    plant({
      'renderer/index.html': '<script type="module" src="./assets/index-1.js"></script><link rel="modulepreload" href="./assets/runtime-1.js">',
      'renderer/assets/index-1.js': 'import "./runtime-1.js"\nconst app = () => import("./start-1.js")\n',
      'renderer/assets/runtime-1.js': 'export const r = 1\n',
      'renderer/assets/start-1.js': `import "./editor.api-1.js"\nexport const big = "${'x'.repeat(FIRST_PAINT_BUDGET_BYTES)}"\n`,
      'renderer/assets/editor.api-1.js': 'export const monaco = 1\n',
    })
    const page = join(out, 'renderer', 'index.html')
    expect(await checkFirstPaint(page)).toEqual([])
    // The app imported statically by the entry: Monaco and the whole chunk would load before the paint.
    plant({ 'renderer/assets/index-1.js': 'import "./runtime-1.js"\nimport "./start-1.js"\n' })
    const problems = await checkFirstPaint(page)
    expect(problems).toHaveLength(2)
    expect(problems[0]).toContain('loads Monaco (assets/editor.api-1.js)')
    expect(problems[1]).toMatch(/loads \d+ kB of JavaScript before its first paint/)
  })
})
