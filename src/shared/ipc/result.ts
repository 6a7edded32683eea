import { z } from 'zod'

/** Error codes that may cross the boundary between main and renderer. Never a stack trace. */
export const ErrorCode = z.enum([
  'INVALID_INPUT',
  'UNKNOWN_CHANNEL',
  'FORBIDDEN',
  'NOT_FOUND',
  'UNAVAILABLE',
  'CONFLICT',
  'CANCELLED',
  'INTERNAL',
])
export type ErrorCode = z.infer<typeof ErrorCode>

/** The error half of a {@link Result}: a code for programs and a message for people. */
export const ResultError = z.object({ code: ErrorCode, message: z.string() })
export type ResultError = z.infer<typeof ResultError>

/** What every request returns across the boundary. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ResultError }

/** Builds a success. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value }
}

/** Builds a failure. */
export function err<T = never>(code: ErrorCode, message: string): Result<T> {
  return { ok: false, error: { code, message } }
}

/**
 * An expected failure a handler raises on purpose; the router turns it into `{ok:false}` with
 * this code and message. Anything else a handler throws becomes `INTERNAL` with a generic message.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'AppError'
  }
}
