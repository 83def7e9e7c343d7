import { getHeapStatistics } from "node:v8";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IDLE_MEMORY, idleMemoryWatch, memoryReducingCollection, releaseMemoryWhenIdle, type Probe, type Released } from "./idle-memory.server";

const MB = 1024 * 1024;

/** A process whose RSS and event-loop use the test sets, and whose collection gives back what the test says. */
function fakeProbe(rssAfterCollection: number, rss = 100 * MB) {
  const state = { rss, utilization: 0, collections: 0 };
  const probe: Probe = {
    rss: () => state.rss,
    utilization: () => state.utilization,
    collect() {
      state.collections++;
      state.rss = rssAfterCollection;
    },
  };
  return { state, probe, released: [] as Released[] };
}

function fakeProcess(rssAfterCollection: number) {
  const { state, probe, released } = fakeProbe(rssAfterCollection);
  return { state, look: idleMemoryWatch(probe, (one) => released.push(one)), released };
}

describe("memory given back once a burst is over", () => {
  it("collects once when RSS has grown past the mark and the event loop was idle since the last look", () => {
    const { state, look, released } = fakeProcess(105 * MB);
    look(); // after start: the mark
    state.rss = 140 * MB;
    state.utilization = 0.9; // the burst
    look();
    expect(state.collections, "not while busy").toBe(0);
    state.utilization = 0.01; // over
    look();
    expect(state.collections).toBe(1);
    expect(released).toEqual([{ rssBefore: 140 * MB, rssAfter: 105 * MB, ms: expect.any(Number) }]);
    look();
    look();
    expect(state.collections, "the level after a collection is the new mark").toBe(1);
  });

  it("leaves a small growth alone, and lowers its mark when RSS falls by itself", () => {
    const { state, look } = fakeProcess(95 * MB);
    look();
    state.rss = 100 * MB + IDLE_MEMORY.growthBytes - 1;
    look();
    expect(state.collections).toBe(0);
    state.rss = 90 * MB;
    look();
    state.rss = 90 * MB + IDLE_MEMORY.growthBytes;
    look();
    expect(state.collections, "grown past the lowered mark").toBe(1);
  });

  describe("on a timer", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("takes its mark when it starts, so a burst before its first look is given back too", () => {
      vi.useFakeTimers();
      const { state, probe, released } = fakeProbe(85 * MB, 80 * MB);
      const watching = releaseMemoryWhenIdle((one) => released.push(one), probe); // right after start
      state.rss = 110 * MB; // a burst, over before the first look
      state.utilization = 0.5;
      vi.advanceTimersByTime(IDLE_MEMORY.everyMs);
      expect(state.collections, "not while busy").toBe(0);
      state.utilization = 0.01;
      vi.advanceTimersByTime(IDLE_MEMORY.everyMs);
      watching.stop();
      expect(released).toEqual([{ rssBefore: 110 * MB, rssAfter: 85 * MB, ms: expect.any(Number) }]);
    });
  });

  it("asks V8 for a collection that gives back the pages a burst grew", () => {
    const before = getHeapStatistics().total_physical_size;
    let keep: unknown[] = [];
    for (let round = 0; round < 40; round++) keep.push(Array.from({ length: 20_000 }, (_, index) => ({ index, text: `item ${index}` })));
    const grown = getHeapStatistics().total_physical_size;
    expect(grown - before).toBeGreaterThan(20 * MB);
    keep = [];
    memoryReducingCollection()();
    expect(getHeapStatistics().total_physical_size).toBeLessThan(before + (grown - before) / 4);
    expect(keep).toEqual([]);
  });
});
