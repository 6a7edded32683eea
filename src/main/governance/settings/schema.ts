import { z } from 'zod'

/**
 * The parts of a settings file governance reads. Unknown keys are kept (Claude Code's files carry
 * many more); a wrong type in a known key is a schema error and the file fails closed.
 */
const RuleList = z.array(z.string())

export const HookHandlerSchema = z.looseObject({
  type: z.string(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  timeout: z.number().positive().optional(),
  if: z.string().optional(),
  async: z.boolean().optional(),
  shell: z.string().optional(),
  /** `http` handlers: where the input is POSTed, extra headers, and the variables their values may name. */
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(z.string()).optional(),
  /** `prompt` (and `agent`) handlers: the question, with `$ARGUMENTS` for the input JSON, and the model. */
  prompt: z.string().optional(),
  model: z.string().optional(),
})

export const HookMatcherSchema = z.looseObject({
  matcher: z.string().optional(),
  hooks: z.array(HookHandlerSchema),
})

export const SettingsFileSchema = z.looseObject({
  permissions: z
    .looseObject({
      allow: RuleList.optional(),
      deny: RuleList.optional(),
      ask: RuleList.optional(),
      // Any string: an unknown mode is one problem on this key (load.ts), not a broken file.
      defaultMode: z.string().optional(),
      additionalDirectories: z.array(z.string()).optional(),
      disableBypassPermissionsMode: z.literal('disable').optional(),
      disableAutoMode: z.literal('disable').optional(),
    })
    .optional(),
  /** Claude Code also accepts it at the top level. */
  disableAutoMode: z.literal('disable').optional(),
  hooks: z.record(z.string(), z.array(HookMatcherSchema)).optional(),
  disableAllHooks: z.boolean().optional(),
  fileCheckpointingEnabled: z.boolean().optional(),
  /** URL patterns (`*` wildcards) `http` hooks may reach besides the local machine; lists merge. */
  allowedHttpHookUrls: z.array(z.string()).optional(),
  allowManagedPermissionRulesOnly: z.boolean().optional(),
  allowManagedHooksOnly: z.boolean().optional(),
  sandbox: z
    .looseObject({
      enabled: z.boolean().optional(),
      network: z.looseObject({ allowedDomains: z.array(z.string()).optional(), deniedDomains: z.array(z.string()).optional() }).optional(),
      filesystem: z
        .looseObject({ denyRead: z.array(z.string()).optional(), allowRead: z.array(z.string()).optional(), allowWrite: z.array(z.string()).optional(), denyWrite: z.array(z.string()).optional() })
        .optional(),
    })
    .optional(),
})

export type SettingsFile = z.infer<typeof SettingsFileSchema>
export type HookMatcherConfig = z.infer<typeof HookMatcherSchema>
export type HookHandlerConfig = z.infer<typeof HookHandlerSchema>
