import { z } from 'zod'
import type { TextBlock } from '../services/model/types'
import type { Tool, ToolContext, ToolPermissionFacts, ToolPermissionResult, ToolPreview, ToolResult } from './types'

/** What a tool file declares; traits left out take the cautious answer. */
export interface ToolSpec<S extends z.ZodType> {
  name: string
  label: string
  /** Model-facing description (kept in a `*.prompt.ts` beside the tool). */
  description: string
  input: S
  /** Default false: a tool not declared read-only is not. */
  isReadOnly?(input: z.output<S>): boolean
  /** Default true. */
  isDestructive?(input: z.output<S>): boolean
  /** Default false: runs alone. */
  isConcurrencySafe?(input: z.output<S>): boolean
  /** Default false: see {@link Tool.isBookkeeping}. */
  isBookkeeping?(input: z.output<S>): boolean
  summarize(input: z.output<S>): string
  preview?(input: z.output<S>, ctx: ToolContext): Promise<ToolPreview | undefined>
  validate?(input: z.output<S>, ctx: ToolContext): Promise<string | undefined>
  /** Default none (passthrough): see {@link Tool.checkPermissions}. */
  checkPermissions?(input: z.output<S>, facts: ToolPermissionFacts): ToolPermissionResult
  execute(input: z.output<S>, ctx: ToolContext): Promise<ToolResult>
  maxResultChars?: number
  /** Default false: see {@link Tool.settlesOnAbort}. */
  settlesOnAbort?: boolean
}

/**
 * Builds a {@link Tool} from a spec: fills cautious defaults for the traits and derives the JSON
 * Schema for the API once, when it is first read (input side, so defaulted fields are optional; no
 * `$schema` key). Not as the tool is defined: every tool module is defined as the runtime loads, and
 * converting all of them was ~20 ms of a cold `sous -p` (docs/design/startup.md).
 */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): Tool<z.output<S>> {
  let jsonSchema: Record<string, unknown> | undefined
  return {
    get jsonSchema() {
      jsonSchema ??= toApiSchema(spec.input)
      return jsonSchema
    },
    name: spec.name,
    label: spec.label,
    description: spec.description.trim(),
    inputSchema: spec.input as unknown as z.ZodType<z.output<S>>,
    isReadOnly: spec.isReadOnly ?? (() => false),
    isDestructive: spec.isDestructive ?? (() => true),
    isConcurrencySafe: spec.isConcurrencySafe ?? (() => false),
    isBookkeeping: spec.isBookkeeping ?? (() => false),
    summarize: spec.summarize,
    preview: spec.preview,
    validate: spec.validate,
    ...(spec.checkPermissions && { checkPermissions: spec.checkPermissions }),
    execute: spec.execute,
    maxResultChars: spec.maxResultChars,
    ...(spec.settlesOnAbort === true && { settlesOnAbort: true }),
  }
}

/** JSON Schema the Messages API accepts: no `$schema`, no safe-integer noise. */
export function toApiSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  return clean(json) as Record<string, unknown>
}

function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    if (key === '$schema') continue
    if ((key === 'maximum' && child === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && child === Number.MIN_SAFE_INTEGER)) continue
    out[key] = clean(child)
  }
  return out
}

/** A text block. */
export function text(value: string): TextBlock {
  return { type: 'text', text: value }
}

/** An error result for the model. */
export function errorResult(message: string, details?: unknown): ToolResult {
  return details === undefined ? { content: message, isError: true } : { content: message, isError: true, details }
}
