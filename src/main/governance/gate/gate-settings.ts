import { startupMark } from '../../base/startup-marks'
import { statSync } from 'node:fs'
import { sousHome } from '../../base/paths'
import { loadSettings, settingsFilePaths, type LoadSettingsOptions } from '../settings/load'
import type { MergedSettings, SettingsDiagnostic } from '../settings/types'
import { trustFilePath } from '../trust/trust-store'

/** A message for the user about configuration (shown once per distinct problem). */
export interface GateNotice {
  level: 'info' | 'warning' | 'error'
  message: string
}

/**
 * The merged settings of a project, re-read when any settings file (or the trust file) changes.
 * Each call stats the five files (~20 µs; a full load of small files is ~40 µs and grows with them, see
 * bench/gate.bench.ts) and reloads only when a size, inode or nanosecond mtime differs, so an edit
 * is seen on the very next tool call, with no watcher that could miss a file created later. Problems are reported once each, and again only after they
 * were fixed and came back.
 */
export class SettingsWatch {
  private settings: MergedSettings | undefined
  private signature = ''
  private reported = new Set<string>()
  /** Problems of a load {@link peek} made, to be told at the next {@link current}. */
  private untold: SettingsDiagnostic[] | undefined
  private generation = 0

  constructor(
    private readonly projectRoot: string,
    private readonly loadOptions: LoadSettingsOptions,
    private readonly onNotice?: (notice: GateNotice) => void,
  ) {}

  /** Bumped on every reload; lets callers refresh what they derived (hooks). */
  get version(): number {
    return this.generation
  }

  /** The current settings, reloaded first when a file changed. */
  current(): MergedSettings {
    const now = this.signatureNow()
    if (!this.settings || now !== this.signature) return this.load(now)
    if (this.untold) this.report(this.untold)
    return this.settings
  }

  /**
   * The current settings for a look taken before anyone listens (the starting mode, at open): a
   * load made here keeps its problems to be told at the next {@link current}, not used up now.
   */
  peek(): MergedSettings {
    const now = this.signatureNow()
    if (this.settings && now === this.signature) return this.settings
    return this.load(now, undefined, false)
  }

  /** Reloads unconditionally and returns the diagnostics of this load. */
  reload(): { settings: MergedSettings; diagnostics: SettingsDiagnostic[] } {
    const diagnostics: SettingsDiagnostic[] = []
    const settings = this.load(this.signatureNow(), diagnostics)
    return { settings, diagnostics }
  }

  private load(signature: string, sink?: SettingsDiagnostic[], tell = true): MergedSettings {
    const { settings, diagnostics } = loadSettings(this.projectRoot, this.loadOptions)
    startupMark('settings')
    this.settings = settings
    this.signature = signature
    this.generation++
    sink?.push(...diagnostics)
    if (tell) this.report(diagnostics)
    else this.untold = diagnostics
    return settings
  }

  private report(diagnostics: SettingsDiagnostic[]): void {
    this.untold = undefined
    const keyOf = (diagnostic: SettingsDiagnostic): string => `${diagnostic.level}\u0000${diagnostic.file ?? ''}\u0000${diagnostic.message}`
    const now = new Set(diagnostics.map(keyOf))
    for (const diagnostic of diagnostics) {
      if (this.reported.has(keyOf(diagnostic))) continue
      const where = diagnostic.file && !diagnostic.message.startsWith(diagnostic.file) ? `${diagnostic.file}: ` : ''
      this.onNotice?.({ level: diagnostic.level, message: `Settings: ${where}${diagnostic.message}` })
    }
    this.reported = now
  }

  private signatureNow(): string {
    // The trust file too: trusting or revoking a folder applies from the next call.
    // A `--settings` file too (inline JSON never changes).
    const flag = this.loadOptions.cli?.settings
    const flagFile = flag !== undefined && !flag.trimStart().startsWith('{') ? [flag] : []
    return [...Object.values(settingsFilePaths(this.projectRoot, this.loadOptions)), ...flagFile, trustFilePath(this.loadOptions.sousHome ?? sousHome())]
      .map((file) => {
        try {
          const stats = statSync(file, { bigint: true })
          return `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`
        } catch {
          return '-'
        }
      })
      .join('|')
  }
}
