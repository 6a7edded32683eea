import { statSync } from 'node:fs'
import { loadSettings, settingsFilePaths, type LoadSettingsOptions } from '../settings/load'
import type { MergedSettings, SettingsDiagnostic } from '../settings/types'

/** A message for the user about configuration (shown once per distinct problem). */
export interface GateNotice {
  level: 'info' | 'warning' | 'error'
  message: string
}

/**
 * The merged settings of a project, re-read when any settings file changes. Each call stats the
 * four files (~20 µs; a full load of small files is ~40 µs and grows with them, see
 * bench/gate.bench.ts) and reloads only when a size, inode or nanosecond mtime differs, so an edit
 * is seen on the very next tool call, with no watcher that could miss a file created later. Problems are reported once each, and again only after they
 * were fixed and came back.
 */
export class SettingsWatch {
  private settings: MergedSettings | undefined
  private signature = ''
  private reported = new Set<string>()
  private generation = 0

  constructor(
    private readonly projectRoot: string,
    private readonly opts: LoadSettingsOptions,
    private readonly onNotice?: (notice: GateNotice) => void,
  ) {}

  /** Bumped on every reload; lets callers refresh what they derived (hooks). */
  get version(): number {
    return this.generation
  }

  /** The current settings, reloaded first when a file changed. */
  current(): MergedSettings {
    const sig = this.signatureNow()
    if (!this.settings || sig !== this.signature) return this.load(sig)
    return this.settings
  }

  /** Reloads unconditionally and returns the diagnostics of this load. */
  reload(): { settings: MergedSettings; diagnostics: SettingsDiagnostic[] } {
    const diagnostics: SettingsDiagnostic[] = []
    const settings = this.load(this.signatureNow(), diagnostics)
    return { settings, diagnostics }
  }

  private load(sig: string, sink?: SettingsDiagnostic[]): MergedSettings {
    const { settings, diagnostics } = loadSettings(this.projectRoot, this.opts)
    this.settings = settings
    this.signature = sig
    this.generation++
    sink?.push(...diagnostics)
    this.report(diagnostics)
    return settings
  }

  private report(diagnostics: SettingsDiagnostic[]): void {
    const now = new Set(diagnostics.map((d) => `${d.level}\u0000${d.file ?? ''}\u0000${d.message}`))
    for (const d of diagnostics) {
      const key = `${d.level}\u0000${d.file ?? ''}\u0000${d.message}`
      if (this.reported.has(key)) continue
      const where = d.file && !d.message.startsWith(d.file) ? `${d.file}: ` : ''
      this.onNotice?.({ level: d.level, message: `Settings: ${where}${d.message}` })
    }
    this.reported = now
  }

  private signatureNow(): string {
    return Object.values(settingsFilePaths(this.projectRoot, this.opts))
      .map((file) => {
        try {
          const s = statSync(file, { bigint: true })
          return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`
        } catch {
          return '-'
        }
      })
      .join('|')
  }
}
