import { z } from 'zod'
import { AbsPath, Empty } from './common'

import { Preferences } from './preferences'
export { DEFAULT_TURN_GUARD, Preferences } from './preferences'

/** A project settings file (`.claude/settings.json` or `.claude/settings.local.json`). */
export const ProjectSettingsName = z.enum(['settings.json', 'settings.local.json'])
export type ProjectSettingsName = z.infer<typeof ProjectSettingsName>

/** Where and why a settings file is invalid (1-based line and column). */
export const SettingsProblem = z.object({ message: z.string(), line: z.number(), column: z.number() })
export type SettingsProblem = z.infer<typeof SettingsProblem>

/** `settings.*` and `projectSettings.*`: the API key, Sous's preferences, a project's settings files. */
export const settingsRequests = {
  /** Stores the API key with the OS keychain. It is never readable back through the contract. */
  'settings.setApiKey': { input: z.object({ key: z.string().min(1).max(500) }).strict(), output: z.void() },
  /** Whether a key is present, and how it is protected. */
  'settings.apiKeyStatus': {
    input: Empty,
    output: z.object({
      present: z.boolean(),
      /** `memory`: set through the browser host; kept for this run only, never written to disk. */
      source: z.enum(['keychain', 'environment', 'memory', 'none']),
      warning: z.string().optional(),
    }),
  },
  /**
   * The model and endpoint new turns use, with where each comes from: the preferences, the
   * environment (`ANTHROPIC_MODEL`, `ANTHROPIC_BASE_URL`), or Sous's default.
   */
  'settings.endpoint': {
    input: Empty,
    output: z.object({
      model: z.string(),
      modelFrom: z.enum(['settings', 'environment', 'default']),
      baseUrl: z.string(),
      baseUrlFrom: z.enum(['settings', 'environment', 'default']),
    }),
  },
  /** Sous's preferences (never the API key). */
  'settings.get': { input: Empty, output: Preferences },
  /** Changes some preferences; keys of other tools in the same file are kept. */
  'settings.update': { input: Preferences.partial().strict(), output: Preferences },
  /** The project's `.claude/settings*.json` files as text (empty when missing). */
  'projectSettings.read': {
    input: z.object({ projectPath: AbsPath }).strict(),
    output: z.array(
      z.object({
        name: ProjectSettingsName,
        path: z.string(),
        exists: z.boolean(),
        text: z.string(),
        /** Things that are valid but will not do what they say (a hook event Sous does not know or fire). */
        warnings: z.array(SettingsProblem).optional(),
      }),
    ),
  },
  /** Validates and saves one project settings file; an invalid text is not saved and the problem says where. */
  'projectSettings.write': {
    input: z.object({ projectPath: AbsPath, name: ProjectSettingsName, text: z.string().max(1_000_000) }).strict(),
    output: z.object({ saved: z.boolean(), problem: SettingsProblem.optional(), warnings: z.array(SettingsProblem).optional() }),
  },
} as const
