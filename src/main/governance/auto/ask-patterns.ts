import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { writeFileAtomicSync } from '../../base/atomic-write'
import { parseRule } from '../rules/parse'
import type { LoadedRule } from '../settings/types'

/** `<projectDataDir>/auto-mode.json`: the project's "ask me next time" patterns, in Sous's own data (never the repository's). */
export function autoAskFile(projectDataDir: string): string {
  return join(projectDataDir, 'auto-mode.json')
}

/**
 * Auto mode's "ask me next time" patterns: rule patterns (the syntax of permission rules) that, in
 * auto mode only, ask the user instead of the classifier. Session patterns live in memory; project
 * patterns in {@link autoAskFile}, read on every call (a second window's choice applies at once).
 * An unreadable project file fails closed: {@link unreadable} is true, and the gate then lets no
 * call through the classifier (every classifiable call asks) until it is fixed.
 */
export class AutoAskPatterns {
  private readonly session: LoadedRule[] = []

  constructor(
    private readonly projectRoot: string,
    private readonly file: string,
    private readonly onProblem: (message: string) => void = () => {},
  ) {}

  /** Adds a pattern; an error message when it is not a rule pattern or cannot be saved. */
  add(text: string, scope: 'session' | 'project'): string | undefined {
    const parsed = parseRule(text)
    if (!parsed.ok) return parsed.error
    if (scope === 'session') {
      if (!this.session.some((rule) => rule.origin.text === text)) this.session.push(this.loaded(text, parsed.rule))
      return undefined
    }
    const { patterns: saved, unreadable } = this.readFile()
    if (unreadable) return `${this.file} could not be read; fix or remove it first`
    if (saved.includes(text)) return undefined
    try {
      mkdirSync(dirname(this.file), { recursive: true })
      writeFileAtomicSync(this.file, `${JSON.stringify({ ask: [...saved, text] }, null, 2)}\n`)
    } catch (error) {
      return `could not save ${this.file}: ${(error as Error).message}`
    }
    return undefined
  }

  /** Every pattern now in force, as ask rules (session first). */
  rules(): LoadedRule[] {
    const project = this.readFile().patterns.flatMap((text) => {
      const parsed = parseRule(text)
      return parsed.ok ? [{ ...this.loaded(text, parsed.rule), origin: { text, behavior: 'ask' as const, source: 'session' as const, file: this.file } }] : []
    })
    return [...this.session, ...project]
  }

  private loaded(text: string, parsed: LoadedRule['parsed']): LoadedRule {
    return { parsed, origin: { text, behavior: 'ask', source: 'session' }, sourceRoot: this.projectRoot }
  }

  /** The project file exists and cannot be read as `{ "ask": [patterns] }`. */
  unreadable(): boolean {
    return this.readFile().unreadable
  }

  private warned = false

  private readFile(): { patterns: string[]; unreadable: boolean } {
    let text: string
    try {
      text = readFileSync(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { patterns: [], unreadable: false }
      return this.problem()
    }
    try {
      const data = JSON.parse(text) as { ask?: unknown }
      if (Array.isArray(data.ask) && data.ask.every((x) => typeof x === 'string')) return { patterns: data.ask as string[], unreadable: false }
    } catch {
      // reported below
    }
    return this.problem()
  }

  private problem(): { patterns: string[]; unreadable: boolean } {
    if (!this.warned) this.onProblem(`${this.file} could not be read as { "ask": [patterns] }; auto mode asks about every call no rule decides until it is fixed`)
    this.warned = true
    return { patterns: [], unreadable: true }
  }
}
