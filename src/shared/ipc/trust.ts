import { z } from 'zod'
import { AbsPath, Empty } from './common'

/** What a project's own files would change, as the trust dialog lists it. */
export const TrustSummary = z.object({
  hooks: z.array(z.object({ event: z.string(), matcher: z.string().optional(), command: z.string(), file: z.string() })),
  allowRules: z.array(z.object({ rule: z.string(), file: z.string() })),
  additionalDirectories: z.array(z.object({ path: z.string(), file: z.string() })),
  loosening: z.array(z.object({ setting: z.string(), value: z.string(), file: z.string() })),
  mcpServers: z.array(z.object({ name: z.string(), launch: z.string(), file: z.string() })),
  agents: z.array(z.string()),
  skills: z.array(z.string()),
  commands: z.array(z.string()),
  problems: z.array(z.string()),
})
export type TrustSummary = z.infer<typeof TrustSummary>

/** A folder's trust: whether its own configuration is obeyed, and what it holds. */
export const TrustStatus = z.object({
  /** The real path trust is kept under. */
  projectPath: z.string(),
  state: z.enum(['trusted', 'untrusted', 'changed']),
  /** With `changed`: which parts differ from what was trusted. */
  changed: z.array(z.enum(['settings', 'mcp', 'extensions'])),
  summary: TrustSummary,
  /** Whether to ask (a folder with nothing to trust is not asked about). */
  needsReview: z.boolean(),
  /** What is shown; `trust.grant` must send it back. */
  fingerprint: z.string(),
  trustedAt: z.string().optional(),
  /** The trust file cannot be used: nothing is trusted until it is fixed. */
  problem: z.string().optional(),
})
export type TrustStatus = z.infer<typeof TrustStatus>

/** `trust.*`: the trust step — whether a folder's own configuration (hooks, allow rules…) is obeyed. */
export const trustRequests = {
  /**
   * A folder's trust and what its own files would change (hooks, allow rules, MCP servers…). A
   * folder with nothing to trust is recorded as trusted as it is, so a later change asks.
   */
  'trust.status': { input: z.object({ projectPath: AbsPath }).strict(), output: TrustStatus },
  /**
   * Trusts a folder as shown: `fingerprint` comes from `trust.status`; CONFLICT when the files
   * changed since (review again).
   */
  'trust.grant': { input: z.object({ projectPath: AbsPath, fingerprint: z.string().min(1).max(200) }).strict(), output: TrustStatus },
  /** Forgets a folder's trust: its own hooks, allow rules… are ignored again. */
  'trust.revoke': { input: z.object({ projectPath: AbsPath }).strict(), output: z.void() },
  /** Every trusted folder, newest first (Settings). */
  'trust.list': { input: Empty, output: z.array(z.object({ projectPath: z.string(), trustedAt: z.string() })) },
} as const
