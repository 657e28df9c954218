// The fenced store's data: JSON lists by key in LevelDB. With the fence on, every read and
// write goes through a LevelFence (resource = the item key); with it off, tokens are
// ignored, as in a store that trusts its lock holders.
import { Level } from "level";
import { LevelFence } from "../../client/fence/index.ts";

export interface ItemStore {
  read(key: string, token: bigint): Promise<string[]>;
  write(key: string, token: bigint, items: string[]): Promise<void>;
  /** Reads without a token, to inspect the contents. */
  peek(key: string): Promise<string[]>;
  close(): Promise<void>;
}

const parse = (text: string | undefined): string[] =>
  text === undefined ? [] : (JSON.parse(text) as string[]);

export async function openFencedStore(dir: string): Promise<ItemStore> {
  const fence = await LevelFence.open(dir);
  return {
    read: async (key, token) =>
      parse(await fence.guard(key, token, (tx) => tx.get(key), { access: "read" })),
    write: (key, token, items) =>
      fence.guard(key, token, (tx) => tx.put(key, JSON.stringify(items))),
    peek: async (key) => parse(await fence.peek(key)),
    close: () => fence.close(),
  };
}

export async function openUnfencedStore(dir: string): Promise<ItemStore> {
  const db = new Level<string, string>(dir, { keyEncoding: "utf8", valueEncoding: "utf8" });
  await db.open();
  return {
    read: async (key) => parse(await db.get(key)),
    write: (key, _token, items) => db.put(key, JSON.stringify(items), { sync: true }),
    peek: async (key) => parse(await db.get(key)),
    close: () => db.close(),
  };
}
