package io.nearline.localcluster.replay.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.testkit.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole local stack on an engine with a random workload: the source commits while the job,
 * read-repair and a job restart race on one cache, the store goes down for a while, and the cache
 * must end equal to the source. Each engine module runs it by naming how to start its demo.
 */
public abstract class DemoSuite {

    @TempDir
    protected Path dir;

    /** Runs the engine's {@code demo} with these arguments; returns its exit code. */
    protected abstract int demo(List<String> args);

    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void threeWritersARestartAndAnOutageLeaveNoDivergence() throws Exception {
        long seed = Seeds.seed();
        JsonNode s = runDemo(seed, "15s");
        String where = s + " " + Seeds.replay(seed);
        assertEquals("rocksdb", s.get("store").asText(), where);
        assertTrue(s.get("outageRefusedCalls").asLong() > 0, "the outage hit nothing: " + where);
        assertEquals(
                4, s.get("bootstrapPartitionsComplete").asLong(), "bootstrap partitions verified complete: " + where);
    }

    /**
     * The networked caches, each a server of the demo's own (CouchbaseMock in a JVM of its own, a
     * redis-server): killed and started again empty (re-seeded from a snapshot), then frozen so that
     * calls time out.
     */
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    @ParameterizedTest
    @ValueSource(strings = {"couchbase", "redis"})
    void onANetworkedStoreARestartedAndAFrozenServerLeaveNoDivergence(String store) throws Exception {
        if (store.equals("redis")) {
            CdcConformanceSuite.assumeRedis();
        }
        long seed = Seeds.seed();
        JsonNode s = runDemo(seed, "24s", "--store", store);
        String where = s + " " + Seeds.replay(seed);
        assertEquals(store, s.get("store").asText(), where);
        assertEquals(1, s.get("storeRestarts").asInt(), where);
        assertEquals(1, s.get("storePauses").asInt(), where);
        assertTrue(s.get("reseedRows").asLong() > 0, "nothing re-seeded the restarted store: " + where);
        assertTrue(s.get("unavailableRetries").asLong() > 0, "the store's faults hit no write: " + where);
        // the bootstrap half-way and the re-seed after the restart
        assertEquals(
                8, s.get("bootstrapPartitionsComplete").asLong(), "bootstrap partitions verified complete: " + where);
    }

    /** Runs the demo with a small workload and these extra arguments; asserts what every run must show. */
    private JsonNode runDemo(long seed, String duration, String... extra) throws Exception {
        Path summary = dir.resolve("summary.json");
        List<String> args = new ArrayList<>(List.of(
                "--duration",
                duration,
                "--rate",
                "800",
                "--keys",
                "1500",
                "--seed",
                Long.toString(seed),
                "--work-dir",
                dir.resolve("work").toString(),
                "--summary-json",
                summary.toString()));
        args.addAll(List.of(extra));
        assertEquals(0, demo(args), Seeds.replay(seed));
        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        String where = s + " " + Seeds.replay(seed);
        assertEquals(0, s.get("divergentKeys").asLong(), where);
        assertTrue(s.get("keysChecked").asLong() > 0, where);
        assertTrue(s.get("eventsApplied").asLong() > 0, where);
        assertTrue(s.get("readRepairs").asLong() > 0, "read-repair never wrote: " + where);
        assertEquals(1, s.get("restarts").asInt(), where);
        assertTrue(s.get("bootstrapRows").asLong() > 0, "the mid-run bootstrap applied nothing: " + where);
        return s;
    }
}
