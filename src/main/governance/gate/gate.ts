import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { AUTO_MODE_FALLBACK_NOTICE } from '../../../shared/permission-modes'
import type { AnyTool } from '../../tools/types'
import { readRefused } from '../decide/match'
import { realPathOf } from '../paths/real-path'
import type { HookAggregate } from '../hooks/types'
import { createSessionHooks } from './gate-hooks'
import { SettingsWatch, type GateNotice } from './gate-settings'
import { createAutoMode } from './auto-stage'
import { loadGateStages } from './stages-load'
import type { GateCall, GateSession } from './types'
import type { PermissionDecision } from '../types'
import type { GateDecision, PermissionGate, PermissionGateOptions } from './types'

export type { GateDecision, PermissionGate, PermissionGateOptions } from './types'

/**
 * Builds the permission gate of a session. A call goes through the stages of `stages.ts` in order
 * (PreToolUse hooks → rules and mode → auto mode's classifier → PermissionRequest hooks → headless
 * refusal → the user); the first stage that answers decides. The stages load at the first call
 * judged (`stages-load.ts`), before any of them runs.
 */
export function createPermissionGate(options: PermissionGateOptions): PermissionGate {
  let mode = options.mode
  let turn = new AbortController()
  const notice = (message: GateNotice): void => options.onNotice?.(message)
  const home = options.home ?? homedir()
  const watch = new SettingsWatch(options.projectRoot, { sousHome: options.sousHome, home, managedPath: options.managedPath, cli: options.cliRules, projectTrust: options.projectTrust }, notice)
  let hooksVersion = -1
  const cwd = (): string => (typeof options.cwd === 'function' ? options.cwd() : options.cwd)
  /** The current settings; the hook runner's list follows every reload. */
  const settings = () => {
    const current = watch.current()
    if (watch.version !== hooksVersion) {
      options.hooks.setHooks(current.hooks, current.disableAllHooks, current.allowedHttpHookUrls)
      hooksVersion = watch.version
    }
    return current
  }
  const sandboxWarned = new Set<boolean>()
  const session: GateSession = {
    options,
    home,
    notice,
    refuse(call, reason, message) {
      options.denials.record({ toolName: call.tool.name, toolUseId: call.toolUseId, input: call.input, reason, message })
      // The UI labels the user's own "no" as Rejected, not as a failure.
      return { behavior: 'deny', message, ...(reason === 'rejected' && { rejectedByUser: true as const }) }
    },
    hookNotices(aggregate: HookAggregate) {
      for (const error of aggregate.errors) notice({ level: 'warning', message: `Hook failed (the call went on): ${error}` })
      for (const message of aggregate.systemMessages) notice({ level: 'info', message })
    },
    turnSignal: () => turn.signal,
    sandboxUnavailable(reason, unconfined) {
      if (sandboxWarned.has(unconfined)) return
      sandboxWarned.add(unconfined)
      options.onSandboxUnavailable?.({ reason, unconfined })
    },
  }

  const shared = options.autoModeShared
  const auto = shared?.auto ?? createAutoMode({
    projectRoot: options.projectRoot,
    home,
    ...(options.autoMode && { options: options.autoMode }),
    ...(options.onAutoDecision && { record: options.onAutoDecision }),
    notice: (message) => notice({ level: 'warning', message }),
  })
  let autoTold = false
  /** Once per gate, the first time a call is judged in auto mode without a classifier: say that it asks as manual does. */
  const tellAutoFallback = (): void => {
    if (mode !== 'auto' || autoTold) return
    const off = settings().disableAutoMode
    if (!off && (options.autoMode || shared)) return
    autoTold = true
    notice({ level: 'warning', message: off ? 'auto mode is turned off by disableAutoMode in the settings; asking as in manual mode' : AUTO_MODE_FALLBACK_NOTICE })
  }

  async function canUseTool(tool: AnyTool, input: unknown, toolUseId: string, callOptions: { signal?: AbortSignal } = {}): Promise<GateDecision> {
    tellAutoFallback()
    const call: GateCall = { tool, input, replaced: false, toolUseId, cwd: cwd(), mode, settings: settings(), signal: callOptions.signal, ...(mode === 'auto' && { autoAsk: auto.patterns.rules() }) }
    // The call is taken as it stands (mode, settings, cwd) before the stages load, as before the seam.
    const { preToolUseHooks, rulesAndMode, permissionRequestHooks, noOneToAsk, askTheUser } = await loadGateStages()
    return (
      (await preToolUseHooks(session, call)) ??
      (await rulesAndMode(session, call)) ??
      (await auto.judge(session, call, shared?.origin)) ??
      (await permissionRequestHooks(session, call)) ??
      noOneToAsk(session, call) ??
      (await askTheUser(session, call))
    )
  }

  async function check(tool: AnyTool, input: unknown): Promise<PermissionDecision> {
    try {
      const call = { tool, input, mode, settings: settings(), cwd: cwd(), ...(mode === 'auto' && { autoAsk: auto.patterns.rules() }) }
      const { verdict } = await loadGateStages()
      return await verdict(options, call)
    } catch (error) {
      return { behavior: 'deny', message: `the permission check failed: ${(error as Error).message}`, explanation: { kind: 'default', detail: 'the permission check failed' } }
    }
  }

  const hooks = createSessionHooks({ hooks: options.hooks, cwd, mode: () => mode, refresh: settings, notice })
  return {
    ...hooks,
    async userPromptSubmit(prompt) {
      const outcome = await hooks.userPromptSubmit(prompt)
      // The classifier judges calls against what the user asked for: the prompts that went through.
      if (!outcome.blocked) auto.notePrompt(prompt)
      return outcome
    },
    canUseTool,
    check,
    abortPending() {
      turn.abort()
      turn = new AbortController()
    },
    setMode(next) {
      mode = next
    },
    get mode() {
      return mode
    },
    settingsNow: () => settings(),
    settingsPeek: () => watch.peek(),
    reloadSettings() {
      const { diagnostics } = watch.reload()
      settings()
      return diagnostics
    },
    fileCheckpointingEnabled: () => settings().fileCheckpointingEnabled !== false,
    autoMode: auto,
    autoDecisions: () => auto.decisions(),
    askNextTime: (decisionId, scope) => auto.askNextTime(decisionId, scope),
    isReadDenied(absolutePath) {
      return readRefused(settings().rules, { path: resolve(absolutePath), real: realPathOf(absolutePath, '/') }, options.projectRoot, home)
    },
  }
}
