import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../base/atomic-write'
import { withFileLock } from './file-lock'

/** One member of a team, as Claude Code's `config.json` lists it (plus `isActive`, the design's field). */
export const TeamMember = z
  .object({
    agentId: z.string(),
    name: z.string(),
    agentType: z.string(),
    color: z.string().optional(),
    isActive: z.boolean().optional(),
    joinedAt: z.number().optional(),
    cwd: z.string().optional(),
    backendType: z.string().optional(),
  })
  .passthrough()
export type TeamMember = z.infer<typeof TeamMember>

/** A team's `config.json`: its name, its lead, its members (the lead first). Unknown fields are kept. */
export const TeamConfig = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    createdAt: z.number().optional(),
    leadAgentId: z.string(),
    leadSessionId: z.string().optional(),
    members: z.array(TeamMember),
  })
  .passthrough()
export type TeamConfig = z.infer<typeof TeamConfig>

/** The name the lead goes by in its team (Claude Code's). */
export const LEAD_NAME = 'team-lead'

/** The colours teammates get, in order (Claude Code's palette). */
export const TEAM_COLORS = ['blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan', 'red'] as const

/** `<team>/config.json`. */
export function teamConfigPath(teamDir: string): string {
  return join(teamDir, 'config.json')
}

/**
 * Reads a team's config. Undefined when there is none; an error (never a guess) when the file is
 * not a team config: a damaged config fails closed.
 */
export async function readTeamConfig(teamDir: string): Promise<TeamConfig | undefined> {
  let text: string
  try {
    text = await readFile(teamConfigPath(teamDir), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw new Error(`${teamConfigPath(teamDir)} is not JSON; the team cannot be used until it is fixed or removed.`)
  }
  const parsed = TeamConfig.safeParse(raw)
  if (!parsed.success) throw new Error(`${teamConfigPath(teamDir)} is not a team config (${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}).`)
  return parsed.data
}

/** Writes a new team's config; refuses when the team exists already. */
export async function createTeamConfig(teamDir: string, config: TeamConfig): Promise<{ ok: true } | { ok: false; error: string }> {
  const file = teamConfigPath(teamDir)
  return withFileLock(file, async () => {
    if (await readTeamConfig(teamDir).catch(() => 'damaged')) return { ok: false as const, error: `A team named "${config.name}" already exists (${file}).` }
    await writeFileAtomic(file, JSON.stringify(config, null, 2), 0o644)
    return { ok: true as const }
  })
}

/** Changes a team's config under its lock (read, `change`, write); undefined when the team is gone. */
export async function updateTeamConfig(teamDir: string, change: (config: TeamConfig) => TeamConfig): Promise<TeamConfig | undefined> {
  const file = teamConfigPath(teamDir)
  return withFileLock(file, async () => {
    const current = await readTeamConfig(teamDir)
    if (!current) return undefined
    const next = change(current)
    await writeFileAtomic(file, JSON.stringify(next, null, 2), 0o644)
    return next
  })
}

/** Removes a team's folder (config and mailboxes). */
export async function removeTeam(teamDir: string): Promise<void> {
  await rm(teamDir, { recursive: true, force: true })
}
