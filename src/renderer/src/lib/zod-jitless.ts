import { config } from 'zod'

/**
 * Imported for its effect, before any schema is built (`app/start.tsx`): zod without its
 * just-in-time object parsers. The window's Content-Security-Policy forbids `eval` (no
 * 'unsafe-eval', `shared/csp.ts`), so zod never used them here; but the first object schema
 * probed for them with a `new Function` that the policy refused, and Chromium reported the
 * refusal (a console error and a `securitypolicyviolation` event) inside the task that built it.
 * Parsing gives the same results either way; jitless is only zod's slower path, the one the
 * window took anyway.
 */
config({ jitless: true })
