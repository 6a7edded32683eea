import type { PrintIO } from './print'

// Not `import … from 'node:util'`: Node builds that ESM facade by reading every export, lazy
// ones too, which costs a cold `sous -p` ~10–20 ms (bench/startup.bench.ts).
const { parseArgs } = process.getBuiltinModule('node:util')

/**
 * `sous checkpoints <session-id> [--json]` and `sous rewind <session-id> --to <checkpoint-id>
 * [--code|--conversation|--both] [--force] [--json]`. Exit codes: 0 done, 3 when a rewind kept
 * conflicts, 2 on bad input (no such session or checkpoint, another project's session, bad
 * flags), 1 when a rewind was refused (HEAD moved, a damaged store) — nothing written then.
 */

const CHECKPOINTS_USAGE = 'Usage: sous checkpoints <session-id> [--json]'
const REWIND_USAGE = 'Usage: sous rewind <session-id> --to <checkpoint-id> [--code|--conversation|--both] [--force] [--cwd <dir>] [--json]'

/** `sous checkpoints`: one line (or JSON object per line) per checkpoint. */
export async function runCheckpoints(argv: string[], env: NodeJS.ProcessEnv, io: PrintIO): Promise<number> {
  const parsed = parse(argv, { json: { type: 'boolean' } }, CHECKPOINTS_USAGE, io)
  if (!parsed) return 2
  const [{ sousHome }, { readCheckpoints, summarizeCheckpoints }, { Workspace }, { isSessionId }] = await Promise.all([
    import('../main/base/paths'),
    import('../main/checkpoints/checkpoint-list'),
    import('../main/checkpoints/workspace'),
    import('../main/store/transcript'),
  ])
  const sessionId = parsed.session
  if (!isSessionId(sessionId)) return bad(io, `not a session id: ${sessionId}`, CHECKPOINTS_USAGE)
  const home = sousHome(env)
  const checkpoints = await readCheckpoints(home, sessionId)
  if (checkpoints.length === 0) return bad(io, `session ${sessionId} has no checkpoints`)
  const workspace = new Workspace({ home, sessionId, projectPath: checkpoints[0]!.projectPath, env })
  for (const summary of await summarizeCheckpoints(workspace, checkpoints)) {
    if (parsed.values['json']) io.stdout.write(`${JSON.stringify(summary)}\n`)
    else {
      const files = summary.changed.length ? ` — ${summary.changed.length} file${summary.changed.length === 1 ? '' : 's'}: ${summary.changed.slice(0, 5).join(', ')}${summary.changed.length > 5 ? ', …' : ''}` : ''
      io.stdout.write(`${summary.id}  turn ${summary.turn}  ${summary.at}  ${summary.followedBy}${files}${summary.missing ? `  (missing: ${summary.missing})` : ''}\n`)
    }
  }
  return 0
}

/** `sous rewind`: restores a checkpoint's code, conversation or both. */
export async function runRewind(argv: string[], env: NodeJS.ProcessEnv, io: PrintIO): Promise<number> {
  const parsed = parse(argv, { to: { type: 'string' }, code: { type: 'boolean' }, conversation: { type: 'boolean' }, both: { type: 'boolean' }, force: { type: 'boolean' }, json: { type: 'boolean' }, cwd: { type: 'string' } }, REWIND_USAGE, io)
  if (!parsed) return 2
  const { values } = parsed
  const to = values['to']
  if (typeof to !== 'string' || !to) return bad(io, '--to <checkpoint-id> is required', REWIND_USAGE)
  const modes = (['code', 'conversation', 'both'] as const).filter((mode) => values[mode] === true)
  if (modes.length > 1) return bad(io, `choose one of --code, --conversation, --both`, REWIND_USAGE)
  const [{ sousHome }, { rewind }, { isSessionId }] = await Promise.all([import('../main/base/paths'), import('../main/checkpoints/rewind'), import('../main/store/transcript')])
  if (!isSessionId(parsed.session)) return bad(io, `not a session id: ${parsed.session}`, REWIND_USAGE)
  const outcome = await rewind({
    home: sousHome(env),
    env,
    sessionId: parsed.session,
    checkpointId: to,
    mode: modes[0] ?? 'both',
    force: values['force'] === true,
    projectPath: typeof values['cwd'] === 'string' ? values['cwd'] : process.cwd(),
  })
  if ('error' in outcome) {
    if (values['json']) io.stdout.write(`${JSON.stringify({ error: outcome.error })}\n`)
    io.stderr.write(`sous: ${outcome.error}\n`)
    return outcome.badInput ? 2 : 1
  }
  if (values['json']) io.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`)
  else {
    io.stdout.write(`Rewound to ${outcome.checkpoint} (${outcome.mode}).\n`)
    if (outcome.mode !== 'conversation') io.stdout.write(outcome.restored.length ? `Restored ${outcome.restored.length} file(s):\n${outcome.restored.map((path) => `  ${path}`).join('\n')}\n` : 'No file needed restoring.\n')
    if (outcome.messages !== undefined) io.stdout.write(`The conversation keeps ${outcome.messages} message(s).\n`)
    if (outcome.kept.length) io.stdout.write(`Kept ${outcome.kept.length} file(s) changed since by someone other than the agent (--force overwrites them):\n${outcome.kept.map((path) => `  ${path}`).join('\n')}\n`)
    for (const skip of outcome.skipped) io.stdout.write(`Skipped ${skip.path}: ${skip.why}\n`)
  }
  return outcome.kept.length > 0 ? 3 : 0
}

type Flags = NonNullable<Parameters<typeof parseArgs>[0]>['options']

function parse(argv: string[], options: Flags, usage: string, io: PrintIO): { session: string; values: Record<string, string | boolean | undefined> } | undefined {
  try {
    const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
    const [session, ...rest] = parsed.positionals
    if (!session || rest.length > 0) {
      bad(io, session ? `unexpected argument: ${rest[0]}` : 'a session id is required', usage)
      return undefined
    }
    return { session, values: parsed.values as Record<string, string | boolean | undefined> }
  } catch (error) {
    bad(io, error instanceof Error ? error.message : String(error), usage)
    return undefined
  }
}

function bad(io: PrintIO, message: string, usage?: string): number {
  io.stderr.write(`sous: ${message}\n${usage ? `${usage}\n` : ''}`)
  return 2
}
