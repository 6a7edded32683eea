import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { anchorsOf, brokenLinks, conflictMarkers, contractDomains, linksOf, markdownFiles, unnamedDomains, unnamedFolders } from './docs'
import { readRankTable } from './layers'
import { ROOT } from './source-scan'

/**
 * The docs hold together: every relative link (and anchor) in the README and under docs/ leads
 * somewhere, no merge left its conflict markers in them, and the map (docs/architecture.md) names, in its prose outside the rank table, every
 * folder the table ranks and every domain of the contract — so a new folder or domain cannot be
 * added to the code without the map saying where it lives.
 */

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8')
const documents = ['README.md', ...markdownFiles(ROOT, 'docs')]
const map = read('docs/architecture.md')

describe('the docs', () => {
  it('have no broken relative links or anchors', () => {
    expect(documents.length).toBeGreaterThan(20)
    expect(documents.flatMap((file) => brokenLinks(ROOT, file))).toEqual([])
  })

  it('the map names every ranked folder outside the rank table', () => {
    expect(unnamedFolders(map, readRankTable(map))).toEqual([])
  })

  it('the map names every domain of the contract', () => {
    const domains = contractDomains(read('src/shared/ipc/contract.ts'))
    expect(domains).toContain('session')
    expect(domains.length).toBeGreaterThanOrEqual(14)
    expect(unnamedDomains(map, domains)).toEqual([])
  })

  it('hold no conflict markers a merge left behind', () => {
    expect(documents.flatMap((file) => conflictMarkers(file, read(file)))).toEqual([])
  })

  it('the README keeps the test command CI runs', () => {
    expect(read('README.md')).toMatch(/^npm test\b/m)
    expect(read('.ci/run')).toContain('npm test')
  })
})

describe('the checks can fail', () => {
  const root = mkdtempSync(join(tmpdir(), 'sous-docs-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  const write = (file: string, text: string): void => {
    mkdirSync(dirname(join(root, file)), { recursive: true })
    writeFileSync(join(root, file), text)
  }

  it('reports a missing file, a missing anchor and a link out of the tree, and skips code and URLs', () => {
    write('docs/guide/a.md', '# A page\n\n## Two words `here`\n\n## Two words here\n')
    write('docs/pic.png', 'png')
    write(
      'README.md',
      [
        '[ok](docs/guide/a.md#two-words-here) [repeat](docs/guide/a.md#two-words-here-1) ![pic](docs/pic.png) [self](#top)',
        '[gone](docs/guide/b.md) [no heading](docs/guide/a.md#three-words) [out](../elsewhere.md)',
        '`[in code](nowhere.md)` [web](https://example.com/x.md)',
        '```',
        '[in a fence](nowhere.md)',
        '```',
        '# Top',
      ].join('\n'),
    )
    expect(brokenLinks(root, 'README.md')).toEqual([
      'README.md: docs/guide/b.md → no such file docs/guide/b.md',
      'README.md: docs/guide/a.md#three-words → docs/guide/a.md has no heading #three-words',
      'README.md: ../elsewhere.md → no such file ../elsewhere.md',
    ])
    expect(linksOf('[a](x.md) `[b](y.md)`')).toEqual(['x.md'])
    expect([...anchorsOf('# `@` mentions (`files.search`)\n')]).toEqual(['-mentions-filessearch'])
  })

  it('reports a ranked folder the prose does not name, and short names only where they are unique', () => {
    const table = [
      '<!-- ranks:begin -->',
      '| 1 | `src/main/app/`, `src/main/governance/gate/` | x |',
      '| 2 | `src/renderer/src/app/`, `src/main/*`, `src/main/projects/` | x |',
      '<!-- ranks:end -->',
    ].join('\n')
    const rows = readRankTable(table)
    expect(unnamedFolders(`${table}\nThe gate is \`governance/gate/\`; \`src/main/*\` roots; \`features/projects/\`; \`app/\`.`, rows)).toEqual([
      'src/main/app/',
      'src/renderer/src/app/',
      'src/main/projects/',
    ])
    expect(unnamedFolders(`${table}\n\`src/main/app/\`, \`src/renderer/src/app/\`, governance/gate/, src/main/*, (projects/)`, rows)).toEqual([])
  })

  it('reports conflict markers, and not a heading underlined with =', () => {
    const merged = ['# Title', '', 'Heading', '=======', '<<<<<<< HEAD', 'ours', '=======', 'theirs', '>>>>>>> w-remote2', '<<<<<<<<'].join('\n')
    expect(conflictMarkers('a.md', merged)).toEqual(['a.md:5', 'a.md:9'])
  })

  it('reports a contract domain the map leaves out', () => {
    const contract = "import { aRequests } from './a'\nimport { bEvents, bRequests } from './b'\nimport type { z } from 'zod'\n"
    expect(contractDomains(contract)).toEqual(['a', 'b'])
    expect(unnamedDomains('domains: `a`', ['a', 'b'])).toEqual(['b'])
  })
})
