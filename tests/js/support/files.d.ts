declare module '#files' {
  export function haveShared(): Promise<boolean>;
  export function listShared(sub: string): Promise<string[] | null>;
  export function readShared(rel: string): Promise<Uint8Array>;
}
