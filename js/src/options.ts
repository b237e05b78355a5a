// Options objects are read through their own properties only. A value that prototype
// pollution put on Object.prototype (a `reviver` or `replacer` that would see every value,
// a check switched on or off) is no option: a JSON library handles untrusted data, and
// an inherited option would make it a pollution gadget. (Getters of the options object
// itself still run, as they do for any property read.)

/** options[name] when options has it as an own property, else undefined. */
export function option(options: object, name: string): unknown {
  return Object.hasOwn(options, name) ? (options as Record<string, unknown>)[name] : undefined;
}

/**
 * option() of an options argument that may be left out: undefined or null is no options.
 * (init() and load() take an object or nothing, and keep to option().)
 */
export function optionOf(options: object | null | undefined, name: string): unknown {
  return options === undefined || options === null ? undefined : option(options, name);
}
