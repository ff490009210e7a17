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
package io.nearline.jobs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.testkit.InMemoryCacheStore;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.cache.ConsistentThroughEntry;
import io.nearline.common.config.Config;
import io.nearline.common.version.Version;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The client's read contract over a store the test fills as a job would, with a table in a map as the database. */
class NearlineClientTest {

    private static final String TABLE = "public.items";
    private static final long NOW = 1_000_000;

    private final InMemoryCacheStore store = new InMemoryCacheStore();
    private final Map<String, String> database = new HashMap<>();
    private final RowSource rows = (table, values) ->
            Optional.ofNullable(database.get(values.get(0))).map(r -> r.getBytes(StandardCharsets.UTF_8));
    private final Config settings = Config.of(Map.of(
            "cdc.format", "debezium-json", "cdc.debezium.tables", "public.items,public.orders", "client.entries", "2"));

    private NearlineClient client() {
        return new NearlineClient(store, settings, rows, Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));
    }

    private void cache(String id, long scn, String row) {
        CacheRecord r = row == null
                ? CacheRecord.tombstone(Version.of(scn, 1, 0), 0)
                : CacheRecord.upsert(Version.of(scn, 1, 0), 0, row.getBytes(StandardCharsets.UTF_8));
        store.upsert(CacheKey.of("public.items:" + id), CacheRecordCodec.encode(r), Duration.ofHours(1));
    }

    private void publish(int partition, long scn, long commitTimeMillis) {
        ConsistentThroughEntry e =
                new ConsistentThroughEntry(TABLE, partition, "w", commitTimeMillis, Version.of(scn, 0, 0), NOW);
        store.upsert(
                CacheKey.of(
                        ConsistentThroughEntry.key(ConsistentThroughEntry.DEFAULT_KEY_PREFIX, TABLE, partition, "w")),
                CacheRecordCodec.encode(CacheRecord.upsert(e.version(), partition, e.payload())),
                Duration.ofHours(1));
    }

    private Version stored(String id) {
        return CacheRecordCodec.decode(store.get(CacheKey.of("public.items:" + id))
                        .orElseThrow()
                        .value())
                .version();
    }

    @Test
    void keysAndRecordsAreTheJobs() {
        cache("7", 40, "{\"id\":7}");
        cache("8", 41, null);
        NearlineClient client = client();
        assertEquals("public.items:a\\:b:c", client.key(TABLE, List.of("a:b", "c")));
        CachedRow seven = client.get(TABLE, List.of("7")).orElseThrow();
        assertEquals("{\"id\":7}", seven.row());
        assertEquals(Version.of(40, 1, 0), seven.version());
        assertTrue(client.get(TABLE, List.of("8")).orElseThrow().tombstone());
        assertTrue(client.get(TABLE, List.of("9")).isEmpty());
    }

    @Test
    void theOldestPartitionDecidesAndAPartitionNotPublishedHoldsTheTableBack() {
        publish(0, 50, NOW - 2_000);
        NearlineClient client = client();
        assertTrue(client.consistentThrough(TABLE).isEmpty(), "partition 1 has published nothing");
        publish(1, 30, NOW - 9_000);
        NearlineClient fresh = client();
        Through through = fresh.consistentThrough(TABLE).orElseThrow();
        assertEquals(Version.of(30, 0, 0), through.version());
        assertEquals(9_000, through.stalenessMillis(NOW));
        assertEquals(2, through.entries());
    }

    @Test
    void withinTheBoundTheCacheServesBeyondItTheDatabaseDoesAndRepairsTheEntry() throws Exception {
        cache("7", 20, "{\"id\":7,\"v\":\"old\"}");
        database.put("7", "{\"id\":7,\"v\":\"new\"}");
        publish(0, 50, NOW - 3_000);
        publish(1, 60, NOW - 1_000);
        NearlineClient client = client();

        Read served = client.read(TABLE, Duration.ofSeconds(5), List.of("7"));
        assertEquals(Read.From.CACHE, served.from());
        assertEquals(3_000, served.stalenessMillis());

        Read through = client.read(TABLE, Duration.ofSeconds(2), List.of("7"));
        assertEquals(Read.From.DATABASE, through.from());
        assertEquals("{\"id\":7,\"v\":\"new\"}", through.row());
        assertEquals("applied", through.written());
        assertEquals(Version.of(50, 0, 0), stored("7"), "written back at the oldest partition's version");
        assertEquals(new NearlineClient.ReadCounts(1, 0, 1, 0, 1, 3_000, 3_000), client.counts());
    }

    @Test
    void aWriteBackNeverHidesANewerChange() throws Exception {
        cache("7", 70, "{\"id\":7,\"v\":\"newest\"}"); // the job has written a change past the watermark
        database.put("7", "{\"id\":7,\"v\":\"read before it\"}");
        publish(0, 50, NOW - 30_000);
        publish(1, 60, NOW - 30_000);
        Read through = client().read(TABLE, Duration.ofSeconds(1), List.of("7"));
        assertEquals(Read.From.DATABASE, through.from());
        assertEquals("stale", through.written());
        assertEquals(Version.of(70, 1, 0), stored("7"));
    }

    @Test
    void aMissIsReadThroughAndADeletedRowBecomesATombstone() throws Exception {
        publish(0, 50, NOW);
        publish(1, 50, NOW);
        NearlineClient client = client();
        Read gone = client.read(TABLE, Duration.ofMinutes(1), List.of("404"));
        assertEquals(Read.From.DATABASE, gone.from());
        assertNull(gone.row());
        assertTrue(client.get(TABLE, List.of("404")).orElseThrow().tombstone());
        assertEquals(1, client.counts().misses());
    }

    @Test
    void withNothingPublishedAWriteBackOnlyFillsAnAbsentKey() throws Exception {
        cache("7", 20, "{\"id\":7,\"v\":\"cached\"}");
        database.put("7", "{\"id\":7,\"v\":\"db\"}");
        database.put("8", "{\"id\":8}");
        NearlineClient client = client();
        assertEquals(
                "stale", client.read(TABLE, Duration.ofHours(1), List.of("7")).written());
        assertEquals(Version.of(20, 1, 0), stored("7"));
        assertEquals(
                "applied", client.read(TABLE, Duration.ofHours(1), List.of("8")).written());
        assertEquals(NearlineClient.FLOOR, stored("8"), "below every change the job will write");
        assertEquals(1, client.counts().unknown());
    }

    @Test
    void readYourWritesWaitsForThePositionAndTimesOutWhenItNeverComes() throws Exception {
        publish(0, 100, NOW);
        publish(1, 90, NOW);
        NearlineClient client = client();
        assertEquals(
                90,
                client.awaitCommit(TABLE, 90, Duration.ofSeconds(1), Duration.ofMillis(5))
                        .version()
                        .scn()
                        .value());
        TimeoutException late = assertThrows(
                TimeoutException.class,
                () -> client.awaitCommit(TABLE, 95, Duration.ofMillis(100), Duration.ofMillis(5)));
        assertTrue(late.getMessage().contains("95"), late.getMessage());
        publish(1, 120, NOW);
        assertEquals(
                100,
                client.awaitCommit(TABLE, 95, Duration.ofSeconds(1), Duration.ofMillis(5))
                        .version()
                        .scn()
                        .value());
    }

    @Test
    void docsListEveryKey() {
        io.nearline.common.testkit.ConfigDocsCheck.assertInSync("client", NearlineClient.DEF);
    }

    @Test
    void commitPositionsAreReadAsTheConnectorsRankChanges() {
        assertEquals(0x15620C0L, CommitPosition.postgres("0/15620C0"));
        assertEquals((1L << 32) | 0x10L, CommitPosition.postgres("1/10"));
        assertTrue(CommitPosition.binlog("binlog.000002", 4) > CommitPosition.binlog("binlog.000001", 900_000));
        assertThrows(IllegalArgumentException.class, () -> CommitPosition.postgres("15620C0"));
    }
}
