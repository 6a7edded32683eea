import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { hasTrustRelevantConfig, mcpFingerprint, projectSettingsFiles, readProjectConfig, settingsFingerprint, type TrustFingerprints, type TrustSummary } from './project-config'
import { realProjectPath, TrustStore } from './trust-store'

/**
 * The trust step, as the host and the settings loader see it. A folder's own configuration is
 * obeyed only when the user trusted the folder and each part is still what they saw: the settings
 * loader checks the settings part, the MCP client the `.mcp.json` part, and the trust dialog all
 * three. Headless `sous -p` does not come here: it treats the folder as trusted (as Claude Code does).
 */

export type TrustPart = keyof TrustFingerprints

/** What the trust dialog shows for a folder. */
export interface TrustStatus {
  /** The real path trust is kept under. */
  projectPath: string
  /** `changed`: trusted once, but some part differs from what was trusted. */
  state: 'trusted' | 'untrusted' | 'changed'
  /** The parts that differ (with `changed`). */
  changed: TrustPart[]
  summary: TrustSummary
  /**
   * Whether there is anything to ask about: configuration that is not trusted as it is. A folder
   * with none is not asked, even when it was trusted with some that has since been deleted.
   */
  needsReview: boolean
  /** Identifies exactly what is shown; granting trust must send it back (see {@link grantTrust}). */
  fingerprint: string
  trustedAt?: string
  /** The trust file cannot be used (nothing is trusted until it is fixed). */
  problem?: string
}

/** The folder's trust as it is now. Never throws. */
export function trustStatus(projectRoot: string, sousHome: string): TrustStatus {
  const store = new TrustStore(sousHome)
  const { summary, fingerprints } = readProjectConfig(projectRoot)
  const file = store.read()
  const record = store.get(projectRoot)
  const changed = record ? (Object.keys(fingerprints) as TrustPart[]).filter((part) => record.fingerprints[part] !== fingerprints[part]) : []
  const state = !record ? 'untrusted' : changed.length > 0 ? 'changed' : 'trusted'
  return {
    projectPath: realProjectPath(projectRoot),
    state,
    changed,
    summary,
    needsReview: state !== 'trusted' && hasTrustRelevantConfig(summary),
    fingerprint: combined(fingerprints),
    ...(record ? { trustedAt: record.trustedAt } : {}),
    ...(file.ok ? {} : { problem: file.error }),
  }
}

/**
 * The folder's trust when the UI looks at it (a folder being opened). A folder with nothing to
 * trust is trusted as it is — that grants nothing, and makes any later change (a `git pull` that
 * adds a hook) a change to review, while the user's own "always allow" keeps it trusted.
 */
export function trustStatusOnOpen(projectRoot: string, sousHome: string): TrustStatus {
  const status = trustStatus(projectRoot, sousHome)
  if (status.state !== 'untrusted' || status.needsReview || status.problem) return status
  const granted = grantTrust(projectRoot, sousHome, status.fingerprint)
  return granted.ok ? granted.status : status
}

/**
 * Trusts the folder as the user saw it: `fingerprint` must be the one {@link trustStatus} gave,
 * so files changed between showing and clicking are not trusted unseen.
 */
export function grantTrust(projectRoot: string, sousHome: string, fingerprint: string): { ok: true; status: TrustStatus } | { ok: false; reason: 'changed' | 'unsaved'; message: string } {
  const { fingerprints } = readProjectConfig(projectRoot)
  if (combined(fingerprints) !== fingerprint) return { ok: false, reason: 'changed', message: "The project's files changed since they were shown. Review them again." }
  const error = new TrustStore(sousHome).grant(projectRoot, fingerprints)
  if (error) return { ok: false, reason: 'unsaved', message: error }
  return { ok: true, status: trustStatus(projectRoot, sousHome) }
}

/** Forgets the folder's trust; returns an error message when the trust file cannot be updated. */
export function revokeTrust(projectRoot: string, sousHome: string): string | undefined {
  return new TrustStore(sousHome).revoke(projectRoot)
}

/** Every trusted folder, newest first. */
export function listTrusted(sousHome: string): Array<{ projectPath: string; trustedAt: string }> {
  const file = new TrustStore(sousHome).read()
  if (!file.ok) return []
  return Object.entries(file.projects)
    .map(([projectPath, record]) => ({ projectPath, trustedAt: String(record?.trustedAt ?? '') }))
    .sort((a, b) => b.trustedAt.localeCompare(a.trustedAt))
}

/** Whether one part of the folder's configuration is trusted as it is now (`fingerprint`: that part's, computed by the caller). */
export function isPartTrusted(projectRoot: string, sousHome: string, part: TrustPart, fingerprint: string): boolean {
  return new TrustStore(sousHome).get(projectRoot)?.fingerprints[part] === fingerprint
}

/**
 * Whether the project's `.mcp.json` servers may start (the MCP client's check). `mcpJsonText` is
 * the file as the caller read it (`null`: there was none), so what runs is exactly what was
 * trusted even when the file changed in between; without it the file is read now.
 */
export function projectMcpTrusted(projectRoot: string, sousHome: string, mcpJsonText?: string | null): boolean {
  const fingerprint = mcpJsonText === undefined ? readProjectConfig(projectRoot).fingerprints.mcp : mcpFingerprint(mcpJsonText ?? undefined)
  return isPartTrusted(projectRoot, sousHome, 'mcp', fingerprint)
}

/** Whether the project's agents, skills and commands are trusted as they are (their `allowed-tools` apply). */
export function projectExtensionsTrusted(projectRoot: string, sousHome: string): boolean {
  return isPartTrusted(projectRoot, sousHome, 'extensions', readProjectConfig(projectRoot).fingerprints.extensions)
}

/**
 * Runs `write`, which changes the project's settings files on the user's behalf ("always allow",
 * the settings editor), and keeps the folder trusted when it was trusted as it was just before:
 * Sous's own edit must not ask again, while a change nobody reviewed still does.
 */
export function keepSettingsTrust<T>(projectRoot: string, sousHome: string, write: () => T): T {
  const done = settingsTrustKeeper(projectRoot, sousHome)
  const result = write()
  done()
  return result
}

/** {@link keepSettingsTrust} for a write that is asynchronous. */
export async function keepSettingsTrustAsync<T>(projectRoot: string, sousHome: string, write: () => Promise<T>): Promise<T> {
  const done = settingsTrustKeeper(projectRoot, sousHome)
  const result = await write()
  done()
  return result
}

/** Notes whether the settings were trusted as they are; the returned function moves trust to what they became. */
function settingsTrustKeeper(projectRoot: string, sousHome: string): () => void {
  const before = currentSettingsFingerprint(projectRoot)
  const wasTrusted = isPartTrusted(projectRoot, sousHome, 'settings', before)
  return () => {
    if (!wasTrusted) return
    const after = currentSettingsFingerprint(projectRoot)
    if (after !== before) new TrustStore(sousHome).refresh(projectRoot, 'settings', after)
  }
}

function currentSettingsFingerprint(projectRoot: string): string {
  const files = projectSettingsFiles(projectRoot)
  return settingsFingerprint({ local: readText(files.local), project: readText(files.project) }, projectRoot)
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

function combined(fingerprints: TrustFingerprints): string {
  return createHash('sha256').update(`${fingerprints.settings}:${fingerprints.mcp}:${fingerprints.extensions}`).digest('hex')
}
