/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.localcluster.cdcreplay;

import static io.nearline.common.testkit.Tiers.SLOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.testkit.Seeds;
import io.nearline.localcluster.databases.MariadbServer;
import io.nearline.localcluster.databases.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
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
    @Tag(SLOW)
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
        assertTrue(
                s.get("repairedBySnapshot").asLong() > 0, "the re-seed filled nothing in the emptied store: " + where);
        assertTrue(s.get("unavailableRetries").asLong() > 0, "the store's faults hit no write: " + where);
        // the bootstrap half-way and the re-seed after the restart
        assertEquals(
                8, s.get("bootstrapPartitionsComplete").asLong(), "bootstrap partitions verified complete: " + where);
    }

    /**
     * Without read-repair and snapshots the cache is the job's alone: its 0 divergent keys, through the
     * restart and the outage, owe nothing to a repair, and the summary says none wrote.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void withoutRepairsTheJobAloneLeavesNoDivergence() throws Exception {
        long seed = Seeds.seed();
        DemoResult r = demoRun(seed, "15s", "--no-repair");
        String where = r.summary() + " " + Seeds.replay(seed);
        assertEquals(0, r.exit(), where);
        assertEquals(0, r.summary().get("divergentKeys").asLong(), where);
        assertTrue(r.summary().get("keysChecked").asLong() > 0, where);
        assertEquals(0, r.summary().get("repairedByReadRepair").asLong(), where);
        assertEquals(0, r.summary().get("repairedBySnapshot").asLong(), where);
        assertEquals(1, r.summary().get("restarts").asInt(), where);
        assertTrue(r.summary().get("outageRefusedCalls").asLong() > 0, "the outage hit nothing: " + where);
    }

    /** The negative control: a store that drops some keys' writes and says they succeeded must fail the demo. */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void aStoreThatLosesWritesIsCaught() throws Exception {
        long seed = Seeds.seed();
        DemoResult r = demoRun(seed, "10s", "--no-repair", "--no-trouble", "--set", "outage.lose-prefix=member:1");
        String where = r.summary() + " " + Seeds.replay(seed);
        assertEquals(1, r.exit(), where);
        assertTrue(r.summary().get("divergentKeys").asLong() > 0, where);
    }

    /**
     * A real database as the source of truth: three tables (two sharing ids, one keyed by two columns),
     * racing SQL writers, Debezium's connector in a Kafka Connect worker, the job on the engine, the
     * verdict against every row of each table.
     */
    @Tag(SLOW)
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @ParameterizedTest
    @ValueSource(strings = {"postgres", "mysql"})
    void aRealDatabaseWrittenByRacingWritersEndsEqualInTheCache(String source) throws Exception {
        assumeDatabase(source);
        long seed = Seeds.seed();
        DemoResult r = demoRun(seed, "12s", "--source", source);
        String where = r.summary() + " " + Seeds.replay(seed);
        assertEquals(0, r.exit(), where);
        assertEquals(source, r.summary().get("source").asText(), where);
        assertEquals(0, r.summary().get("divergentKeys").asLong(), where);
        assertTrue(r.summary().get("keysChecked").asLong() > 1000, where);
        assertTrue(r.summary().get("eventsApplied").asLong() > 0, where);
        assertTrue(r.summary().get("transactionsLostToARace").asLong() > 0, "no writer lost a race: " + where);
        assertTrue(r.summary().get("stalenessSamples").asLong() > 0, "no commit was timed to the cache: " + where);
        JsonNode tables = r.summary().get("tables");
        assertEquals(3, tables.size(), where);
        tables.forEach(t -> {
            assertTrue(t.get("converged").asBoolean(), where);
            assertTrue(t.get("keysChecked").asLong() > 0, where);
        });
    }

    /**
     * {@code --lose}: a stretch of the change stream lost while the writers race (the connector's offsets
     * moved past it), then every table re-synced: the verdict over every key of the range, deleted rows
     * included, is 0 divergent.
     */
    @Tag(SLOW)
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    @ParameterizedTest
    @ValueSource(strings = {"postgres", "mysql"})
    void aLostStretchIsReSyncedBeforeTheVerdict(String source) throws Exception {
        assumeDatabase(source);
        long seed = Seeds.seed();
        DemoResult r = demoRun(seed, "24s", "--source", source, "--lose", "6s");
        String where = r.summary() + " " + Seeds.replay(seed);
        assertEquals(0, r.exit(), where);
        assertEquals(0, r.summary().get("divergentKeys").asLong(), where);
        assertEquals(6, r.summary().get("lostStreamSeconds").asLong(), where);
        assertTrue(r.summary().get("resyncDone").asBoolean(), where);
        assertTrue(r.summary().get("resyncRowsReread").asLong() > 1000, where);
    }

    /**
     * Its negative control: a store that drops the writes of some keys of one table fails the verdict,
     * on that table alone.
     */
    @Tag(SLOW)
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void aRealDatabaseCatchesAStoreThatLosesWrites() throws Exception {
        assumeDatabase("postgres");
        long seed = Seeds.seed();
        DemoResult r = demoRun(seed, "6s", "--source", "postgres", "--set", "outage.lose-prefix=public.orders:2");
        String where = r.summary() + " " + Seeds.replay(seed);
        assertEquals(1, r.exit(), where);
        assertTrue(r.summary().get("divergentKeys").asLong() > 0, where);
        JsonNode tables = r.summary().get("tables");
        assertTrue(tables.get("public.orders").get("divergentKeys").asLong() > 0, where);
        assertTrue(tables.get("public.items").get("converged").asBoolean(), where);
    }

    private void assumeDatabase(String source) throws Exception {
        Optional<String> skip = source.equals("postgres") ? PostgresServer.skipReason() : MariadbServer.skipReason();
        Assumptions.assumeTrue(skip.isEmpty(), () -> skip.orElse(""));
        // the connector's descriptor and the Connect worker's jars are found in the checkout (the engine module's
        // ../..)
        if (System.getProperty("nearline.home") == null) {
            System.setProperty(
                    "nearline.home",
                    Path.of("../..").toAbsolutePath().normalize().toString());
        }
        // run by root, the database runs as its package's user, who must enter the test's directory
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    }

    private record DemoResult(int exit, JsonNode summary) {}

    /** Runs the demo with a small workload and these extra arguments; asserts what every run must show. */
    private JsonNode runDemo(long seed, String duration, String... extra) throws Exception {
        DemoResult r = demoRun(seed, duration, extra);
        assertEquals(0, r.exit(), Seeds.replay(seed));
        JsonNode s = r.summary();
        String where = s + " " + Seeds.replay(seed);
        for (String field : documentedSummaryFields()) {
            assertTrue(s.has(field), "local-cluster/README.md gives the summary a field '" + field + "': " + where);
        }
        assertEquals(0, s.get("divergentKeys").asLong(), where);
        assertTrue(s.get("keysChecked").asLong() > 0, where);
        assertTrue(s.get("eventsApplied").asLong() > 0, where);
        assertTrue(s.get("readRepairs").asLong() > 0, "read-repair never wrote: " + where);
        assertEquals(1, s.get("restarts").asInt(), where);
        assertTrue(s.get("bootstrapRows").asLong() > 0, "the mid-run bootstrap applied nothing: " + where);
        return s;
    }

    /** The fields local-cluster/README.md names in the demo's {@code --summary-json} (the engine module's ../). */
    static List<String> documentedSummaryFields() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int from = readme.indexOf("`--summary-json` writes it (");
        assertTrue(from >= 0, "local-cluster/README.md no longer says what the demo's --summary-json holds");
        Matcher m = Pattern.compile("`(\\w+)`").matcher(readme.substring(from, readme.indexOf("…)", from)));
        List<String> fields = m.results().map(r -> r.group(1)).toList();
        assertTrue(fields.size() >= 3, "no field names read: " + fields);
        return fields;
    }

    /** Runs the demo with a small workload and these extra arguments: its exit code and summary. */
    private DemoResult demoRun(long seed, String duration, String... extra) throws Exception {
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
        int exit = demo(args);
        return new DemoResult(exit, new ObjectMapper().readTree(summary.toFile()));
    }
}
