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
package io.nearline.localcluster.connectrunner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.testkit.ChangeEventGenerator;
import io.nearline.common.testkit.RedisServerProcess;
import io.nearline.common.testkit.Seeds;
import io.nearline.jobs.kit.console.CliErrors;
import io.nearline.localcluster.cdcreference.Scenarios;
import io.nearline.localcluster.cdcreplay.CdcConformanceSuite;
import io.nearline.localcluster.kit.processes.ForkedRedis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * The conformance suite through the cache sink connector: the shipped plugin in a real Kafka Connect
 * worker (its own JVM) on the replay's broker, writing a real redis-server (or CouchbaseMock over
 * TCP), the third runtime beside Flink and Samza. The same scenarios must end in the same state with
 * the same dead letters; the worker killed -9 half-way and a broker restart must end at the oracle.
 * The connector has no bootstrapper, and no store can be injected into the worker's JVM: those tests
 * are skipped with the reason, and a real outage (a frozen redis-server) stands in for the injected one.
 */
class ConnectConformanceIT extends CdcConformanceSuite {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Through the runner, as the front door runs it; into Redis unless the test names a store. */
    @Override
    protected int replay(List<String> args) {
        Assumptions.assumeTrue(
                args.contains("--store") || RedisServerProcess.skipReason().isEmpty(),
                () -> RedisServerProcess.skipReason().orElse(""));
        List<String> all = new ArrayList<>(List.of("replay-cdc"));
        all.addAll(args);
        if (!args.contains("--store")) {
            all.addAll(List.of("--store", "redis"));
        }
        return CliErrors.install(new CommandLine(new ConnectRunner())).execute(all.toArray(String[]::new));
    }

    @Override
    protected InMemoryMetrics engineMetrics() {
        return ConnectEngine.METRICS;
    }

    @Override
    protected boolean bootstraps() {
        return false;
    }

    @Override
    protected boolean takesInjectedStores() {
        return false;
    }

    /** Not a test here: this engine's default store is Redis already, so it is {@code engineEndsWhereTheCoreEnds}. */
    @Override
    protected void onRedisEngineEndsWhereTheCoreEnds(String scenario) {}

    /** Not a test here: this engine's default store is Redis already, so it is the kill test above it. */
    @Override
    protected void onRedisAJobKilledMidRunEndsAtTheNewestVersions() {}

    /**
     * The bad change events of {@code bad-input.jsonl} are dead-lettered exactly as on the other
     * engines (reason, detail, job, source, key and value bytes), and a write the store refuses for
     * good — the job's Redis user may not write that key — goes to the dead letters as STORE_REJECTED through
     * Connect's errant-record reporter, with the record it came from; the good records are written.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void badInputAndAWriteTheStoreRefusesAreDeadLetteredAsOnTheOtherEngines() throws Exception {
        Assumptions.assumeTrue(RedisServerProcess.skipReason().isEmpty(), () -> RedisServerProcess.skipReason()
                .orElse(""));
        Path events = Scenarios.copy("bad-input.jsonl", dir);
        Path out = dir.resolve("state.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");
        try (RedisServerProcess redis = RedisServerProcess.start(dir.resolve("redis"), ForkedRedis.STORE)) {
            // a user who may read every key but write only these: Redis refuses the write of refused:1
            Path password = Files.writeString(dir.resolve("limited.password"), "limited-" + System.nanoTime());
            redis.cli(
                    "ACL",
                    "SETUSER",
                    "limited",
                    "on",
                    ">" + Files.readString(password),
                    "%R~*",
                    "%RW~ok:*",
                    "%RW~refused:2",
                    "&*",
                    "+@all");
            List<String> args = new ArrayList<>(List.of(
                    "--events", events.toString(),
                    "--out", out.toString(),
                    "--dlq-out", dlq.toString(),
                    "--work-dir", dir.resolve("work").toString(),
                    "--partitions", "3",
                    "--store", "redis",
                    "--redis-servers", redis.uri(),
                    "--redis-user", "limited",
                    "--redis-password", "file:" + password));
            assertEquals(0, replay(args));
        }
        List<JsonNode> expected = new ArrayList<>();
        for (String line : Scenarios.lines("cdc", "bad-input.dead-letters.jsonl")) {
            JsonNode letter = JSON.readTree(line);
            if (letter.path("job").asText().equals("nearline-cache-updater")
                    && (!letter.path("reason").asText().equals("STORE_REJECTED")
                            || letter.path("key").asText().equals("refused:1"))) {
                expected.add(letter);
            }
        }
        List<JsonNode> actual = new ArrayList<>();
        for (String line : Files.readAllLines(dlq)) {
            actual.add(JSON.readTree(line));
        }
        Comparator<JsonNode> bySource = Comparator.comparing(
                l -> l.get("source").toString() + l.path("reason").asText());
        expected.sort(bySource);
        actual.sort(bySource);
        assertEquals(expected.size(), actual.size(), "dead letters: " + actual);
        for (int i = 0; i < expected.size(); i++) {
            JsonNode want = expected.get(i);
            JsonNode got = actual.get(i);
            for (String field : List.of("reason", "job", "source", "key", "value")) {
                assertEquals(want.get(field), got.get(field), field + " of dead letter " + i + ": " + got);
            }
            if (!want.path("reason").asText().equals("STORE_REJECTED")) {
                assertEquals(want.get("detail"), got.get("detail"), "detail of dead letter " + i);
            } else {
                assertTrue(got.path("detail").asText().contains("NOPERM"), "the store's refusal: " + got);
            }
        }
        List<String> written = Files.readAllLines(out).stream()
                .map(line -> line.substring(0, line.indexOf(',')))
                .toList();
        assertEquals(List.of("{\"key\":\"ok:1\"", "{\"key\":\"ok:2\"", "{\"key\":\"refused:2\""), written);
    }

    /**
     * A real outage under the running connector, in place of the injected one the other engines get:
     * the redis-server is frozen (SIGSTOP: commands time out) for 6 s once the connector has written
     * some of the stream, longer than a write's own retries last. The tasks must hold on to their
     * writes, pause their input meanwhile, and end exactly where the oracle ends: nothing dropped.
     */
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    @Test
    void aFrozenStoreIsWaitedOutAndNothingIsLost() throws Exception {
        Assumptions.assumeTrue(RedisServerProcess.skipReason().isEmpty(), () -> RedisServerProcess.skipReason()
                .orElse(""));
        Path events = dir.resolve("changes.jsonl");
        ChangeEventGenerator.write(events, 60_000, 5_000, Seeds.seed());
        Path out = dir.resolve("state.jsonl");
        try (RedisServerProcess redis = RedisServerProcess.start(dir.resolve("redis"), ForkedRedis.STORE)) {
            List<String> args = new ArrayList<>(List.of(
                    "--events", events.toString(),
                    "--out", out.toString(),
                    "--work-dir", dir.resolve("work").toString(),
                    "--partitions", "3",
                    "--store", "redis",
                    "--set", "write.max-attempts=3",
                    "--set", "write.outage.max-pause=500ms",
                    "--set", "redis.command-timeout=1s"));
            redis.settings().forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
            ConnectEngine.METRICS.reset(); // the freeze waits for this run's writes, not the last test's
            AtomicBoolean froze = new AtomicBoolean();
            Thread freezer = new Thread(() -> {
                try {
                    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                    while (ConnectEngine.METRICS.count("events.written") < 5_000 && System.nanoTime() < deadline) {
                        Thread.sleep(10);
                    }
                    redis.pause();
                    froze.set(true);
                    Thread.sleep(6_000);
                    redis.resume();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            freezer.start();
            int code = replay(args);
            freezer.join();
            assertEquals(0, code);
            assertTrue(froze.get(), "the store was never frozen");
        }
        assertTrue(engineMetrics().count("write.failed") > 0, "the outage was shorter than the writer's retries");
        assertEquals(Scenarios.expectedState(events), Files.readAllLines(out), "state after the outage");
    }

    /** The embedded store cannot be a connector's: refused before anything starts, one line, exit 2. */
    @Test
    void theEmbeddedStoreIsRefusedBeforeAnythingStarts() throws Exception {
        Path events = Scenarios.copy("scrambled.jsonl", dir);
        int code = replay(List.of(
                "--events", events.toString(),
                "--out", dir.resolve("state.jsonl").toString(),
                "--work-dir", dir.resolve("work").toString(),
                "--store", "rocksdb"));
        assertEquals(2, code);
        assertTrue(Files.notExists(dir.resolve("work/kafka")), "nothing was started");
    }
}
