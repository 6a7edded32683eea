import { z } from 'zod'
import { PERMISSION_MODES } from '../types'

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
      defaultMode: z.enum(PERMISSION_MODES as [string, ...string[]]).optional(),
      additionalDirectories: z.array(z.string()).optional(),
      disableBypassPermissionsMode: z.literal('disable').optional(),
    })
    .optional(),
  hooks: z.record(z.string(), z.array(HookMatcherSchema)).optional(),
  disableAllHooks: z.boolean().optional(),
  fileCheckpointingEnabled: z.boolean().optional(),
  allowManagedPermissionRulesOnly: z.boolean().optional(),
  allowManagedHooksOnly: z.boolean().optional(),
  sandbox: z
    .looseObject({
      enabled: z.boolean().optional(),
      network: z.looseObject({ allowedDomains: z.array(z.string()).optional(), deniedDomains: z.array(z.string()).optional() }).optional(),
      filesystem: z
        .looseObject({ denyRead: z.array(z.string()).optional(), allowWrite: z.array(z.string()).optional(), denyWrite: z.array(z.string()).optional() })
        .optional(),
    })
    .optional(),
})

export type SettingsFile = z.infer<typeof SettingsFileSchema>
export type HookMatcherConfig = z.infer<typeof HookMatcherSchema>
export type HookHandlerConfig = z.infer<typeof HookHandlerSchema>
