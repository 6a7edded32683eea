import { z } from 'zod'
import { canonicalMode, PERMISSION_MODE_NAMES } from '../permission-modes'

// Its own file (re-exported by session.ts) so the preferences schema needs no other domain's
// schemas: `sous -p` reads preferences and must not build the whole contract for it.

/** Permission modes, as in Claude Code's settings (`defaultMode`); `default` is the one Claude Code now calls `manual`. */
export const PermissionModeName = z.enum(PERMISSION_MODE_NAMES)
export type PermissionModeName = z.infer<typeof PermissionModeName>

/** A mode as a caller may name it: `manual` is read as `default` (Claude Code's name since 2.1.200). */
export const PermissionModeInput = z.preprocess((value) => (typeof value === 'string' ? (canonicalMode(value) ?? value) : value), PermissionModeName)
