// The state file's writer (mocks/http/state-file.ts): durable() is undefined only when every change is
// on disk; changes made while a write runs share the next write (group commit); a failed write
// rejects those waiting for it, and the next change tries again.
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStateFileWriter } from "../../mocks/http/state-file.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "state-writer-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("createStateFileWriter", () => {
  it("answers undefined only when everything is on disk, and groups the changes made meanwhile", async () => {
    const file = join(dir, "group.json");
    let value = 0;
    let snapshots = 0;
    const writer = createStateFileWriter(file, () => {
      snapshots++;
      return { value };
    });
    expect(writer.durable()).toBeUndefined();
    value = 1;
    writer.changed();
    const first = writer.durable();
    expect(first).toBeInstanceOf(Promise);
    // 100 more changes while the first write is under way: one more write covers them all.
    const waiting: Array<Promise<void> | undefined> = [];
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 2; i <= 101; i++) {
      value = i;
      writer.changed();
      waiting.push(writer.durable());
    }
    await first;
    await Promise.all(waiting);
    expect(writer.durable()).toBeUndefined();
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ value: 101 });
    expect(snapshots).toBe(2);
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("a flush (the first write at start) is not a change: nothing waits for it", async () => {
    const file = join(dir, "first.json");
    const writer = createStateFileWriter(file, () => ({ seeded: true }));
    const first = writer.flush();
    expect(writer.durable()).toBeUndefined();
    await first;
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ seeded: true });
  });

  it("rejects those waiting when the write fails, naming the file, and tries again at the next change", async () => {
    const sub = join(dir, "gone");
    await mkdir(sub);
    const file = join(sub, "state.json");
    const unheard: unknown[] = [];
    const writer = createStateFileWriter(file, () => ({ ok: true }), { onError: (e) => unheard.push(e) });
    await rm(sub, { recursive: true });
    writer.changed();
    await expect(writer.durable()).rejects.toThrow(`cannot write state file ${file}: ENOENT`);
    // Told to those who waited, not reported again.
    expect(unheard).toEqual([]);
    await mkdir(sub);
    writer.changed();
    await writer.durable();
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ ok: true });
  });
});
