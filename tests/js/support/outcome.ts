// Runs a function and records whether it returned or threw, for comparing with native JSON.
export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function attempt(fn: () => unknown): Outcome {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error };
  }
}
