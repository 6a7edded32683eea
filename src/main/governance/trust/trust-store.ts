import { readFileSync, realpathSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { writeFileAtomicSync } from '../../base/atomic-write'
import type { TrustFingerprints } from './project-config'

/** One trusted folder: when, and the fingerprints of what the user saw. */
export interface TrustRecord {
  trustedAt: string
  fingerprints: TrustFingerprints
}

/** The trust file, read: every trusted folder by real path, or why the file cannot be used. */
export type TrustFile = { ok: true; projects: Record<string, TrustRecord> } | { ok: false; error: string }

/** `$SOUS_HOME/trust.json`. */
export function trustFilePath(sousHome: string): string {
  return join(sousHome, 'trust.json')
}

/**
 * The folders the user trusted, in `$SOUS_HOME/trust.json`, keyed by real path (a symlink to a
 * trusted folder is the same folder; a folder moved elsewhere is a new one). A file that cannot be
 * read trusts nothing (fail closed) and is never overwritten: grant and revoke report it instead.
 */
export class TrustStore {
  constructor(private readonly sousHome: string) {}

  get file(): string {
    return trustFilePath(this.sousHome)
  }

  /** The whole file (see {@link TrustFile}). */
  read(): TrustFile {
    let text: string
    try {
      text = readFileSync(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, projects: {} }
      return { ok: false, error: `${this.file} cannot be read: ${(error as Error).message}` }
    }
    try {
      const parsed = JSON.parse(text) as { projects?: unknown }
      if (parsed.projects === null || typeof parsed.projects !== 'object' || Array.isArray(parsed.projects)) throw new Error('no "projects" object')
      return { ok: true, projects: parsed.projects as Record<string, TrustRecord> }
    } catch (error) {
      return { ok: false, error: `${this.file} is not valid (${(error as Error).message}); fix or delete it, then review trust again` }
    }
  }

  /** The record of a folder, if it was trusted (whatever its files hold now). */
  get(projectRoot: string): TrustRecord | undefined {
    const file = this.read()
    return file.ok ? validRecord(file.projects[realProjectPath(projectRoot)]) : undefined
  }

  /** Records trust in exactly these fingerprints. Returns an error message when the file cannot be updated. */
  grant(projectRoot: string, fingerprints: TrustFingerprints): string | undefined {
    return this.update((projects) => ({ ...projects, [realProjectPath(projectRoot)]: { trustedAt: new Date().toISOString(), fingerprints } }))
  }

  /** Moves one part's fingerprint forward (Sous itself wrote the file the user trusted). */
  refresh(projectRoot: string, part: keyof TrustFingerprints, fingerprint: string): string | undefined {
    const key = realProjectPath(projectRoot)
    return this.update((projects) => {
      const record = validRecord(projects[key])
      return record ? { ...projects, [key]: { ...record, fingerprints: { ...record.fingerprints, [part]: fingerprint } } } : projects
    })
  }

  /** Forgets a folder. Returns an error message when the file cannot be updated. */
  revoke(projectRoot: string): string | undefined {
    const key = realProjectPath(projectRoot)
    return this.update((projects) => {
      const { [key]: _gone, ...rest } = projects
      return rest
    })
  }

  private update(change: (projects: Record<string, TrustRecord>) => Record<string, TrustRecord>): string | undefined {
    const file = this.read()
    if (!file.ok) return file.error
    try {
      // Readable by the user alone: trust decides what runs.
      writeFileAtomicSync(this.file, `${JSON.stringify({ version: 1, projects: change(file.projects) }, null, 2)}\n`, 0o600)
      return undefined
    } catch (error) {
      return `could not save ${this.file}: ${(error as Error).message}`
    }
  }
}

/** The key a folder is trusted under: its real path (or the resolved path when it does not exist). */
export function realProjectPath(projectRoot: string): string {
  try {
    return realpathSync(projectRoot)
  } catch {
    return resolve(projectRoot)
  }
}

function validRecord(value: unknown): TrustRecord | undefined {
  const record = value as Partial<TrustRecord> | undefined
  const f = record?.fingerprints
  if (!f || typeof f.settings !== 'string' || typeof f.mcp !== 'string' || typeof f.extensions !== 'string') return undefined
  return record as TrustRecord
}
