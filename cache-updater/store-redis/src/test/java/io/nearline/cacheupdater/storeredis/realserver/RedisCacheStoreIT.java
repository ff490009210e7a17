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
package io.nearline.cacheupdater.storeredis.realserver;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriteOutcome;
import io.nearline.cacheupdater.core.WriteResult;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.KeyHistory;
import io.nearline.cacheupdater.storeredis.RedisCacheStore;
import io.nearline.cacheupdater.storeredis.RedisStoreSettings;
import io.nearline.cacheupdater.storeredis.testkit.RedisStoreSetup;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.common.store.StoreException;
import io.nearline.common.store.StoreUnavailableException;
import io.nearline.common.testkit.RedisServerProcess;
import io.nearline.common.testkit.Seeds;
import io.nearline.common.version.Version;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The store contract against a real redis-server, and what only a Redis store has to get right. */
class RedisCacheStoreIT extends RedisStoreContract {

    private RedisServerProcess server;

    @Override
    protected Map<String, String> startServers() throws Exception {
        server = RedisServerProcess.start(Files.createTempDirectory("nearline-redis-it"), RedisStoreSetup.STORE);
        return server.settings();
    }

    @Override
    protected void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private ScnOrderedWriter writer() {
        return new ScnOrderedWriter(
                store(), WriterSettings.defaults().withTtl(Duration.ofHours(1)), new InMemoryMetrics());
    }

    private long calls(String command) throws Exception {
        String stats = server.cli("INFO", "commandstats");
        return stats.lines()
                .filter(l -> l.startsWith("cmdstat_" + command + ":calls="))
                .map(l -> Long.parseLong(l.substring(l.indexOf('=') + 1, l.indexOf(','))))
                .findFirst()
                .orElse(0L);
    }

    /** The point of the function: compare and write on the server, one command per write, no read first. */
    @Test
    void theOrderedWriteIsOneCommandOnTheServer() throws Exception {
        ScnOrderedWriter w = writer();
        CacheKey k = key("one-trip");
        long fcalls = calls("fcall");
        long gets = calls("get");
        assertEquals(
                WriteOutcome.APPLIED,
                w.write(k, KeyHistory.record(k, Version.of(4, 1), false)).outcome());
        assertEquals(
                WriteOutcome.STALE,
                w.write(k, KeyHistory.record(k, Version.of(3, 1), false)).outcome());
        assertEquals(
                WriteOutcome.DUPLICATE,
                w.write(k, KeyHistory.record(k, Version.of(4, 1), false)).outcome());
        assertEquals(
                WriteOutcome.REFRESHED,
                w.write(k, KeyHistory.record(k, Version.of(4, 1), false), true).outcome());
        assertEquals(fcalls + 4, calls("fcall"));
        assertEquals(gets, calls("get"), "no read before a write");
    }

    @Test
    void theVersionIsReadableOnTheServerWithoutThePayload() throws Exception {
        CacheKey k = key("readable");
        writer().write(k, KeyHistory.record(k, Version.of(0x0102030405060708L, 9), false));
        // bytes 10..21: SCN then schema version, big-endian, after the 8-byte token and format, flags
        assertEquals(
                "\"\\x01\\x02\\x03\\x04\\x05\\x06\\a\\b\\x00\\x00\\x00\\t\"",
                server.cli("--no-raw", "GETRANGE", k.value(), "10", "21"));
    }

    @Test
    void aVersionWithASequenceIsReadableToo() throws Exception {
        CacheKey k = key("readable-v2");
        writer().write(k, KeyHistory.record(k, Version.of(7, 0x0102030405060708L, 9), false));
        // format 2, bytes 10..29: SCN, sequence, schema version
        assertEquals(
                "\"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\a\\x01\\x02\\x03\\x04\\x05\\x06\\a\\b\\x00\\x00\\x00\\t\"",
                server.cli("--no-raw", "GETRANGE", k.value(), "10", "29"));
    }

    @Test
    void aKeyHoldingAnotherTypeIsRefusedAndLeftAlone() throws Exception {
        CacheKey k = key("a-list");
        server.cli("RPUSH", k.value(), "someone else's");
        WriteResult r = writer().write(k, KeyHistory.record(k, Version.of(5, 1), false));
        assertEquals(WriteOutcome.FAILED, r.outcome());
        assertInstanceOf(StoreException.class, r.failure());
        assertTrue(
                r.failure().getMessage().contains("another type"), r.failure().getMessage());
        assertEquals("someone else's", server.cli("LRANGE", k.value(), "0", "-1"));
    }

    @Test
    void aValueThisStoreDidNotWriteIsNeverOverwritten() throws Exception {
        for (String foreign : new String[] {"x", "a string value longer than a record's header"}) {
            CacheKey k = key("foreign-" + foreign.length());
            server.cli("SET", k.value(), foreign);
            WriteResult r = writer().write(k, KeyHistory.record(k, Version.of(5, 1), false));
            assertEquals(WriteOutcome.FAILED, r.outcome(), foreign);
            assertTrue(
                    r.failure().getMessage().contains("unreadable"), r.failure().getMessage());
            assertEquals(foreign, server.cli("GET", k.value()));
        }
    }

    /**
     * A writer's batch is one call of the function, and each key in it ends as it would alone: a value
     * the store did not write fails its own key and is left as it was, the others are written.
     */
    @Test
    void aBatchIsOneCallAndEachKeyEndsAsItWouldAlone() throws Exception {
        ScnOrderedWriter w = writer();
        CacheKey fresh = key("batch-fresh");
        CacheKey older = key("batch-older");
        CacheKey same = key("batch-same");
        CacheKey again = key("batch-again");
        CacheKey foreign = key("batch-foreign");
        for (CacheKey k : List.of(older, same, again)) {
            w.write(k, KeyHistory.record(k, Version.of(10, 1), false));
        }
        server.cli("SET", foreign.value(), "someone else's");
        long fcalls = calls("fcall");
        List<ScnOrderedWriter.Change> batch = List.of(
                new ScnOrderedWriter.Change(fresh, KeyHistory.record(fresh, Version.of(3, 1), false), false),
                new ScnOrderedWriter.Change(older, KeyHistory.record(older, Version.of(9, 1), false), false),
                new ScnOrderedWriter.Change(same, KeyHistory.record(same, Version.of(10, 1), false), false),
                new ScnOrderedWriter.Change(again, KeyHistory.record(again, Version.of(10, 1), false), true),
                new ScnOrderedWriter.Change(foreign, KeyHistory.record(foreign, Version.of(1, 1), false), false));
        List<WriteResult> results = new ArrayList<>();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            for (CompletableFuture<WriteResult> r : w.writeAllAsync(batch, timer)) {
                results.add(r.get(30, TimeUnit.SECONDS));
            }
        } finally {
            timer.shutdownNow();
        }
        assertEquals(
                List.of(
                        WriteOutcome.APPLIED,
                        WriteOutcome.STALE,
                        WriteOutcome.DUPLICATE,
                        WriteOutcome.REFRESHED,
                        WriteOutcome.FAILED),
                results.stream().map(WriteResult::outcome).toList());
        assertEquals(Version.of(10, 1), results.get(1).winner(), "a stale write reports the version stored");
        assertTrue(
                results.get(4).failure().getMessage().contains("unreadable"),
                results.get(4).failure().getMessage());
        assertEquals("someone else's", server.cli("GET", foreign.value()));
        assertEquals(fcalls + 1, calls("fcall"), "the batch is one call of the function");
    }

    /**
     * What the server refuses for one key of a batch fails that key alone, as it would with one key a
     * call: a key the user may not write (the server refuses the whole call before running it, and the
     * keys are sent again one by one) and a key holding another type (refused inside the call).
     */
    @Test
    void aKeyTheServerRefusesInABatchFailsAlone() throws Exception {
        Path password = Files.writeString(Files.createTempFile("limited", ".password"), "limited-" + System.nanoTime());
        server.cli(
                "ACL",
                "SETUSER",
                "limited",
                "on",
                ">" + Files.readString(password),
                "%R~*",
                "%RW~" + key("may-").value() + "*",
                "&*",
                "+@all");
        Map<String, String> limited = new HashMap<>(server.settings());
        limited.put("redis.username", "limited");
        limited.put("redis.password", "file:" + password);
        CacheKey written = key("may-write");
        CacheKey forbidden = key("not-allowed");
        CacheKey aList = key("may-list");
        server.cli("RPUSH", aList.value(), "someone else's");
        try (CacheStore store = CacheStores.open(Config.of(limited))) {
            ScnOrderedWriter w = new ScnOrderedWriter(
                    store, WriterSettings.defaults().withTtl(Duration.ofHours(1)), new InMemoryMetrics());
            List<WriteResult> results = new ArrayList<>();
            ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
            try {
                for (CompletableFuture<WriteResult> r : w.writeAllAsync(
                        List.of(
                                new ScnOrderedWriter.Change(
                                        written, KeyHistory.record(written, Version.of(1, 1), false), false),
                                new ScnOrderedWriter.Change(
                                        forbidden, KeyHistory.record(forbidden, Version.of(1, 1), false), false),
                                new ScnOrderedWriter.Change(
                                        aList, KeyHistory.record(aList, Version.of(1, 1), false), false)),
                        timer)) {
                    results.add(r.get(30, TimeUnit.SECONDS));
                }
            } finally {
                timer.shutdownNow();
            }
            assertEquals(
                    List.of(WriteOutcome.APPLIED, WriteOutcome.FAILED, WriteOutcome.FAILED),
                    results.stream().map(WriteResult::outcome).toList());
            assertTrue(
                    results.get(1).failure().getMessage().contains("NOPERM"),
                    results.get(1).failure().getMessage());
            assertTrue(
                    results.get(2).failure().getMessage().contains("another type"),
                    results.get(2).failure().getMessage());
        }
        assertEquals("0", server.cli("EXISTS", forbidden.value()));
        assertEquals("someone else's", server.cli("LRANGE", aList.value(), "0", "-1"));
    }

    /** As {@link #theServerOrdersVersionsExactlyAsJavaDoes}, with each side's writes sent as one batch. */
    @Test
    void aBatchOrdersVersionsExactlyAsJavaDoes() throws Exception {
        long seed = Seeds.seed();
        Random random = new Random(seed);
        ScnOrderedWriter w = writer();
        List<ScnOrderedWriter.Change> firsts = new ArrayList<>();
        List<ScnOrderedWriter.Change> seconds = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            Version first = Version.of(scn(random), seq(random), schema(random));
            Version second = random.nextInt(4) == 0
                    ? first
                    : Version.of(random.nextBoolean() ? first.scn().value() : scn(random), seq(random), schema(random));
            CacheKey k = key("batch-order-" + i);
            firsts.add(new ScnOrderedWriter.Change(k, KeyHistory.record(k, first, false), false));
            seconds.add(new ScnOrderedWriter.Change(k, KeyHistory.record(k, second, false), false));
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            for (CompletableFuture<WriteResult> r : w.writeAllAsync(firsts, timer)) {
                assertEquals(WriteOutcome.APPLIED, r.get(30, TimeUnit.SECONDS).outcome(), Seeds.replay(seed));
            }
            List<CompletableFuture<WriteResult>> results = w.writeAllAsync(seconds, timer);
            for (int i = 0; i < seconds.size(); i++) {
                int order = seconds.get(i)
                        .record()
                        .version()
                        .compareTo(firsts.get(i).record().version());
                WriteOutcome expected =
                        order > 0 ? WriteOutcome.APPLIED : order == 0 ? WriteOutcome.DUPLICATE : WriteOutcome.STALE;
                assertEquals(
                        expected,
                        results.get(i).get(30, TimeUnit.SECONDS).outcome(),
                        firsts.get(i).record().version() + " then "
                                + seconds.get(i).record().version() + "; " + Seeds.replay(seed));
            }
        } finally {
            timer.shutdownNow();
        }
    }

    /**
     * A server restarted empty has lost the functions too: the job's user may not load them, so its writes
     * fail transiently, naming the admin's load, until an admin has loaded them; then they go through.
     */
    @Test
    void aRestartedServerWaitsForTheAdminToLoadTheFunctions() throws Exception {
        CacheKey k = key("after-restart");
        ScnOrderedWriter w = writer();
        assertEquals(
                WriteOutcome.APPLIED,
                w.write(k, KeyHistory.record(k, Version.of(1, 1), false)).outcome());
        server.restartWithoutFunctions();
        try {
            assertEquals("", server.cli("FUNCTION", "LIST"), "a restarted server has no functions");
            WriteResult waiting = await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> w.write(k, KeyHistory.record(k, Version.of(2, 1), false)),
                            r -> r.failure() != null
                                    && String.valueOf(r.failure().getMessage()).contains("Function not found"));
            assertEquals(WriteOutcome.FAILED, waiting.outcome());
            assertTrue(
                    waiting.failure().getMessage().contains("an admin must load " + RedisCacheStore.LIBRARY),
                    waiting.failure().getMessage());
            assertEquals("", server.cli("FUNCTION", "LIST"), "the job's user loaded nothing");
        } finally {
            server.loadFunctions();
        }
        await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> w.write(k, KeyHistory.record(k, Version.of(2, 1), false))
                                .outcome(),
                        o -> o == WriteOutcome.APPLIED);
    }

    /** A user that may load functions (not recommended) loads them again itself after a restart. */
    @Test
    void aUserAllowedToLoadFunctionsLoadsThemAgainItself() throws Exception {
        CacheKey k = key("loaded-by-itself");
        try (CacheStore admin = CacheStores.open(Config.of(server.adminSettings()))) {
            ScnOrderedWriter w = new ScnOrderedWriter(
                    admin, WriterSettings.defaults().withTtl(Duration.ofHours(1)), new InMemoryMetrics());
            server.restartWithoutFunctions();
            await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> w.write(k, KeyHistory.record(k, Version.of(1, 1), false))
                                    .outcome(),
                            o -> o == WriteOutcome.APPLIED);
        }
        assertTrue(server.cli("FUNCTION", "LIST").contains(RedisCacheStore.LIBRARY));
    }

    /** The job's user runs the store's commands and nothing else: no server code, no admin commands. */
    @Test
    void theJobsUserCannotReplaceServerCodeOrRunAdminCommands() throws Exception {
        for (List<String> refused : List.of(
                List.of("FUNCTION", "LOAD", "REPLACE", RedisCacheStore.functionLibrary()),
                List.of("FUNCTION", "DELETE", RedisCacheStore.LIBRARY),
                List.of("FLUSHALL"),
                List.of("CONFIG", "SET", "save", "60 1"),
                List.of("KEYS", "*"),
                List.of("ACL", "LIST"))) {
            String reply = server.cliAsJob(refused.toArray(String[]::new));
            assertTrue(reply.contains("NOPERM"), refused.get(0) + ": " + reply);
        }
        // control: the same user reads, and the admin may do what the job may not
        assertTrue(server.cliAsJob("FUNCTION", "LIST").contains(RedisCacheStore.LIBRARY));
        assertTrue(server.cli("ACL", "LIST").contains(RedisServerProcess.ADMIN));
    }

    /** Frozen (SIGSTOP), the server does not answer: writes fail transiently, and succeed once it goes on. */
    @Test
    void aFrozenServerIsUnavailableAndThenServesAgain() throws Exception {
        Map<String, String> quick = new HashMap<>(server.settings());
        quick.put("redis.command-timeout", "200ms");
        CacheKey k = key("frozen");
        try (RedisCacheStore store = RedisCacheStore.connect(RedisStoreSettings.from(Config.of(quick)))) {
            ScnOrderedWriter w = new ScnOrderedWriter(
                    store, WriterSettings.defaults().withTtl(Duration.ofHours(1)), new InMemoryMetrics());
            server.pause();
            WriteResult during;
            try {
                during = w.write(k, KeyHistory.record(k, Version.of(3, 1), false));
            } finally {
                server.resume();
            }
            assertEquals(WriteOutcome.FAILED, during.outcome());
            assertInstanceOf(StoreUnavailableException.class, during.failure(), String.valueOf(during.failure()));
            await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> w.write(k, KeyHistory.record(k, Version.of(3, 1), false))
                                    .outcome(),
                            o -> o == WriteOutcome.APPLIED || o == WriteOutcome.DUPLICATE);
        }
    }

    /**
     * The function compares versions piece by piece; Java compares {@link Version}s. Over random pairs
     * (half of them sharing an SCN, so the sequence decides; format 1 and 2 records mixed),
     * weighted to the values where a byte or sign boundary would show (and beyond 2^53, where a Lua
     * number would lose precision), both must order alike.
     */
    @Test
    void theServerOrdersVersionsExactlyAsJavaDoes() {
        long seed = Seeds.seed();
        Random random = new Random(seed);
        ScnOrderedWriter w = writer();
        for (int i = 0; i < 2000; i++) {
            Version first = Version.of(scn(random), seq(random), schema(random));
            Version second = random.nextInt(4) == 0
                    ? first
                    : Version.of(random.nextBoolean() ? first.scn().value() : scn(random), seq(random), schema(random));
            CacheKey k = key("order-" + i);
            w.write(k, KeyHistory.record(k, first, false));
            int order = second.compareTo(first);
            WriteOutcome expected =
                    order > 0 ? WriteOutcome.APPLIED : order == 0 ? WriteOutcome.DUPLICATE : WriteOutcome.STALE;
            assertEquals(
                    expected,
                    w.write(k, KeyHistory.record(k, second, false)).outcome(),
                    first + " then " + second + "; " + Seeds.replay(seed));
        }
    }

    private static final long[] EDGE_SCNS = {
        0,
        1,
        127,
        128,
        255,
        256,
        65_535,
        65_536,
        (1L << 31) - 1,
        1L << 31,
        (1L << 53) - 1,
        1L << 53,
        (1L << 53) + 1,
        Long.MAX_VALUE - 1,
        Long.MAX_VALUE
    };
    private static final int[] EDGE_SCHEMAS = {0, 1, 127, 128, 255, 256, Integer.MAX_VALUE};

    private static long scn(Random random) {
        return random.nextBoolean() ? EDGE_SCNS[random.nextInt(EDGE_SCNS.length)] : random.nextLong(Long.MAX_VALUE);
    }

    /** 0 (a format 1 record) half the time. */
    private static long seq(Random random) {
        return random.nextBoolean() ? 0 : scn(random);
    }

    private static int schema(Random random) {
        return random.nextBoolean() ? EDGE_SCHEMAS[random.nextInt(EDGE_SCHEMAS.length)] : random.nextInt(1000);
    }
}
