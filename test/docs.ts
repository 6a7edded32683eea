import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, posix } from 'node:path'
import type { RankRow } from './layers'

/**
 * The checks of the docs test as pure functions over text (and, for links, a file system root),
 * so the test can also run them over planted mistakes and prove they fail.
 */

/** Markdown with fenced code blocks and inline code blanked out: links in code are not links. */
export function prose(markdown: string): string {
  const lines = markdown.split('\n')
  let fence: string | undefined
  return lines
    .map((line) => {
      const opens = /^\s*(```+|~~~+)/.exec(line)
      if (fence) {
        if (opens && opens[1]!.startsWith(fence)) fence = undefined
        return ''
      }
      if (opens) {
        fence = opens[1]!
        return ''
      }
      return line.replace(/(`+)[\s\S]*?\1/g, (code) => ' '.repeat(code.length))
    })
    .join('\n')
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** Every anchor a Markdown document offers: its headings' slugs, repeats numbered as GitHub does. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  const lines = markdown.split('\n')
  let fence = false
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence
    const heading = fence ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const slug = slugOf(heading[1]!)
    const count = seen.get(slug) ?? 0
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
    seen.set(slug, count + 1)
  }
  return anchors
}

/** The targets of a document's inline links and images, code left out. */
export function linksOf(markdown: string): string[] {
  const out: string[] = []
  for (const match of prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(match[1]!)
  return out
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target)

/**
 * Every relative link of `file` (a path under `root`, with `/`) that leads nowhere: a missing file
 * or folder, or an anchor no heading of the target document has. External links are not followed.
 */
export function brokenLinks(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8')
  const out: string[] = []
  for (const target of linksOf(text)) {
    if (isExternal(target)) continue
    const [path = '', anchor] = target.split('#', 2)
    const dest = path === '' ? file : posix.normalize(posix.join(posix.dirname(file), decodeURI(path)))
    if (dest.startsWith('..') || !existsSync(join(root, dest))) {
      out.push(`${file}: ${target} → no such file ${dest}`)
      continue
    }
    if (anchor === undefined || anchor === '') continue
    if (!dest.endsWith('.md') || statSync(join(root, dest)).isDirectory()) continue
    const anchors = anchorsOf(readFileSync(join(root, dest), 'utf8'))
    if (!anchors.has(decodeURIComponent(anchor))) out.push(`${file}: ${target} → ${dest} has no heading #${anchor}`)
  }
  return out
}

/** Every `*.md` file under `dir` (relative to `root`, with `/`), sorted. */
export function markdownFiles(root: string, dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) out.push(...markdownFiles(root, path))
    else if (entry.name.endsWith('.md')) out.push(path)
  }
  return out.sort()
}

const BEGIN = '<!-- ranks:begin -->'
const END = '<!-- ranks:end -->'

/** The map without its rank table: what the prose says. */
export function outsideRanks(markdown: string): string {
  const start = markdown.indexOf(BEGIN)
  const end = markdown.indexOf(END)
  return start < 0 || end < start ? markdown : markdown.slice(0, start) + markdown.slice(end + END.length)
}

/**
 * How a ranked folder may be named in the map's prose: as its row spells it, or — when what is
 * left is not empty and names no other row — without `src/main/`, `src/renderer/src/` or `src/`
 * (`src/main/governance/gate/` as `governance/gate/`; `src/main/app/` and `src/renderer/src/app/`
 * both need their full names; `src/main/*` needs exactly that).
 */
export function namesOf(folder: string, all: readonly string[]): string[] {
  const short = (f: string): string => f.replace(/^src\/(main\/|renderer\/src\/)?/, '')
  const mine = short(folder)
  const names = [folder]
  if (mine !== '' && mine !== '*' && all.filter((other) => short(other) === mine).length === 1) names.push(mine)
  return names
}

/** A name counts only as a whole path: not preceded by a path character (`features/projects/` does not name `projects/`). */
const mentions = (text: string, name: string): boolean => {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(^|[^\\w./-])${escaped}`, 'm').test(text)
}

/** The ranked folders the map's prose (outside the rank table) never names. */
export function unnamedFolders(map: string, rows: readonly RankRow[]): string[] {
  const text = outsideRanks(map)
  const folders = [...new Set(rows.map((row) => row.folder))]
  return folders.filter((folder) => !namesOf(folder, folders).some((name) => mentions(text, name)))
}

/** The contract's domains: the files `contract.ts` spreads requests or events from. */
export function contractDomains(contract: string): string[] {
  const domains = new Set<string>()
  for (const match of contract.matchAll(/import\s*\{[^}]*\b\w+(?:Requests|Events)\b[^}]*\}\s*from\s*'\.\/([\w-]+)'/g)) domains.add(match[1]!)
  return [...domains].sort()
}

/** The domains the map does not name as `` `domain` ``. */
export function unnamedDomains(map: string, domains: readonly string[]): string[] {
  const text = outsideRanks(map)
  return domains.filter((domain) => !text.includes(`\`${domain}\``))
}


/**
 * The lines of `text` that a merge left as conflict markers (`<<<<<<< ours`, `>>>>>>> theirs`),
 * as `file:line`. The `=======` between them is not looked for: Markdown uses it to underline a
 * heading.
 */
export function conflictMarkers(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, index) => (/^(<{7}|>{7})( |$)/.test(line) ? [`${file}:${index + 1}`] : []))
}
