import { describe, expect, it } from "vitest";
import { createWebhookSink, SINK_LIMITS } from "../../../mocks/domain/rebuild/webhook-sink.js";

const entry = (text: string | null, at = "2026-11-22T00:00:00+00:00") => ({ headers: {}, text, at });

describe("webhook sink: bounded by partner and in total", () => {
  it("keeps the most recent entries of each partner and counts the ones it dropped", () => {
    const sink = createWebhookSink();
    for (let i = 0; i < SINK_LIMITS.perPartner + 5; i++) sink.receive(1001, entry(JSON.stringify({ i })));
    const kept = sink.list(1001);
    expect(kept).toHaveLength(SINK_LIMITS.perPartner);
    expect(kept[0]?.body).toEqual({ i: 5 });
    expect(kept.at(-1)?.body).toEqual({ i: SINK_LIMITS.perPartner + 4 });
    expect(sink.dropped).toBe(5);
  });

  it("keeps at most the total number of entries across partners, dropping the oldest anywhere", () => {
    const sink = createWebhookSink({ perPartner: 10, entries: 25, characters: 1_000_000 });
    for (let i = 0; i < 40; i++) sink.receive(1 + (i % 4), entry(String(i)));
    const all = Object.values(sink.view()).flat();
    expect(all).toHaveLength(25);
    expect(all.map((e) => Number(e.body)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 15),
    );
    expect(sink.dropped).toBe(15);
  });

  it("keeps at most the total size across partners", () => {
    const sink = createWebhookSink({ perPartner: 100, entries: 1000, characters: 1000 });
    for (let partner = 1; partner <= 30; partner++) sink.receive(partner, entry("x".repeat(100)));
    const kept = sink.view();
    expect(Object.keys(kept)).toEqual(["21", "22", "23", "24", "25", "26", "27", "28", "29", "30"]);
    expect(sink.dropped).toBe(20);
  });

  it("answers reads of what it keeps: JSON parsed, other text as text, an empty body as null", () => {
    const sink = createWebhookSink();
    sink.receive(7, { headers: { "x-a": "1" }, text: '{"ok":true}', at: "2026-11-22T00:00:01+00:00" });
    sink.receive(7, entry("plain words"));
    sink.receive(7, entry(null));
    expect(sink.list(7).map((e) => e.body)).toEqual([{ ok: true }, "plain words", null]);
    expect(sink.list(8)).toEqual([]);
  });

  it("a flood on one partner keeps memory bounded (the stored view never grows past the caps)", () => {
    const sink = createWebhookSink();
    for (let i = 0; i < 50_000; i++) sink.receive(1 + (i % 3), entry("y".repeat(10)));
    expect(Object.values(sink.stored()).flat()).toHaveLength(3 * SINK_LIMITS.perPartner);
    expect(sink.dropped).toBe(50_000 - 3 * SINK_LIMITS.perPartner);
  });

  it("restores stored entries and drop counts, applying the limits again", () => {
    const sink = createWebhookSink();
    sink.receive(1001, entry('{"a":1}'));
    const copy = createWebhookSink();
    copy.restore(sink.stored(), 7);
    expect(copy.view()).toEqual(sink.view());
    expect(copy.dropped).toBe(7);
  });
});
