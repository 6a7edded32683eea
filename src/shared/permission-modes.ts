/**
 * Permission mode names, shared by the contract, the settings loader, the CLI and the renderer.
 * Claude Code renamed `default` to `manual` in 2.1.200 and added `auto`; Sous keeps `default` as
 * its one internal name (so every check of the mode stays one comparison) and reads `manual` as
 * an alias of it wherever a mode is named.
 */

/** The modes Sous knows, internal names. `auto` reads the rules as `default` and lets a classifier judge what they leave open. */
export const PERMISSION_MODE_NAMES = ['default', 'acceptEdits', 'plan', 'auto', 'bypassPermissions', 'dontAsk'] as const
export type PermissionModeId = (typeof PERMISSION_MODE_NAMES)[number]

/** Other spellings Claude Code accepts for a mode: `manual` is `default` since 2.1.200. */
export const PERMISSION_MODE_ALIASES: Readonly<Record<string, PermissionModeId>> = { manual: 'default' }

/** Every name a user may write (`--permission-mode`, `defaultMode`), as listed in errors and help. */
export const PERMISSION_MODE_SPELLINGS: readonly string[] = ['manual', ...PERMISSION_MODE_NAMES]

/** The internal name of a mode as a user wrote it (`manual` → `default`); undefined when it is not a mode. */
export function canonicalMode(name: string): PermissionModeId | undefined {
  const trimmed = name.trim()
  if ((PERMISSION_MODE_NAMES as readonly string[]).includes(trimmed)) return trimmed as PermissionModeId
  return PERMISSION_MODE_ALIASES[trimmed]
}

/** The notice a session in auto mode gets once when it has no classifier to ask (a gate built without one): it asks. */
export const AUTO_MODE_FALLBACK_NOTICE = "auto mode has no classifier in this session; asking as in manual mode"
