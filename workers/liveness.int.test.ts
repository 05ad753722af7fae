import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkerConnection } from "@/lib/queue";
import { testQueuePrefix } from "@/test/db";
import { flushPrefix } from "@/test/helpers/worker";
import { leaseOwner, redisLiveness, WorkerHeartbeat, workerIdOf } from "./liveness";

/** Heartbeats and the liveness port on the real Redis (this file's own key prefix). */
const redis = createWorkerConnection("liveness-test");
let prefix = "";

beforeAll(() => {
  prefix = testQueuePrefix();
  process.env.WEFT_QUEUE_PREFIX = prefix;
});
afterAll(async () => {
  await flushPrefix(prefix);
  await redis.quit();
});

describe("worker liveness (Redis heartbeats)", () => {
  it("a lease owner names its worker", () => {
    const owner = leaseOwner("vm:123:abcd1234", "run-cmx1-ff00", 2);
    expect(owner).toBe("vm:123:abcd1234:run-cmx1-ff00:2");
    expect(workerIdOf(owner)).toBe("vm:123:abcd1234");
  });

  it("sights a beating worker, a stopped one, an unknown one and itself", async () => {
    const a = new WorkerHeartbeat(redis, "host:1:aaaa");
    const b = new WorkerHeartbeat(redis, "host:2:bbbb");
    a.start();
    b.start();
    await new Promise((r) => setTimeout(r, 1_300)); // at least two beats each
    await b.stop();
    const port = redisLiveness(redis, "host:3:cccc");
    const t = Date.now();
    const [beating, stopped, unknown, none, self] = await port.sight([
      "host:1:aaaa:j1:1",
      "host:2:bbbb:j2:1",
      "host:9:zzzz:j3:1",
      null,
      "host:3:cccc:j4:1",
    ]);
    expect(beating?.beat).toBeGreaterThan(t - 2_000);
    expect(beating?.stopped).toBeUndefined();
    expect(stopped).toMatchObject({ stopped: true });
    expect(unknown).toEqual({ beat: null });
    expect(none).toEqual({ beat: null });
    expect(self).toMatchObject({ self: true });
    // it keeps beating: a later sighting shows a newer beat (what tells a takeover from a crash)
    await new Promise((r) => setTimeout(r, 1_200));
    const [later] = await port.sight(["host:1:aaaa:j1:1"]);
    expect(later!.beat!).toBeGreaterThan(beating!.beat!);
    await a.stop();
    expect(await redis.pttl(`${prefix}:worker:host:1:aaaa`)).toBeGreaterThan(3_000_000); // kept about an hour after the worker stops
  });
});
