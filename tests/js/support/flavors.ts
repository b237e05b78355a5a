// Every spec runs against both kernel flavors: each gets its own independent codec.
import { load, type Codec, type Flavor } from 'wasmjson';

export const FLAVORS: Flavor[] = ['simd128', 'swar64'];

const cache = new Map<Flavor, Promise<Codec>>();
export function codecFor(flavor: Flavor): Promise<Codec> {
  let c = cache.get(flavor);
  if (!c) cache.set(flavor, (c = load({ flavor })));
  return c;
}
