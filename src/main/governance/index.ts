/**
 * Governance: the checks the engine runs before every tool call.
 *
 * - {@link loadSettings} merges managed, CLI, local, project and user settings (fail closed).
 * - {@link decide} answers allow / deny / ask with an explanation.
 * - {@link analyzeBash} parses a command with tree-sitter and reports what it runs and touches.
 * - {@link ApprovalQueue} turns asks into pending requests the UI resolves.
 * - {@link HookRunner} runs Claude Code command hooks; {@link BashSandbox} wraps commands with srt.
 * - {@link createPermissionGate} puts them together in the order of a tool call (the engine's `canUseTool`).
 */
export type { PermissionDecision, Explanation, PermissionMode, DecisionPreview, RuleOrigin, SettingsSourceName } from './types'
export { describeExplanation, PERMISSION_MODES } from './types'
export { decide, type DecideInput, type HookVerdict } from './decide/decide'
export { SessionGrants } from './decide/session'
export { protectedReason } from './decide/protected'
export { loadSettings, settingsFilePaths, DEFAULT_MANAGED_SETTINGS, type LoadSettingsOptions } from './settings/load'
export type { MergedSettings, LoadedSettings, SettingsDiagnostic, LoadedRule, LoadedHook } from './settings/types'
export { parseRule, type ParsedRule } from './rules/parse'
export { analyzeBash, analyzeBashSync, MAX_COMMAND_LENGTH } from './bash/analyze'
export { initBashParser } from './bash/parser'
export type { BashAnalysis, BashCommand, BashPath, BashRedirect, AnalyzeOptions } from './bash/types'
export { ApprovalQueue, type ApprovalRequest, type ApprovalReply, type ApprovalOutcome, type PermissionDenial, type ApprovalQueueOptions } from './approvals/queue'
export { suggestRules, MAX_SUGGESTED_RULES } from './approvals/suggest'
export { addRulesToSettingsFile } from './approvals/settings-writer'
export { HookRunner, type HookRunnerOptions, type FireOptions } from './hooks/runner'
export { HookLog, type HookLogEntry } from './hooks/log'
export { StopHookGuard } from './hooks/stop-guard'
export { matcherMatches } from './hooks/matcher'
export { HOOK_EVENTS, type HookEvent, type HookAggregate, type HookPermission } from './hooks/types'
export { isReadOnlyBash } from './bash/analyze'
export { BashSandbox, defaultDenyRead, type BashSandboxOptions, type SandboxStart } from './sandbox/bash-sandbox'
export { createPermissionGate, type PermissionGate, type PermissionGateOptions, type GateDecision, type GateDenial } from './gate'
export { SettingsWatch, type GateNotice } from './gate-settings'
export type { SessionHooks, HookOutcome } from './gate-hooks'
export { startBashSandbox, type StartSandboxOptions } from './gate-sandbox'
export { createBashClassifier, inspectionOf, type BashClassifier, type BashWhere } from './bash-preview'
