// Option parsing shared by the developer tools (bench/ab.mjs, bench/browser/ab.mjs):
// each call takes its option out of `args`, so what is left are the positional arguments.

/** The value after `name` in args (both removed), or `fallback` when it is absent. */
export function takeOption(args, name, fallback) {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [value] = args.splice(i, 2).slice(1);
  return value;
}

/** Whether `name` is in args (removed). */
export function takeFlag(args, name) {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
}
