import { z } from 'zod'
import { AbsPath } from './common'

/** Where a skill, command or MCP server definition came from. */
export const ExtensionScope = z.enum(['cli', 'local', 'project', 'user'])

/** One tool of an MCP server, as the Extensions view lists it. */
export const McpToolSummary = z.object({
  /** The name the model and permission rules use, `mcp__<server>__<tool>`. */
  name: z.string(),
  /** The server's own name for it. */
  serverName: z.string(),
  description: z.string(),
  readOnly: z.boolean(),
  destructive: z.boolean(),
  /** What its name, description and schema cost in every request (≈ characters / 4). */
  schemaTokens: z.number(),
  /** Offered to the model (the user may turn a tool off; it then costs nothing). */
  enabled: z.boolean(),
})

/** One MCP server: status, what it offers, its log. */
export const McpServerStatus = z.object({
  name: z.string(),
  scope: ExtensionScope,
  transport: z.enum(['stdio', 'http', 'sse']),
  /** The configuration file it came from (absent for `--mcp-config` JSON text). */
  file: z.string().optional(),
  status: z.enum(['pending', 'connecting', 'connected', 'failed', 'disabled', 'needs-approval', 'untrusted']),
  /** Why it failed or is held back, in one line. */
  error: z.string().optional(),
  warnings: z.array(z.string()),
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  tools: z.array(McpToolSummary),
  /** Sum of the `schemaTokens` of the tools the model is offered. */
  schemaTokens: z.number(),
  /** The user turned the server off (status `disabled`); `mcp.setEnabled` turns it back on. */
  turnedOff: z.boolean(),
  resources: z.array(z.object({ uri: z.string(), name: z.string(), description: z.string().optional(), mimeType: z.string().optional() })),
  /** Its prompts, as the slash commands that run them. */
  prompts: z.array(z.object({ command: z.string(), description: z.string().optional(), arguments: z.array(z.object({ name: z.string(), required: z.boolean() })) })),
  logs: z.array(z.object({ at: z.number(), source: z.enum(['stderr', 'server', 'sous']), text: z.string() })),
})
export type McpServerStatus = z.infer<typeof McpServerStatus>

/** A command the composer can complete after `/`. */
export const SlashCommandInfo = z.object({
  /** Without the slash. */
  name: z.string(),
  description: z.string(),
  argumentHint: z.string().optional(),
  kind: z.enum(['skill', 'command', 'mcp-prompt']),
  source: ExtensionScope,
  /** The file that defines it (skills and commands). */
  file: z.string().optional(),
})
export type SlashCommandInfo = z.infer<typeof SlashCommandInfo>

/** A skill, with what its frontmatter says. */
export const SkillInfo = z.object({
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  source: z.enum(['project', 'user']),
  file: z.string(),
  allowedTools: z.array(z.string()),
  model: z.string().optional(),
  /** Only the user may run it (`disable-model-invocation`). */
  userOnly: z.boolean(),
  /** Only the model may load it (`user-invocable: false`). */
  modelOnly: z.boolean(),
  /** `context: fork`. */
  fork: z.boolean(),
})
export type SkillInfo = z.infer<typeof SkillInfo>

/** A file or configuration entry that could not be used, and why. */
export const ExtensionProblem = z.object({ file: z.string().optional(), server: z.string().optional(), level: z.enum(['error', 'warning']), message: z.string() })
export type ExtensionProblem = z.infer<typeof ExtensionProblem>

/** Everything that extends the agent in one project. */
export const ExtensionsOverview = z.object({
  servers: z.array(McpServerStatus),
  skills: z.array(SkillInfo),
  /** Every `/name` the user can type: user-invocable skills, custom commands, MCP prompts. */
  slashCommands: z.array(SlashCommandInfo),
  problems: z.array(ExtensionProblem),
})
export type ExtensionsOverview = z.infer<typeof ExtensionsOverview>

/** A configured hook (Claude Code's `hooks` in a settings file), as the hook inspector lists it. */
export const HookInfo = z.object({
  event: z.string(),
  matcher: z.string().optional(),
  /** The command it runs (with its arguments), or its type when it is not a command hook. */
  command: z.string(),
  /** The settings level it comes from (`managed`, `cli`, `local`, `project`, `user`). */
  source: z.string(),
  file: z.string().optional(),
  /** Whether it runs; when not, `reason` says why (the folder is not trusted, hooks are turned off…). */
  applies: z.boolean(),
  reason: z.string().optional(),
})
export type HookInfo = z.infer<typeof HookInfo>

/** One run of a hook: what it was given and what came of it. */
export const HookRunInfo = z.object({
  at: z.number(),
  sessionId: z.string().optional(),
  event: z.string(),
  matcher: z.string().optional(),
  command: z.string(),
  /** The settings file it came from. */
  source: z.string().optional(),
  exitCode: z.number().nullable(),
  durationMs: z.number(),
  timedOut: z.boolean(),
  /** Its stdin (JSON), stdout and stderr, each cut to its first 8,000 characters. */
  input: z.string(),
  stdout: z.string(),
  stderr: z.string(),
  /** It could not be started, or its type is not supported. */
  error: z.string().optional(),
})
export type HookRunInfo = z.infer<typeof HookRunInfo>

/** A project's hooks and their latest runs (the hook inspector). */
export const HooksOverview = z.object({
  hooks: z.array(HookInfo),
  /** Newest last. */
  runs: z.array(HookRunInfo),
  /** `disableAllHooks` is set. */
  disabled: z.boolean(),
  /** Settings files that could not be read (their hooks do not run). */
  problems: z.array(z.string()),
})
export type HooksOverview = z.infer<typeof HooksOverview>

const ServerRef = z.object({ projectPath: AbsPath, server: z.string().min(1).max(200) }).strict()

export const extensionsRequests = {
  /**
   * MCP servers (status, tools with their schema cost, logs), skills, slash commands and problems
   * of a project. Servers of a project with no open session are listed from configuration, `pending`.
   */
  'extensions.list': { input: z.object({ projectPath: AbsPath }).strict(), output: ExtensionsOverview },
  /** Restarts a server of a project with an open session (a crashed or hung one, say). */
  'mcp.restart': { input: ServerRef, output: z.void() },
  /** Approves a project (`.mcp.json`) server, exactly as configured now, and starts it. */
  'mcp.approve': { input: ServerRef, output: z.void() },
  /**
   * Turns a server (or, with `tool` — the server's own name for it — one of its tools) on or off
   * in this project, saved for later sessions. A server turned off stops at once; a tool leaves the
   * tool list from the next request.
   */
  /** The project's hooks per event, where each comes from and whether it runs, and the latest runs. */
  'hooks.list': { input: z.object({ projectPath: AbsPath }).strict(), output: HooksOverview },
  'mcp.setEnabled': { input: ServerRef.extend({ tool: z.string().min(1).max(200).optional(), enabled: z.boolean() }).strict(), output: z.void() },
  /**
   * The "Add MCP server" form: writes a server under `mcpServers` of the file the user picked
   * (`project`: the project's `.mcp.json`; `user`: `$SOUS_HOME/settings.json`). Refused before
   * writing (INVALID_INPUT) when the name is taken, the command does not exist, the URL is not
   * http(s), or the file cannot be read as a JSON object.
   */
  'mcp.add': {
    input: z
      .object({
        projectPath: AbsPath,
        target: z.enum(['project', 'user']),
        name: z.string().trim().min(1).max(100).regex(/^[\w.-]+$/, 'letters, digits, _ . - only'),
        server: z.discriminatedUnion('type', [
          z.object({ type: z.literal('stdio'), command: z.string().trim().min(1).max(4096), args: z.array(z.string().max(4096)).max(100), env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string().max(4096)) }).strict(),
          z.object({ type: z.enum(['http', 'sse']), url: z.string().trim().min(1).max(4096) }).strict(),
        ]),
      })
      .strict(),
    output: z.object({ file: z.string() }),
  },
} as const

export const extensionsEvents = {
  /** A project's MCP servers changed (status, tools, logs). */
  'mcp.status': z.object({ projectPath: z.string(), servers: z.array(McpServerStatus) }),
  /** A hook ran in a session of this project. */
  'hooks.ran': z.object({ projectPath: z.string(), run: HookRunInfo }),
} as const
